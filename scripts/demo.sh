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
# EXECUTOR_STUDIO_PREBUILT=1: the build is there already (the test that
# runs the documented commands sets it).
if [ -z "${EXECUTOR_STUDIO_PREBUILT:-}" ]; then
  bash "$root/scripts/setup.sh"
  bash "$root/scripts/build.sh"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/executor-demo.XXXXXX")
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

# Each result as the README ("Two commands") shows it: printMemref's data line, labelled
# with the sample's "result:" header lines in order (its "Unranked Memref
# base@ = 0x..." line says nothing to a reader).
label_results() {
  awk -v labels="$1" '
    BEGIN { n = split(labels, label, "\n") }
    /^Unranked Memref base@/ { next }
    /^\[/ { if (++i <= n && label[i] != "") { printf "%-23s <- %s\n", $0, label[i]; next } }
    { print }'
}

summary=--summary
for sample in "${samples[@]}"; do
  sample=$(cd "$(dirname "$sample")" && pwd)/$(basename "$sample")
  name=$(basename "$sample" .mlir)
  labels=$(sed -n 's|^//   result: ||p' "$sample")
  echo "== compiling $name.mlir"
  # From build/samples: a relative catalyst.object_file (precompiled.o of
  # precompiled-dispatch.mlir) is found, and so embedded, there.
  (cd "$build/samples" && "$build/bin/executor-compile" "$sample" -o "$work/$name" $summary)
  summary=""
  echo "== running it (ADDR:PORT -> $address)"
  (cd "$build/samples" && EXECUTOR_ADDRESS_MAP="ADDR:PORT=$address" "$work/$name") |
    label_results "$labels"
done

echo "== executor log"
cat "$work/server.log"
