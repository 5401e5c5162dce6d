#!/usr/bin/env bash
# The end-to-end demo: sets up, builds, starts a local executor-server on a
# free loopback port, compiles every runnable sample (or the one given) with
# executor-compile (printing a per-pass summary for the first), runs each
# against the executor and prints the kernel results.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build}
if [ $# -gt 0 ]; then
  samples=("$@")
else
  samples=("$root/samples/cross-compile-dispatch.mlir" "$root/samples/runtime-call.mlir"
           "$root/samples/custom-call.mlir" "$root/samples/precompiled-dispatch.mlir")
fi
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

echo "== starting a local executor"
source "$root/scripts/lib/start-executor.sh"
start_executor "$build/bin/executor-server" "$work/server.out" "$work/server.log" \
  --plugin "$build/lib/libsample_histogram.so" --plugin "$build/lib/libsample_moments.so" ||
  { server_pid=$executor_pid; exit 1; }
server_pid=$executor_pid
address=$executor_address
echo "executor listening on $address"

summary=--summary
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .mlir)
  echo "== compiling $name.mlir"
  "$build/bin/executor-compile" "$sample" -o "$work/$name" $summary
  summary=""
  echo "== running it (ADDR:PORT -> $address)"
  # precompiled-dispatch.mlir ships precompiled.o from its working directory.
  (cd "$build/samples" && EXECUTOR_ADDRESS_MAP="ADDR:PORT=$address" "$work/$name")
done

echo "== executor log"
cat "$work/server.log"
