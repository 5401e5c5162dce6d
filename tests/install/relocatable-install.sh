#!/usr/bin/env bash
# Installs the build into a temporary prefix, moves the prefix, and there:
# compiles a sample with the installed executor-compile, runs it against the
# installed executor-server, and builds the sample plugins and host against
# the installed CMake package (find_package(ExecutorStudio)).
#   relocatable-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/executor-install.XXXXXX")
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "relocatable-install: FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/first" >/dev/null
mv "$work/first" "$work/moved"
prefix=$work/moved
echo "installed, then moved to $prefix"

for tool in executor-opt executor-compile executor-server executor-lsp-server executor-studio; do
  [ -x "$prefix/bin/$tool" ] || fail "bin/$tool is missing"
done
# catalyst-executor: a link to executor-server beside it (relative: moved
# with the tree), which answers under Catalyst's name.
[ "$(readlink "$prefix/bin/catalyst-executor")" = executor-server ] ||
  fail "bin/catalyst-executor is not a link to executor-server"
"$prefix/bin/catalyst-executor" --version | grep -q "(catalyst-executor)" ||
  fail "catalyst-executor --version"
for f in lib/libExecutorRuntime.so lib/librt_executor.so \
         include/ExecutorRuntime/CAPI.h include/ExecutorRuntime/Plugin.h \
         include/ExecutorRuntime/ExecutorClient.h \
         lib/cmake/ExecutorStudio/ExecutorStudioConfig.cmake \
         lib/systemd/system/executor-server.service; do
  [ -e "$prefix/$f" ] || fail "$f is missing"
done
# Nothing installed may point back into the build tree.
for f in "$prefix"/bin/* "$prefix"/lib/*.so; do
  if readelf -d "$f" 2>/dev/null | grep -E 'R(UN)?PATH' | grep -qF "$build"; then
    fail "$f has an RPATH into the build tree: $(readelf -d "$f" | grep -E 'R(UN)?PATH')"
  fi
done
for tool in executor-opt executor-compile executor-lsp-server executor-studio; do
  "$prefix/bin/$tool" --version | grep -q "Executor Studio" || fail "$tool --version"
done

# The sample plugins and host, against the installed package.
cmake -S "$prefix/share/executor-studio/samples/plugins" -B "$work/plugins" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER=clang-22 >/dev/null
cmake --build "$work/plugins" >/dev/null
echo "built the sample plugins and host against $prefix/lib/cmake/ExecutorStudio"

# An executor from the installed tree, with the plugins just built.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/start-executor.sh"
start_executor "$prefix/bin/executor-server" "$work/server.out" "$work/server.log" \
  --plugin "$work/plugins/libsample_histogram.so" --plugin "$work/plugins/libsample_moments.so" ||
  true
server=$executor_pid
[ -n "$executor_address" ] || fail "the installed executor-server did not start"
address=$executor_address

# A sample compiled by the installed executor-compile, run on it.
cd "$work"
"$prefix/bin/executor-compile" "$prefix/share/executor-studio/samples/custom-call.mlir" -o "$work/prog"
EXECUTOR_ADDRESS_MAP="ADDR:PORT=$address" "$work/prog" >"$work/prog.out"
grep -q '^\[25.5,  446.25\]$' "$work/prog.out" || fail "unexpected output: $(cat "$work/prog.out")"
readelf -d "$work/prog" | grep -E 'R(UN)?PATH' | grep -qF "$prefix/lib" ||
  fail "the program does not find the installed runtime: $(readelf -d "$work/prog" | grep -E 'R(UN)?PATH')"
echo "custom-call.mlir compiled and run from the installed tree"

"$work/plugins/sample_host" "$address" | grep -qx "mean 2.5 variance 1.25" ||
  fail "sample_host against the installed runtime"
echo "sample_host ran against ExecutorStudio::Runtime"
echo "relocatable-install: PASS"
