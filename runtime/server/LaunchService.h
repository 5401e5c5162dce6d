//===- LaunchService.h - the executor side of a launch ----------*- C++ -*-===//
#ifndef EXECUTORSERVER_LAUNCHSERVICE_H
#define EXECUTORSERVER_LAUNCHSERVICE_H

#include "Service.h"

#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace executor_studio::runtime {
class StreamTransport;
/// Whether each launch is logged.
extern std::atomic<bool> logLaunches;
/// How log lines name this process ("session 3 (127.0.0.1:5123)").
extern std::string sessionLabel;
/// Where logEvent writes: standard error, or in a session whose kernels'
/// output is captured (Sandbox.h) a copy of the original one.
extern int logDescriptor;
void logEvent(const std::string &message);
/// Writes all of `data` to `fd` (a file, pipe or terminal), retrying on
/// EINTR; false when a write fails.
bool writeAllTo(int fd, const char *data, size_t size);
/// How logs and crash reports name a kernel known only by its address.
std::string entryAt(uint64_t address);
/// The replies of executor-server's services: ok with nothing more, or an
/// error with its message (logged; ORC's out-of-band errors do not cross
/// the wire).
llvm::orc::shared::CWrapperFunctionBuffer replyEmpty();
llvm::orc::shared::CWrapperFunctionBuffer failWith(const std::string &message);

/// The launch service (Wire.h): the one-trip launch (also as direct calls,
/// kDirectCallsSymbol), notes, launch_async and await.
std::unique_ptr<Service> makeLaunchService();

/// Serves a direct call (StreamTransport.h) on the thread that read it: a
/// launch gathers its reply from the kernel's results (or hands them over in
/// shared memory); any other wrapper function is called as ORC would.
void serveDirectCall(StreamTransport &transport, uint64_t seq, uint64_t function,
                     uint32_t flags,
                     llvm::orc::shared::WrapperFunctionBuffer request);
} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_LAUNCHSERVICE_H
