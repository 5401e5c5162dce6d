//===- SanitizerSlowdown.h - how much slower a sanitizer build runs -*- C++ -*-===//
//
// A test's bound on how long a step may take (a client let in through a
// flood of idle connections) is the product's promise in a plain build;
// under a sanitizer every memory access is checked, and the bound scales by
// this factor (the time each test may take scales likewise in CMake:
// EXECUTOR_STUDIO_TEST_TIME_SCALE).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_TESTS_SANITIZERSLOWDOWN_H
#define EXECUTORSTUDIO_TESTS_SANITIZERSLOWDOWN_H

namespace executor_test {
#if defined(__SANITIZE_THREAD__)
constexpr int kSanitizerSlowdown = 10;
#elif defined(__SANITIZE_ADDRESS__)
constexpr int kSanitizerSlowdown = 4;
#else
constexpr int kSanitizerSlowdown = 1;
#endif
} // namespace executor_test

#endif // EXECUTORSTUDIO_TESTS_SANITIZERSLOWDOWN_H
