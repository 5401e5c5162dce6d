//===- Errors.h - what can go wrong in a session, as types ------*- C++ -*-===//
//
// Every error ExecutorClient returns is an ExecutorError ("executor ADDRESS:
// MESSAGE"); the ones a caller acts on have types of their own, so callers
// (the studio, the C ABI) ask llvm::Error for the kind instead of matching
// message text:
//   SessionLost     the session is gone (the executor stopped, the
//                   connection broke, or it was closed); nothing more runs
//                   on it. KernelCrashed is the kind executor-server
//                   reports: the kernel and the signal that ended it.
//   LaunchTimedOut  a call ran past the client's launch time limit
//                   (EXECUTOR_LAUNCH_TIMEOUT); the session was closed.
//   Refused         the executor answered and said no, with its reason.
//   MalformedReply  the executor's reply is not what the call expects
//                   ("malformed reply to launch of KERNEL: ..."); nothing
//                   of it was used, and the session was closed.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_ERRORS_H
#define EXECUTORRUNTIME_ERRORS_H

#include "ExecutorRuntime/Backtrace.h"

#include "llvm/Support/Error.h"

#include <chrono>
#include <string>

namespace executor_studio::runtime {

/// An error of the session with the executor at `address`.
class ExecutorError : public llvm::ErrorInfo<ExecutorError> {
public:
  static char ID;
  ExecutorError(std::string address, std::string message)
      : address(std::move(address)), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  /// The executor's address as the caller wrote it.
  std::string address;
  /// What went wrong (without "executor ADDRESS: ").
  std::string message;
};

/// The session is gone; nothing more runs on it.
class SessionLost : public llvm::ErrorInfo<SessionLost, ExecutorError> {
public:
  static char ID;
  using ErrorInfo::ErrorInfo;
};

/// The executor's server is stopping (SIGTERM): the session ended or the
/// request was refused; `message` says which.
class ShuttingDown : public llvm::ErrorInfo<ShuttingDown, SessionLost> {
public:
  static char ID;
  using ErrorInfo::ErrorInfo;
  void log(llvm::raw_ostream &os) const override;
};

/// executor-server reported that `kernel` ended the session with `signal`,
/// and where (`frames`, innermost first; the message lists them too).
class KernelCrashed : public llvm::ErrorInfo<KernelCrashed, SessionLost> {
public:
  static char ID;
  KernelCrashed(std::string address, std::string message, std::string kernel,
                int signal, std::vector<CrashFrame> frames = {})
      : ErrorInfo(std::move(address), std::move(message)),
        kernel(std::move(kernel)), signal(signal), frames(std::move(frames)) {}
  /// The kernel's name; empty when the session crashed outside a kernel.
  std::string kernel;
  int signal;
  /// The crashed thread's frames, named against the session's objects.
  std::vector<CrashFrame> frames;
};

/// A call ran past the launch time limit; the session was closed.
class LaunchTimedOut : public llvm::ErrorInfo<LaunchTimedOut, ExecutorError> {
public:
  static char ID;
  LaunchTimedOut(std::string address, std::string message,
                 std::chrono::milliseconds limit)
      : ErrorInfo(std::move(address), std::move(message)), limit(limit) {}
  std::chrono::milliseconds limit;
};

/// The executor refused the call, saying `reason`.
class Refused : public llvm::ErrorInfo<Refused, ExecutorError> {
public:
  static char ID;
  Refused(std::string address, std::string message, std::string reason)
      : ErrorInfo(std::move(address), std::move(message)),
        reason(std::move(reason)) {}
  std::string reason;
};

/// The executor's reply does not have the shape the call expects.
class MalformedReply : public llvm::ErrorInfo<MalformedReply, ExecutorError> {
public:
  static char ID;
  using ErrorInfo::ErrorInfo;
};

/// Whether `err` (not consumed) says the session is gone: lost, or closed
/// after a time-out or a malformed reply.
bool endsSession(const llvm::Error &err);

/// executor-server's crash report ("kernel K crashed with signal N (...)",
/// "the session crashed outside a kernel with signal N (...)"): false when
/// `report` is not one.
bool parseCrashReport(llvm::StringRef report, std::string &kernel,
                      int &signal);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_ERRORS_H
