//===- ClientSession.cpp - a session's state, calls and errors ------------===//
#include "ClientSession.h"
#include "LaunchProtocol.h"
#include "ExecutorRuntime/Backtrace.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

ExecutorClient::Impl::Impl() : id([] {
  static std::atomic<uint64_t> sessions{0};
  return ++sessions;
}()) {}
ExecutorClient::Impl::~Impl() = default;

std::string ExecutorClient::Impl::timeLimitMessage() const {
  return "it did not finish within " + std::to_string(launchTimeout.count()) +
         " ms (the launch time limit, EXECUTOR_LAUNCH_TIMEOUT); the session "
         "is closed";
}

Error ExecutorClient::Impl::error(const Twine &message) const {
  return make_error<ExecutorError>(address, message.str());
}

Error ExecutorClient::Impl::closed() const {
  return make_error<SessionLost>(address, "the session is closed");
}

Error ExecutorClient::Impl::malformed(const std::string &what,
                                      const Twine &detail) {
  open = false;
  if (transport)
    transport->disconnect();
  return make_error<MalformedReply>(address, "malformed reply to " + what +
                                                 ": " + detail.str());
}

Error ExecutorClient::Impl::refused(const std::string &what,
                                    const std::string &reason) const {
  return make_error<Refused>(address, what + " failed: " + reason, reason);
}

Error ExecutorClient::Impl::timeLimitPassed(const std::string &what,
                                            const std::string &detail) const {
  return make_error<LaunchTimedOut>(address, what + " failed: " + detail,
                                    launchTimeout);
}

Error ExecutorClient::Impl::shuttingDown(const std::string &what) const {
  return make_error<ShuttingDown>(address, what);
}

Error ExecutorClient::Impl::directFailed(const std::string &what, Error err) {
  if (timedOut || err.isA<DirectCallTimeout>()) {
    consumeError(std::move(err));
    timedOut = true;
    return timeLimitPassed(what, timeLimitMessage());
  }
  return lost(what, toString(std::move(err)));
}

Error ExecutorClient::Impl::replyStatus(const shared::WrapperFunctionBuffer &reply,
                                        const std::string &what) {
  uint64_t status = kReplyError;
  if (reply.size() < sizeof(status))
    return malformed(what,
                     "it has " + Twine(reply.size()) + " bytes, no status word");
  std::memcpy(&status, reply.data(), sizeof(status));
  if (status == kReplyOk)
    return Error::success();
  std::string message(reply.data() + sizeof(status),
                      reply.size() - sizeof(status));
  if (message == kShuttingDownMessage)
    return shuttingDown(what + " was refused");
  return refused(what, message);
}

Error ExecutorClient::Impl::lost(const std::string &what,
                                 const std::string &detail) const {
  if (timedOut)
    return timeLimitPassed(what, detail);
  // The executor sent what no executor sends (the transport checked it).
  std::string bad = transport ? transport->malformedMessage() : "";
  if (!bad.empty()) {
    open = false;
    return make_error<MalformedReply>(address,
                                      "malformed reply to " + what + ": " + bad);
  }
  std::string report = transport ? transport->hangupMessage() : "";
  if (report == kShuttingDownMessage)
    return shuttingDown("the session ended during " + what);
  if (!report.empty()) {
    std::string message = "lost the session during " + what + ": " + report;
    std::string kernel;
    int signal = 0;
    if (parseCrashReport(report, kernel, signal)) {
      // The report's first line, then its frames named here.
      std::vector<CrashFrame> frames = parseCrashFrames(report);
      if (linkedObjects)
        linkedObjects->symbolize(frames, sameHost);
      message = "lost the session during " + what + ": " +
                report.substr(0, report.find('\n')) +
                formatBacktrace(frames, signal);
      return make_error<KernelCrashed>(address, message, kernel, signal,
                                       std::move(frames));
    }
    return make_error<SessionLost>(address, message);
  }
  if (child)
    if (std::optional<Error> ended = childEnded(what))
      return std::move(*ended);
  if (kind == ExecutorKind::ExecutorServer)
    return make_error<SessionLost>(
        address, "lost the session during " + what + ": " + detail +
                     " (the executor stopped or the connection broke)");
  return make_error<SessionLost>(
      address, "lost the session during " + what + ": " + detail +
                   " (a kernel crashed or the executor stopped; " +
                   executorKindName(kind) +
                   "s do not say which, nor which kernel or where: "
                   "executor-server reports the kernel, the signal and "
                   "its .mlir line)");
}

std::optional<Error>
ExecutorClient::Impl::childEnded(const std::string &what) const {
  std::lock_guard<std::mutex> lock(childMutex);
  if (!child->waitFor(std::chrono::seconds(2)))
    return std::nullopt;
  std::string name = llvm::sys::path::filename(address).str();
  std::string who = name + " (pid " + std::to_string(childPid) +
                    ", started by this client)";
  int signal = child->terminationSignal();
  if (signal == 0)
    return Error(make_error<SessionLost>(
        address, "lost the session during " + what + ": " + who +
                     " exited with " + child->exitDescription()));
  // Which launch was running: `what` names it ("launch of K",
  // "launch_async of K").
  std::string kernel;
  if (size_t of = what.find(" of ");
      what.rfind("launch", 0) == 0 && of != std::string::npos)
    kernel = what.substr(of + 4);
  std::string signalText =
      std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  std::string message =
      "lost the session during " + what + ": " + who +
      " was killed by signal " + signalText +
      (kernel.empty() ? std::string(" outside a kernel")
                      : " while running kernel " + kernel) +
      "; " + executorKindName(kind) +
      "s report no backtrace, so where it crashed (the faulting address, "
      "the kernel's .mlir line) is not known: run the kernel on "
      "executor-server for its frames and line";
  return Error(make_error<KernelCrashed>(address, message, kernel, signal));
}

Expected<ExecutorAddr>
ExecutorClient::Impl::findEntry(const std::string &entry,
                                const std::string &object) {
  std::lock_guard<std::mutex> lock(mutex);
  auto inObject = entries.find(object);
  if (inObject != entries.end()) {
    auto it = inObject->second.find(entry);
    if (it != inObject->second.end())
      return it->second;
  }
  JITDylibSearchOrder order;
  if (object.empty()) {
    order = everything();
  } else {
    auto jd = objects.find(object);
    if (jd == objects.end())
      return error("object " + object +
                   " was not sent on this session; send_binary it first");
    order = makeJITDylibSearchOrder(
        jd->second, JITDylibLookupFlags::MatchExportedSymbolsOnly);
  }
  auto symbol = es->lookup(order, es->intern(entry));
  if (!symbol) {
    consumeError(symbol.takeError());
    if (object.empty())
      return error("no shipped object or plugin defines the entry " + entry);
    return error("object " + object + " has no entry " + entry +
                 " (is the kernel named in a launch_kernel of the host?)");
  }
  entries[object][entry] = symbol->getAddress();
  return symbol->getAddress();
}

JITDylibSearchOrder ExecutorClient::Impl::everything() const {
  JITDylibSearchOrder order;
  for (auto &[name, jd] : objects)
    order.push_back({jd, JITDylibLookupFlags::MatchExportedSymbolsOnly});
  order.push_back({process, JITDylibLookupFlags::MatchExportedSymbolsOnly});
  return order;
}

shared::WrapperFunctionBuffer
ExecutorClient::Impl::callAndWait(ExecutorAddr function,
                                  ArrayRef<char> request) {
  struct Slot {
    bool done = false;
    shared::WrapperFunctionBuffer reply;
  };
  auto slot = std::make_shared<Slot>();
  StreamTransport *t = transport;
  es->getExecutorProcessControl().callWrapperAsync(
      ExecutorProcessControl::RunInPlace(), function,
      [slot, t](shared::WrapperFunctionBuffer reply) {
        t->complete([&] {
          slot->reply = std::move(reply);
          slot->done = true;
        });
      },
      request);
  bool done = t->waitUntil([&] { return slot->done; }, launchTimeout);
  if (!done) {
    // The call is given up: closing the connection (waitUntil left it to
    // us) makes executor-server end the session and the kernel with it.
    timedOut = true;
    t->disconnect();
    return shared::WrapperFunctionBuffer::createOutOfBandError(
        timeLimitMessage());
  }
  // The connection may go before the answer (ORC then fails the call).
  t->complete([&] { done = slot->done; });
  if (!done)
    return shared::WrapperFunctionBuffer::createOutOfBandError(
        "the session's connection is closed");
  return std::move(slot->reply);
}

Expected<shared::WrapperFunctionBuffer>
ExecutorClient::Impl::callRemote(ExecutorAddr function, ArrayRef<char> request,
                                 const std::string &what) {
  if (!open)
    return closed();
  shared::WrapperFunctionBuffer reply = callAndWait(function, request);
  // Only the client side makes out-of-band errors: the session is gone.
  if (const char *message = reply.getOutOfBandError())
    return lost(what, message);
  return std::move(reply);
}

void ExecutorClient::Impl::callAndForget(ExecutorAddr function,
                                         ArrayRef<char> request) {
  es->getExecutorProcessControl().callWrapperAsync(
      ExecutorProcessControl::RunInPlace(), function,
      [](shared::WrapperFunctionBuffer) {}, request);
}

} // namespace executor_studio::runtime
