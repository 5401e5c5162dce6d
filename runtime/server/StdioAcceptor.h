//===- StdioAcceptor.h - executor-server --stdio's one session -*- C++ -*-===//
//
// executor-server --stdio serves one session on its standard input and
// output: the pipes of whoever started it (ssh's sshd for an ssh:// address,
// Slurm's srun), which authenticated the user already: no token, no TLS. The
// session starts as a listener's connection does (the same sandbox, limits,
// crash reports and services); this is the Acceptor (Acceptor.h) it comes
// from, with a stream over the two descriptors (Stream.h's stdioStream).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_STDIOACCEPTOR_H
#define EXECUTORSERVER_STDIOACCEPTOR_H

#include "Acceptor.h"

#include <memory>

namespace executor_studio::runtime {

/// Takes standard input and output for the session: moves them to
/// descriptors of their own (`in`, `out`, close-on-exec) and points
/// descriptor 0 at /dev/null and 1 at standard error, so nothing else the
/// process prints reaches the client. A terminal on standard input gets one
/// line on standard error and exit status 2 (the session speaks binary); a
/// terminal on standard output (srun --unbuffered's) is made raw.
std::unique_ptr<Acceptor> takeStandardStreams(int &in, int &out);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_STDIOACCEPTOR_H
