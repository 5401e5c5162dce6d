#!/usr/bin/env bash
# Cross-builds the executor parts (executor-server, the runtime library, the
# plugin headers, the systemd unit) for aarch64-linux-gnu (arm64) into
# build-aarch64/, with clang-22 and lld-22 against the arm64 sysroot that
# scripts/cross/aarch64-sysroot.sh assembles (and prints). Extra arguments
# are ninja targets. Then `cpack -G DEB` in build-aarch64/ makes the arm64
# package, and `qemu-aarch64-static -L SYSROOT build-aarch64/bin/executor-server`
# runs the server here.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${EXECUTOR_STUDIO_AARCH64_BUILD_DIR:-$root/build-aarch64}
sysroot=$(bash "$root/scripts/cross/aarch64-sysroot.sh" | tail -n 1)
# One build at a time on this machine, the same lock as scripts/build.sh.
source "$root/scripts/lib/build-env.sh"
build_environment "$root"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
    -DEXECUTOR_STUDIO_AARCH64_SYSROOT="$sysroot" \
    -DEXECUTOR_STUDIO_EXECUTOR_ONLY=ON \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
ninja -C "$build" "$@"
