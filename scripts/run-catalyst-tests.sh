#!/usr/bin/env bash
# Runs Catalyst's executor and cross-compile lit tests with executor-opt in
# place of quantum-opt, as a peer's test suite. Catalyst is not vendored: pass
# a checkout of PennyLaneAI/catalyst (a work tree or a bare git directory).
#
#   scripts/run-catalyst-tests.sh /path/to/catalyst [lit options]
#
# The files are copied to a temporary folder (never into this repository);
# the expected differences are listed, with their reasons, in
# docs/catalyst-compatibility.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build}
catalyst=${1:?usage: $0 CATALYST_CHECKOUT [lit options]}
shift
llvm=/usr/lib/llvm-22/bin
[ -x "$build/bin/executor-opt" ] || { echo "no $build/bin/executor-opt: run scripts/build.sh first" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/catalyst-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT
patterns=('mlir/test/Executor/*.mlir' 'mlir/test/Catalyst/CrossCompile*.mlir')
if git -C "$catalyst" rev-parse --git-dir >/dev/null 2>&1 &&
   [ "$(git -C "$catalyst" rev-parse --is-bare-repository)" = true ]; then
  for p in "${patterns[@]}"; do
    git -C "$catalyst" ls-tree -r --name-only HEAD -- "$(dirname "$p")" |
      while read -r f; do
        case "$f" in $p) mkdir -p "$work/$(dirname "$f")"; git -C "$catalyst" show "HEAD:$f" >"$work/$f" ;; esac
      done
  done
else
  for p in "${patterns[@]}"; do
    for f in "$catalyst"/$p; do
      [ -f "$f" ] || continue
      rel=${f#"$catalyst"/}
      mkdir -p "$work/$(dirname "$rel")"
      cp "$f" "$work/$rel"
    done
  done
fi
count=$(find "$work" -name '*.mlir' | wc -l)
[ "$count" -gt 0 ] || { echo "no Catalyst executor tests under $catalyst" >&2; exit 2; }
find "$work" -name '*.mlir' -exec sed -i 's/quantum-opt/executor-opt/g' {} +
cat >"$work/lit.cfg.py" <<CFG
import lit.formats
config.name = "catalyst-on-executor-opt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = "$work"
config.environment["PATH"] = "$build/bin:$llvm:" + config.environment.get("PATH", "/usr/bin:/bin")
CFG
echo "catalyst-tests: $count files from $catalyst"
"$llvm/lit" "$work" "$@"
