#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs every test: lit + FileCheck,
# GoogleTest, end-to-end against a real executor-server.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j "${CTEST_PARALLEL_LEVEL:-2}"
