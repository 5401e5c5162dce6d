#!/usr/bin/env bash
# Configures (once) and builds Executor Studio in build/ with Ninja, ccache,
# clang-22 and lld-22. Extra arguments are ninja targets;
# EXECUTOR_STUDIO_CMAKE_ARGS adds CMake options at the first configure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# One build at a time on this machine (2 cores): wait for any other.
source "$root/scripts/lib/build-env.sh"
build_environment "$root"
build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    ${EXECUTOR_STUDIO_CMAKE_ARGS:-}
fi
ninja -C "$build" "$@"
