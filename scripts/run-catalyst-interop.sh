#!/usr/bin/env bash
# run-catalyst-interop.sh /path/to/catalyst [BUILD_DIR]
#
# Builds Catalyst's own executor pieces from a Catalyst checkout with the
# LLVM 22 here (out of tree, in a temporary directory; nothing of Catalyst's
# is copied into this repository) and runs them against this project's:
#  1. catalyst-executor (runtime/lib/executor/executor.cpp) under the
#     InteropTest GoogleTests: ExecutorClient's Catalyst path on Catalyst's
#     own executor.
#  2. Catalyst's runtime (ExecutorSession.cpp + ExecutorRuntime.cpp as
#     librt_executor.so) linked into the C ABI test program
#     (tests/e2e/Inputs/catalyst_abi_program.c), against executor-server:
#     Catalyst's client on this project's Catalyst services.
#  3. Catalyst's launcher (catalyst.executor.Executor, frontend/catalyst/
#     executor/*.py) starting this project's catalyst-executor, and the
#     program of 2, on Catalyst's runtime, run on it.
# Two shims are needed to build those files alone with LLVM 22 and are
# written here: the name CWrapperFunctionResult (LLVM 22 calls it
# CWrapperFunctionBuffer) and __catalyst__rt__alloc_managed (malloc; in
# Catalyst it comes from the quantum runtime's context).
set -euo pipefail
catalyst=${1:?usage: run-catalyst-interop.sh /path/to/catalyst [build-dir]}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build}
llvm=/usr/lib/llvm-22
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$catalyst/runtime/lib/executor

cat >"$work/compat.h" <<'H'
#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"
namespace llvm::orc::shared {
using CWrapperFunctionResult = CWrapperFunctionBuffer;
}
H
cat >"$work/alloc_managed.cpp" <<'C'
#include <cstdlib>
extern "C" void *__catalyst__rt__alloc_managed(size_t size) {
  return std::malloc(size);
}
C
flags=(-O1 -std=c++20 -include "$work/compat.h" -I"$catalyst/runtime/include"
       -I"$src" -I"$llvm/include" -L"$llvm/lib" -lLLVM -Wl,-rpath,"$llvm/lib")

echo "== building catalyst-executor from $src/executor.cpp"
clang++-22 "$src/executor.cpp" -o "$work/catalyst-executor" "${flags[@]}" -ldl
echo "== ExecutorClient on catalyst-executor (InteropTest)"
CATALYST_EXECUTOR=$work/catalyst-executor \
  "$build/bin/executor-e2e-tests" --gtest_filter='*InteropTest*CatalystExecutor'

echo "== building Catalyst's runtime (librt_executor.so)"
mkdir -p "$work/catalyst-lib"
clang++-22 -fPIC -shared "$src/ExecutorSession.cpp" "$src/ExecutorRuntime.cpp" \
  "$work/alloc_managed.cpp" -o "$work/catalyst-lib/librt_executor.so" "${flags[@]}"

echo "== Catalyst's runtime against executor-server"
mkdir -p "$work/host"
clang -O1 -fPIC -I"$root/runtime/include" -I"$root/tests/e2e/kernels" \
  -c "$root/tests/e2e/kernels/assets.c" -o "$work/kernels.o"
printf '\000\000\000\000\000\000\340\077\000\000\000\000\000\000\370\077\000\000\000\000\000\000\004\100' \
  >"$work/host/weights.bin"
source "$root/scripts/lib/start-executor.sh"
start_executor "$build/bin/executor-server" "$work/out" "$work/server.log" \
  --no-token --asset-root "$work" --plugin "$build/lib/libsample_histogram.so" || true
server=$executor_pid
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
[ -n "$executor_address" ] || exit 1
address=$executor_address
# Catalyst's runtime has no EXECUTOR_ADDRESS_MAP: the address goes in the
# program. Its launch without an object looks in the process only (ours
# searches every shipped object too), so that launch names its object.
sed -e "s/\"ADDR:PORT\"/\"$address\"/g" \
    -e 's/"_catalyst_pyface_scale", NULL,/"_catalyst_pyface_scale", object,/' \
    "$root/tests/e2e/Inputs/catalyst_abi_program.c" >"$work/prog.c"
clang -O1 "$work/prog.c" -o "$work/prog" -L"$work/catalyst-lib" -lrt_executor \
  -Wl,-rpath,"$work/catalyst-lib"
"$work/prog" "$work/kernels.o" "$work/host/weights.bin"
echo "== executor-server's log"
cat "$work/server.log"

# 3. Catalyst's launcher (frontend/catalyst/executor, its Python modules as
#    they are) starts our catalyst-executor on a port it picks, and the C
#    ABI program linked against Catalyst's runtime runs on it (the address
#    goes into the program once the launcher has reported it).
if [ -f "$catalyst/frontend/catalyst/executor/manager.py" ]; then
  echo "== Catalyst's launcher and Catalyst's runtime on catalyst-executor"
  sed -e 's/"_catalyst_pyface_scale", NULL,/"_catalyst_pyface_scale", object,/' \
    "$root/tests/e2e/Inputs/catalyst_abi_program.c" >"$work/prog-template.c"
  (cd "$work" && python3 "$root/tests/e2e/Inputs/catalyst_launcher.py" "$catalyst" \
     "$build/bin/catalyst-executor" "$build/lib/libsample_histogram.so" -- sh -c '
       address=${EXECUTOR_ADDRESS_MAP#ADDR:PORT=}
       sed -e "s/\"ADDR:PORT\"/\"$address\"/g" prog-template.c >prog-launched.c &&
       clang -O1 prog-launched.c -o prog-launched -Lcatalyst-lib -lrt_executor \
         -Wl,-rpath,"$PWD/catalyst-lib" &&
       ./prog-launched kernels.o host/weights.bin')
fi
