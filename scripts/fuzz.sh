#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [TARGET...]: builds the libFuzzer targets of
# tests/fuzz (-fsanitize=fuzzer,address,undefined) in build-asan/, the
# folder of the suite's ASan+UBSan run (scripts/lib/asan-build.sh; ccache,
# scripts/build.sh's machine-wide lock) and runs each for SECONDS (default
# 60), one after the other at nice 19, on a working copy of its seed corpus
# (tests/fuzz/corpus/TARGET, kept in build-asan/fuzz/corpus/ across runs),
# with its dictionary. Prints one row per target: executions, executions per
# second, coverage (libFuzzer's features), and crashes. Exits 1 when any
# target crashed, leak or time-out included; the reproducer stays in
# build-asan/fuzz/crashes/ (run it: build-asan/bin/TARGET FILE).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build=${EXECUTOR_STUDIO_FUZZ_BUILD_DIR:-$root/build-asan}

# FUZZ_NO_BUILD=1 runs the targets as they are built.
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  bash "$root/scripts/setup.sh" >/dev/null
  source "$root/scripts/lib/asan-build.sh"
  asan_build "$root" "$build" executor-fuzzers
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for seeds in "$root"/tests/fuzz/corpus/*/; do
    targets+=("$(basename "$seeds")")
  done
fi

# Per target: its dictionary and the largest input it is given.
dict_of() {
  case $1 in
    fuzz-mlir-parse|fuzz-lower-runtime-dispatch|fuzz-dispatch-executor-targets|\
    fuzz-convert-executor-to-llvm|fuzz-cross-compile-targets|fuzz-lsp-requests)
      echo "$root/tests/fuzz/dict/mlir.dict" ;;
    fuzz-lsp-framing) echo "$root/tests/fuzz/dict/lsp.dict" ;;
    fuzz-handshake) echo "$root/tests/fuzz/dict/handshake.dict" ;;
  esac
}
max_len_of() {
  case $1 in
    fuzz-cross-compile-targets) echo 3000 ;;  # small targets: codegen per input
    fuzz-mlir-parse|fuzz-lsp-*|fuzz-*-dispatch*|fuzz-convert-*) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

work=$build/fuzz
mkdir -p "$work/corpus" "$work/crashes" "$work/logs"
# As scripts/lib/test-sanitized.sh (which says why), and malloc may fail.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:use_sigaltstack=0:allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0}

rows=()
failed=0
for t in "${targets[@]}"; do
  bin=$build/bin/$t
  if [ ! -x "$bin" ]; then
    echo "fuzz: no target $t (in $build/bin)" >&2
    exit 2
  fi
  corpus=$work/corpus/$t
  mkdir -p "$corpus"
  log=$work/logs/$t.log
  # The targets' own output (executor-server's log lines, diagnostics) is
  # closed; libFuzzer's and the sanitizers' reports still come.
  args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=25 -close_fd_mask=3
        -rss_limit_mb=2560 -max_len="$(max_len_of "$t")"
        -artifact_prefix="$work/crashes/$t-")
  d=$(dict_of "$t")
  [ -n "$d" ] && args+=(-dict="$d")
  # Reproducers: crash-, leak-, timeout-, oom- (slow-unit- is not one).
  before=$(ls "$work/crashes" | grep -cE "^$t-(crash|leak|timeout|oom)-" || true)
  echo "fuzz: $t for ${seconds}s (log: $log)"
  status=0
  nice -n 19 "$bin" "${args[@]}" "$corpus" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  after=$(ls "$work/crashes" | grep -cE "^$t-(crash|leak|timeout|oom)-" || true)
  crashes=$((after - before))
  if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then
    crashes=1  # died without a reproducer (the log says why)
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  features=$(grep -o ' ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  rows+=("$(printf '%-32s %12s %9s %9s %8s' "$t" "${execs:-?}" "${rate:-?}" "${features:-?}" "$crashes")")
  if [ "$crashes" -ne 0 ]; then
    failed=1
    echo "fuzz: $t CRASHED; reproducer(s):" >&2
    ls "$work/crashes" | grep -E "^$t-(crash|leak|timeout|oom)-" | sed "s|^|  $work/crashes/|" >&2
    grep -m1 -A12 'ERROR: \|runtime error\|deadly signal' "$log" >&2 || tail -20 "$log" >&2
  fi
done

echo
printf '%-32s %12s %9s %9s %8s\n' target executions exec/s features crashes
for r in "${rows[@]}"; do echo "$r"; done
exit $failed
