//===- RemoteBench.h - ssh:// and slurm: figures ------------------*- C++ -*-===//
#ifndef EXECUTOR_RUNTIME_BENCH_REMOTEBENCH_H
#define EXECUTOR_RUNTIME_BENCH_REMOTEBENCH_H

#include <cstddef>
#include <string>

namespace executor_studio::runtime {
class ExecutorClient;
} // namespace executor_studio::runtime

/// executor-runtime-bench --remote: against the bench's own sshd on
/// loopback (SshServer.h) and its own one-node Slurm (SlurmCluster.h),
/// each part skipped, saying why, where it cannot run:
///  - a launch of memref<4xf64> in and out over ssh:// against a raw
///    ping-pong of the same byte counts (`requestBytes`, `replyBytes`: what
///    a launch moves, measured over TCP) through the same kind of ssh pipe
///    (ssh's command line for that address, the same control master, a
///    socket pair as its standard input and output), in interleaved rounds;
///    goal <= 1.2x;
///  - the first session open over ssh:// (ssh logs in and becomes the
///    control master) and the second (through the master), in rounds of a
///    fresh control directory each;
///  - srun to the first launch on slurm: (open, ship the object, launch)
///    against a plain `srun true` on the same cluster.
/// `self` is this program (run on the remote side as the ping-pong's
/// peer). Returns the exit status.
int benchRemote(size_t requestBytes, size_t replyBytes, int iterations,
                int rounds, const std::string &self);

/// executor-runtime-bench --echo-peer REQUEST REPLY: the ping-pong's remote
/// peer; reads REQUEST bytes from standard input and writes REPLY bytes to
/// standard output until the end of its input.
int runEchoPeer(size_t requestBytes, size_t replyBytes);

/// From RuntimeBench.cpp: the median latency of `iterations` memref<4xf64>
/// launches (kernels_a's `k`) on `client`.
double launchMicros(executor_studio::runtime::ExecutorClient &client,
                    int iterations);

#endif // EXECUTOR_RUNTIME_BENCH_REMOTEBENCH_H
