#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs every test: lit + FileCheck,
# GoogleTest, end-to-end against a real executor-server, then the VS Code
# extension's (build, lint, node's test runner against the executor-lsp-server
# just built).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# --sanitize=address,undefined (the whole suite) or --sanitize=thread (the
# runtime, language-server and studio-model tests), each in its own build
# folder: scripts/lib/test-sanitized.sh.
for arg in "$@"; do
  case $arg in
    --sanitize=*) exec bash "$root/scripts/lib/test-sanitized.sh" "${arg#--sanitize=}" ;;
    *) echo "usage: scripts/test.sh [--sanitize=address,undefined|--sanitize=thread]" >&2; exit 2 ;;
  esac
done
build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
# The executor parts for aarch64, which the e2e-aarch64 tests run under qemu:
# a sysroot of Debian's arm64 packages (downloaded once), then the cross build.
# Without the sysroot those tests are skipped, and say why.
if sysroot_log=$(bash "$root/scripts/cross/aarch64-sysroot.sh" 2>&1); then
  bash "$root/scripts/cross/build-aarch64.sh"
else
  echo "test: no arm64 sysroot, so the aarch64 tests will be skipped:" >&2
  echo "$sysroot_log" | tail -n 5 >&2
fi
ctest --test-dir "$build" --output-on-failure -j "${CTEST_PARALLEL_LEVEL:-2}"

# The VS Code extension, from its committed lock file. Its language-server
# tests use this build's server; they are skipped, and say so, only when that
# binary does not exist.
echo "test: vscode-extension"
(
  cd "$root/vscode-extension"
  npm ci --no-audit --no-fund
  npm run build
  npm run lint
  EXECUTOR_LSP_SERVER="$build/bin/executor-lsp-server" npm test
)
