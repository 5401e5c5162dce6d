//===- AnyExecutor.h - the bench against a running executor -----*- C++ -*-===//
#ifndef EXECUTOR_RUNTIME_BENCH_ANYEXECUTOR_H
#define EXECUTOR_RUNTIME_BENCH_ANYEXECUTOR_H

#include <string>

/// executor-runtime-bench --executor ADDRESS: launch latency and bandwidth
/// against an executor that is already running (any kind, any architecture
/// this build has a test kernel for: this host's and aarch64), through
/// ExecutorClient (EXECUTOR_TOKEN, EXECUTOR_TLS_CA ... as for any client).
/// An executor of another architecture on this machine runs under
/// emulation: its figures are printed as such. Returns the exit status.
int benchAnyExecutor(const std::string &address, int iterations, int rounds);

#endif // EXECUTOR_RUNTIME_BENCH_ANYEXECUTOR_H
