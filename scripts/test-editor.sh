#!/usr/bin/env bash
# The VS Code extension in a real VS Code: code-server 4.100.3 (VS Code
# 1.100.3) in a headless Chromium, driven by playwright-core, on the packaged
# .vsix and the executor-lsp-server of this build (tests/editor/).
#
# Installs what it needs, once: Debian's chromium, ripgrep, libkrb5-dev,
# python3 and make, and code-server and playwright-core from npm into
# $EXECUTOR_STUDIO_EDITOR_CACHE (~/.cache/executor-studio-editor; about
# 900 MB with chromium). Not part of scripts/test.sh.
#
# Screenshots of every step go to $EXECUTOR_STUDIO_EDITOR_SCREENSHOTS (a new
# temporary folder by default); the test prints where.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build}
cache=${EXECUTOR_STUDIO_EDITOR_CACHE:-$HOME/.cache/executor-studio-editor}
code_server_version=4.100.3
playwright_version=1.65.1

say() { echo "test-editor: $*"; }

# --- Debian packages: the project's, then the editor's -----------------------
bash "$root/scripts/setup.sh"
missing=()
for p in chromium ripgrep libkrb5-dev python3 make; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# code-server 4.100.3 runs on Node 20 only.
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "test-editor: code-server $code_server_version needs Node 20, this is $(node --version)." >&2
  echo "  Install Node 20 (NodeSource's nodejs 20.x) and run this again." >&2
  exit 1
fi
# Native modules are built against this Node's own headers (node-gyp would
# download them otherwise).
node_dir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
if [ ! -f "$node_dir/include/node/node.h" ]; then
  echo "test-editor: no Node headers in $node_dir/include/node (NodeSource's nodejs has them)." >&2
  exit 1
fi
node_gyp="$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
if [ ! -f "$node_gyp" ]; then
  echo "test-editor: npm's node-gyp is not at $node_gyp." >&2
  exit 1
fi

# --- code-server and playwright-core, once ----------------------------------
stamp="$cache/.installed-code-server-$code_server_version-playwright-core-$playwright_version"
code_server="$cache/node_modules/code-server"
if [ ! -f "$stamp" ]; then
  say "installing code-server $code_server_version and playwright-core $playwright_version into $cache"
  rm -rf "$cache"
  mkdir -p "$cache"
  echo '{ "private": true }' > "$cache/package.json"
  # --ignore-scripts: code-server's postinstall (below, by hand) would let
  # @vscode/ripgrep download its binary from GitHub.
  (cd "$cache" && npm install --ignore-scripts --no-audit --no-fund \
    "code-server@$code_server_version" "playwright-core@$playwright_version")
  export npm_config_nodedir="$node_dir"
  # What code-server's postinstall.sh does: the VS Code dependencies and the
  # built-in extensions' ones, the native modules, node_modules.asar and the
  # CLI scripts.
  (cd "$cache" && npm rebuild argon2 --build-from-source --foreground-scripts)
  vscode="$code_server/lib/vscode"
  (cd "$vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
  (cd "$vscode/extensions" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
  # Debian's rg instead of the download (its postinstall skips when bin/ exists).
  mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
  ln -sf "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
  for module in kerberos @parcel/watcher @vscode/spdlog @vscode/deviceid native-watchdog node-pty; do
    say "building $module"
    (cd "$vscode/node_modules/$module" && node "$node_gyp" rebuild --nodedir="$node_dir" >/dev/null)
  done
  ln -sfn node_modules "$vscode/node_modules.asar"
  ln -sf code-linux.sh "$vscode/bin/remote-cli/code-server"
  ln -sf browser-linux.sh "$vscode/bin/helpers/browser.sh"
  touch "$stamp"
fi

# --- the server and the .vsix -------------------------------------------------
bash "$root/scripts/build.sh" executor-lsp-server executor-opt executor-compile executor-server
server="$build/bin/executor-lsp-server"
(
  cd "$root/vscode-extension"
  npm ci --no-audit --no-fund
  npm run package
)
vsix=$(ls -t "$root"/vscode-extension/executor-studio-*.vsix | head -n 1)

# --- the test -------------------------------------------------------------------
EDITOR_CODE_SERVER="$code_server" \
EDITOR_PLAYWRIGHT="$cache/node_modules/playwright-core" \
EDITOR_CHROMIUM="${EDITOR_CHROMIUM:-$(command -v chromium)}" \
EDITOR_VSIX="$vsix" \
EDITOR_SERVER="$server" \
EDITOR_OPT="$build/bin/executor-opt" \
EDITOR_COMPILE="$build/bin/executor-compile" \
EDITOR_EXECUTOR_SERVER="$build/bin/executor-server" \
EDITOR_SAMPLES="$root/samples" \
  node --test --test-reporter=spec "$root/tests/editor/editor.test.mjs"
