#!/usr/bin/env bash
# Sourced by scripts/lib/test-sanitized.sh and scripts/fuzz.sh: the one
# ASan+UBSan build folder (build-asan/) both use. The libFuzzer targets are
# built in it too (EXECUTOR_STUDIO_FUZZ=ON: coverage instrumentation beside
# the sanitizers), so that the suite under ASan and the fuzz targets take
# one instrumented build, not two.
asan_cmake_args="-DEXECUTOR_STUDIO_SANITIZE=address,undefined -DEXECUTOR_STUDIO_FUZZ=ON -DEXECUTOR_STUDIO_ENABLE_BENCH=OFF"

# asan_build ROOT BUILD [TARGET...]: configures BUILD (once) and builds the
# targets (all when none) through scripts/build.sh (its lock, ccache).
asan_build() {
  local root=$1 build=$2
  shift 2
  # A folder configured before the fuzz targets joined it gets them now.
  if [ -f "$build/CMakeCache.txt" ] &&
     ! grep -q '^EXECUTOR_STUDIO_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
    cmake "$build" $asan_cmake_args >/dev/null
  fi
  EXECUTOR_STUDIO_BUILD_DIR=$build EXECUTOR_STUDIO_CMAKE_ARGS="$asan_cmake_args" \
    bash "$root/scripts/build.sh" "$@"
}
