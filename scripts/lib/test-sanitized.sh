#!/usr/bin/env bash
# scripts/test.sh --sanitize=SANITIZERS: builds Executor Studio instrumented
# in a folder of its own and runs the tests under the sanitizers.
#   address,undefined  build-asan/: every ctest test (the executor-server
#                      processes and compiled programs they start included)
#   thread             build-tsan/: the runtime, language-server and
#                      studio-model tests
# Suppressions (tests/sanitizers/*.supp) hold only what LLVM's and MLIR's own
# (uninstrumented, Debian-built) libraries trip, each with its reason.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sanitize=$1
case $sanitize in
  address,undefined|undefined,address)
    sanitize=address,undefined
    build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build-asan}
    tests=""
    ;;
  thread)
    build=${EXECUTOR_STUDIO_BUILD_DIR:-$root/build-tsan}
    # Runtime (client, server, transports, shared memory, hostile and
    # malformed peers), language server, studio model.
    tests='^(Address|AssetTest|CatalystClientTest|ExecutorClientTest|Executors/InteropTest|SecurityTest|Suites/TlsStreamTest|UnixSocketTest|SharedMemory|HostileExecutorTest|MalformedRequestTest|ErrorKindsTest|HostProgram|lsp|gui\.model)'
    ;;
  *)
    echo "scripts/test.sh: --sanitize=$sanitize: give address,undefined or thread" >&2
    exit 2
    ;;
esac

bash "$root/scripts/setup.sh"
# The benchmarks measure, they do not test: not built here. The ASan build
# holds the fuzz targets too (scripts/lib/asan-build.sh).
if [ "$sanitize" = thread ]; then
  EXECUTOR_STUDIO_BUILD_DIR=$build \
  EXECUTOR_STUDIO_CMAKE_ARGS="-DEXECUTOR_STUDIO_SANITIZE=$sanitize -DEXECUTOR_STUDIO_ENABLE_BENCH=OFF" \
    bash "$root/scripts/build.sh"
else
  source "$root/scripts/lib/asan-build.sh"
  asan_build "$root" "$build"
fi

# Every report fails the test that triggered it; symbolized stacks. Two
# ASan options make room for LLVM's own (uninstrumented) code:
# - allow_user_poisoning=0: llvm::BumpPtrAllocator poisons the slabs it
#   allocates in its header code, which our instrumented code instantiates,
#   while the copies in Debian's libraries (built without ASan) never
#   unpoison what they hand out: every MLIR context reports a false
#   use-after-poison.
# - use_sigaltstack=0: LLVM's signal handlers give each thread an alternate
#   signal stack of their own (malloc'ed), replacing ASan's, which ASan then
#   fails to unmap when the thread ends.
# And two that keep the product's own behaviour measurable:
# - allocator_may_return_null=1: malloc returns null when it cannot, as
#   libc's does (a kernel over its session's memory limit gets null).
# - quarantine_size_mb=32: freed memory ASan holds back (256 MiB by
#   default) is not the product's; the language server's memory budget
#   test measures the product.
# Servers some tests start as another user (a non-root server, uid 4242)
# read the suppressions too: from a copy every user can read, since a
# checkout may sit in a folder only its owner enters (mktemp -d makes 0700).
supp=$(mktemp -d "${TMPDIR:-/tmp}/executor-sanitizer-supp.XXXXXX")
trap 'rm -rf "$supp"' EXIT
cp "$root"/tests/sanitizers/*.supp "$supp"/
chmod 755 "$supp"
chmod 644 "$supp"/*.supp
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:use_sigaltstack=0:allocator_may_return_null=1:quarantine_size_mb=32:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$supp/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1:suppressions=$supp/tsan.supp}
# Under TSan every byte has 4 of shadow: the language server's memory budget
# test (a 50,000-line document in 600 MiB) measures TSan, not the server.
if [ "$sanitize" = thread ]; then
  export LIT_FILTER_OUT=${LIT_FILTER_OUT:-large-document}
fi
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}
export TSAN_SYMBOLIZER_PATH=$ASAN_SYMBOLIZER_PATH UBSAN_SYMBOLIZER_PATH=$ASAN_SYMBOLIZER_PATH

echo "test: ctest under $sanitize ($build)"
if [ -n "$tests" ]; then
  ctest --test-dir "$build" --output-on-failure -j "${CTEST_PARALLEL_LEVEL:-2}" \
    -R "$tests" --timeout 1800
  exit
fi
status=0
# The tests that run the studio on a display: the screenshot tests and the
# documentation's studio commands, docs/studio.md (documented-commands).
studio='^(gui\.screenshot\..*|documented-commands)$'
ctest --test-dir "$build" --output-on-failure -j "${CTEST_PARALLEL_LEVEL:-2}" \
  -E "$studio" --timeout 1800 || status=$?
# The studio under Xvfb draws with Mesa's llvmpipe (swrast_dri.so, on
# Debian's libLLVM-15, whose symbols are versioned apart from LLVM 22's),
# which GLX unloads at exit: memory only its globals still point to would
# then be reported as leaked ("Indirect leak ... <unknown module>"). Loaded
# from the start, it stays.
dri=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -1)
LD_PRELOAD=${dri:-} ctest --test-dir "$build" --output-on-failure \
  -j "${CTEST_PARALLEL_LEVEL:-2}" -R "$studio" --timeout 1800 || status=$?
exit $status
