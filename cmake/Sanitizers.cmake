# Sanitizer and fuzzing builds (scripts/test.sh --sanitize=..., scripts/fuzz.sh).
#
# EXECUTOR_STUDIO_SANITIZE=address,undefined or thread instruments the whole
# build (our code; LLVM's and MLIR's libraries are Debian's, uninstrumented).
# EXECUTOR_STUDIO_FUZZ=ON adds coverage instrumentation for libFuzzer to
# address,undefined and builds the targets in tests/fuzz.
set(EXECUTOR_STUDIO_SANITIZE "" CACHE STRING
    "Sanitizers for the whole build: address,undefined or thread (empty: none)")
option(EXECUTOR_STUDIO_FUZZ "Build the libFuzzer targets in tests/fuzz" OFF)

if(EXECUTOR_STUDIO_FUZZ AND NOT EXECUTOR_STUDIO_SANITIZE)
  set(EXECUTOR_STUDIO_SANITIZE "address,undefined")
endif()

# The flags a program linked against this build's libraries needs too
# (executor-compile links compiled programs with them, lit tests use them).
set(EXECUTOR_STUDIO_SANITIZE_FLAGS "")
if(EXECUTOR_STUDIO_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "EXECUTOR_STUDIO_SANITIZE needs clang (clang++-22)")
  endif()
  set(EXECUTOR_STUDIO_SANITIZE_FLAGS "-fsanitize=${EXECUTOR_STUDIO_SANITIZE}")
  set(flags ${EXECUTOR_STUDIO_SANITIZE_FLAGS} -fno-omit-frame-pointer -gline-tables-only)
  if(EXECUTOR_STUDIO_SANITIZE MATCHES "undefined")
    # As LLVM's own sanitizer builds: every report fails the run; vptr needs
    # RTTI (the runtime is -fno-rtti) and function checks calls into code
    # that was not instrumented (JIT-linked kernels, LLVM's libraries).
    list(APPEND flags -fno-sanitize-recover=all -fno-sanitize=vptr,function)
  endif()
  add_compile_options(${flags})
  add_link_options(${EXECUTOR_STUDIO_SANITIZE_FLAGS})
  # Shared libraries leave the sanitizer runtime's symbols to the program
  # (HandleLLVMOptions asked for -z defs).
  string(APPEND CMAKE_SHARED_LINKER_FLAGS " -Wl,-z,undefs")
  string(APPEND CMAKE_MODULE_LINKER_FLAGS " -Wl,-z,undefs")
  message(STATUS "Sanitizers: ${EXECUTOR_STUDIO_SANITIZE}")
endif()
if(EXECUTOR_STUDIO_FUZZ)
  # Coverage for libFuzzer in every library the targets link.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# A sanitizer build runs its tests 2 to 15 times slower (TSan the most):
# each GoogleTest test's time limit is this many times the plain build's.
set(EXECUTOR_STUDIO_TEST_TIME_SCALE 1)
if(EXECUTOR_STUDIO_SANITIZE)
  set(EXECUTOR_STUDIO_TEST_TIME_SCALE 4)
endif()
