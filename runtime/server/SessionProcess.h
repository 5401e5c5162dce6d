//===- SessionProcess.h - what a session process runs -----------*- C++ -*-===//
//
// The executor side of one session, in the process the session launcher
// forked for it (SessionLauncher.h): ORC's SimpleRemoteEPCServer with the
// services the server publishes (Service.h), its wrapper calls on a pool
// of threads, crash reports over its transport (CrashReport.h), until the
// client goes.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_SESSIONPROCESS_H
#define EXECUTORSERVER_SESSIONPROCESS_H

#include "SetupAhead.h"

#include "llvm/ExecutionEngine/Orc/TargetProcess/SimpleRemoteEPCServer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace executor_studio::runtime {
class Stream;

/// Which executor services a session publishes (--services).
extern bool publishOurs, publishCatalyst;
/// Whether Unix-socket sessions give kernels the shared kernel heap
/// (--no-kernel-heap).
extern bool useKernelHeap;

/// The session server the listener makes at start for connections that
/// need no authentication (SetupAhead.h): every such session inherits it.
struct AheadServer {
  std::unique_ptr<llvm::orc::SimpleRemoteEPCServer> server;
  SetupAhead *transport = nullptr;
  bool kernelHeap = false;
};
/// In the listener: an AheadServer, with the kernel heap's service or not;
/// "" or the problem.
std::string prepareAheadServer(AheadServer &ahead, bool kernelHeap);
/// The listener's AheadServers at its exit: never served there, so nothing
/// of theirs to shut down; kept (reachable) rather than destroyed.
extern llvm::orc::SimpleRemoteEPCServer *unservedAtExit[2];

/// Runs one session in this (forked) process until the client goes; the
/// process's exit status.
int serveSession(std::unique_ptr<Stream> stream, uint64_t memoryLimit);
/// Runs one session whose Setup the listener sent (SetupAhead.h), on the
/// server it inherited, until the client goes.
int serveAheadSession(std::unique_ptr<Stream> stream, AheadServer &ahead,
                      uint64_t memoryLimit);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_SESSIONPROCESS_H
