//===- ExecutorClient.cpp - one session with an executor ------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Errors.h"
#include "EmbeddedObjects.h"
#include "ObjectArchitecture.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TcpTransport.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorRuntime/Wire.h"
#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/MemoryAccess.h"
#include "llvm/ExecutionEngine/Orc/Shared/SimplePackedSerialization.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/ExecutionEngine/Orc/EPCDynamicLibrarySearchGenerator.h"
#include "llvm/ExecutionEngine/Orc/ObjectFileInterface.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "LinkedObjects.h"
#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"
#include "llvm/ExecutionEngine/Orc/SimpleRemoteEPC.h"
#include "llvm/ExecutionEngine/Orc/TaskDispatch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

std::string pyfaceName(const std::string &entry) {
  static const std::string prefix = "_catalyst_pyface_";
  if (entry.compare(0, prefix.size(), prefix) == 0)
    return entry;
  return prefix + entry;
}

const char *executorKindName(ExecutorKind kind) {
  switch (kind) {
  case ExecutorKind::ExecutorServer:
    return "executor-server";
  case ExecutorKind::CatalystExecutor:
    return "catalyst-executor";
  case ExecutorKind::OrcExecutor:
    return "ORC executor";
  }
  return "?";
}

const char *executorKindSummary(ExecutorKind kind) {
  switch (kind) {
  case ExecutorKind::ExecutorServer:
    return "executor-server: a launch is one round trip (inputs and results "
           "travel in the request and the reply)";
  case ExecutorKind::CatalystExecutor:
    return "catalyst-executor: Catalyst's services, a launch is five round "
           "trips (alloc, write, invoke, read the results' descriptors, "
           "read their data)";
  case ExecutorKind::OrcExecutor:
    return "ORC executor: ORC's memory access and wrapper calls, a launch is "
           "five round trips; no assets";
  }
  return "?";
}

namespace {
/// Bytes of one SPS-encoded argument list.
template <typename... Tags, typename... Args>
std::vector<char> encode(const Args &...args) {
  using List = shared::SPSArgList<Tags...>;
  std::vector<char> bytes(List::size(args...));
  shared::SPSOutputBuffer out(bytes.data(), bytes.size());
  bool ok = List::serialize(out, args...);
  (void)ok;
  assert(ok && "SPS serialization failed");
  return bytes;
}

/// The alloc, free and invoke services with Catalyst's encodings, as LLVM IR
/// compiled for `triple`: what the client links into an ORC executor that
/// has no services of its own. Each is an ORC wrapper function
/// `{ptr, i64} (ptr data, i64 size)`, the C ABI of CWrapperFunctionBuffer.
Expected<std::unique_ptr<MemoryBuffer>> orcServicesObject(const Triple &triple) {
  static std::once_flag targets;
  std::call_once(targets, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
  });
  std::string problem;
  const Target *target = TargetRegistry::lookupTarget(triple, problem);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "no LLVM target for the executor's triple " +
                                 triple.str() + ": " + problem);
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, "", "", TargetOptions(), Reloc::PIC_));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot generate code for " + triple.str());
  LLVMContext context;
  Module module("executor-studio-orc-services", context);
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  Type *ptr = PointerType::getUnqual(context);
  Type *i64 = Type::getInt64Ty(context);
  StructType *buffer = StructType::get(context, {ptr, i64});
  FunctionType *wrapper = FunctionType::get(buffer, {ptr, i64}, false);
  FunctionCallee calloc = module.getOrInsertFunction("calloc", ptr, i64, i64);
  FunctionCallee release =
      module.getOrInsertFunction("free", Type::getVoidTy(context), ptr);
  auto define = [&](const char *name, auto body) {
    Function *f =
        Function::Create(wrapper, GlobalValue::ExternalLinkage, name, module);
    IRBuilder<> b(BasicBlock::Create(context, "entry", f));
    // The request's u64 at `offset` bytes.
    auto word = [&](unsigned offset) -> Value * {
      Value *at = b.CreateConstGEP1_64(b.getInt8Ty(), f->getArg(0), offset);
      return b.CreateAlignedLoad(i64, at, Align(1));
    };
    auto reply = [&](Value *inlineWord, uint64_t size) {
      Value *r = UndefValue::get(buffer);
      r = b.CreateInsertValue(r, inlineWord, 0);
      r = b.CreateInsertValue(r, ConstantInt::get(i64, size), 1);
      b.CreateRet(r);
    };
    body(b, word, reply);
  };
  // SPSExecutorAddr(uint64_t size): the address travels inline (8 bytes).
  define("__executor_studio_orc_alloc", [&](IRBuilder<> &b, auto word,
                                            auto reply) {
    Value *size = word(0);
    Value *zero = b.CreateICmpEQ(size, ConstantInt::get(i64, 0));
    size = b.CreateSelect(zero, ConstantInt::get(i64, 1), size);
    reply(b.CreateCall(calloc, {ConstantInt::get(i64, 1), size}), 8);
  });
  // void(SPSExecutorAddr).
  define("__executor_studio_orc_free", [&](IRBuilder<> &b, auto word,
                                           auto reply) {
    b.CreateCall(release, {b.CreateIntToPtr(word(0), ptr)});
    reply(ConstantPointerNull::get(PointerType::getUnqual(context)), 0);
  });
  // void(SPSExecutorAddr entry, SPSSequence<SPSExecutorAddr> {results,
  // arguments}): u64 entry, u64 count (2), u64 results, u64 arguments.
  define("__executor_studio_orc_invoke", [&](IRBuilder<> &b, auto word,
                                             auto reply) {
    FunctionType *pyface =
        FunctionType::get(Type::getVoidTy(context), {ptr, ptr}, false);
    b.CreateCall(pyface, b.CreateIntToPtr(word(0), ptr),
                 {b.CreateIntToPtr(word(16), ptr),
                  b.CreateIntToPtr(word(24), ptr)});
    reply(ConstantPointerNull::get(PointerType::getUnqual(context)), 0);
  });
  SmallVector<char, 0> object;
  raw_svector_ostream stream(object);
  legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, stream, nullptr,
                                   CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(),
                             "cannot emit an object for " + triple.str());
  passes.run(module);
  return MemoryBuffer::getMemBufferCopy(StringRef(object.data(), object.size()),
                                        "<executor-studio ORC services>");
}

/// The token from $EXECUTOR_TOKEN, else the first line of
/// $EXECUTOR_TOKEN_FILE; false, with `why`, when that file cannot be read
/// or holds no token (the variable names the file the user meant).
bool defaultToken(std::string &token, std::string &why) {
  if (const char *text = std::getenv("EXECUTOR_TOKEN")) {
    token = text;
    return true;
  }
  const char *file = std::getenv("EXECUTOR_TOKEN_FILE");
  if (!file || !*file)
    return true;
  auto buffer = MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer) {
    why = std::string("cannot read EXECUTOR_TOKEN_FILE ") + file + ": " +
          buffer.getError().message();
    return false;
  }
  token = (*buffer)->getBuffer().split('\n').first.rtrim("\r").str();
  if (token.empty()) {
    why = std::string("EXECUTOR_TOKEN_FILE ") + file +
          " holds no token on its first line";
    return false;
  }
  return true;
}

/// Seconds from the environment variable `name`, or `fallback` when it is
/// unset; false, with `why`, when it is not a number of seconds.
bool secondsFromEnvironment(const char *name, int64_t fallback,
                            int64_t &seconds, std::string &why) {
  seconds = fallback;
  const char *text = std::getenv(name);
  if (!text || !*text)
    return true;
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (!end || *end != 0 || value < 0) {
    why = std::string(name) + "='" + text +
          "' is not a whole number of seconds (0 or more)";
    return false;
  }
  seconds = value;
  return true;
}

struct SessionSecurity {
  ClientSecurity handshake;
  std::chrono::milliseconds launchTimeout{0};
  std::chrono::seconds liveness{30};
};

/// The options, completed from the environment; false, with `why` naming
/// the variable, when one of them cannot be used. The token is read only
/// when it is needed (`withToken`: not over a Unix socket).
bool sessionSecurity(const ClientOptions &options, const std::string &connected,
                     bool withToken, SessionSecurity &security,
                     std::string &why) {
  security.handshake.token = options.token;
  if (withToken && options.token.empty() &&
      !defaultToken(security.handshake.token, why))
    return false;
  security.handshake.tlsCA = options.tlsCA;
  if (security.handshake.tlsCA.empty())
    if (const char *ca = std::getenv("EXECUTOR_TLS_CA"))
      security.handshake.tlsCA = ca;
  std::string port, unused;
  splitAddress(connected, security.handshake.host, port, unused);
  security.handshake.timeout = options.handshakeTimeout;
  int64_t launch = 0, liveness = 30;
  if ((!options.launchTimeout.count() &&
       !secondsFromEnvironment("EXECUTOR_LAUNCH_TIMEOUT", 0, launch, why)) ||
      (!options.livenessTimeout.count() &&
       !secondsFromEnvironment("EXECUTOR_LIVENESS_TIMEOUT", 30, liveness,
                               why)))
    return false;
  security.launchTimeout = options.launchTimeout.count()
                               ? options.launchTimeout
                               : std::chrono::seconds(launch);
  security.liveness = options.livenessTimeout.count()
                          ? options.livenessTimeout
                          : std::chrono::seconds(liveness);
  return true;
}
} // namespace

struct ExecutorClient::Impl {
  /// The executor, when this client started it (spawn): how it ended is
  /// known when the session is lost. Declared first: it outlives the
  /// session, whose end lets it exit.
  std::unique_ptr<executor_studio::Subprocess> child;
  int64_t childPid = 0;
  mutable std::mutex childMutex;
  std::string address;
  std::string connected;
  /// False once the session is closed, lost to a lie (malformed), or
  /// given up after a time-out.
  mutable std::atomic<bool> open{false};
  std::unique_ptr<ExecutionSession> es;
  std::unique_ptr<ObjectLinkingLayer> linker;
  /// Where the linked objects went: crash reports are named against them.
  std::shared_ptr<LinkedObjects> linkedObjects;
  /// The executor runs on this host (a Unix socket or loopback): its
  /// library files are ours.
  bool sameHost = false;
  JITDylib *process = nullptr;
  ExecutorKind kind = ExecutorKind::ExecutorServer;
  /// The session's transport (owned by the EPC): what the executor said
  /// when it hung up.
  TcpTransport *transport = nullptr;
  /// How long one call may take (0: no limit); a call that took longer
  /// closed the session.
  std::chrono::milliseconds launchTimeout{0};
  std::atomic<bool> timedOut{false};
  std::string timeLimitMessage() const {
    return "it did not finish within " + std::to_string(launchTimeout.count()) +
           " ms (the launch time limit, EXECUTOR_LAUNCH_TIMEOUT); the session "
           "is closed";
  }
  /// Whether executor-server's reply to `what` says ok (its first word);
  /// the error it carries otherwise.
  Error replyStatus(const shared::WrapperFunctionBuffer &reply,
                    const std::string &what) {
    uint64_t status = kReplyError;
    if (reply.size() < sizeof(status))
      return malformed(what, "it has " + Twine(reply.size()) +
                                 " bytes, no status word");
    std::memcpy(&status, reply.data(), sizeof(status));
    if (status == kReplyOk)
      return Error::success();
    std::string message(reply.data() + sizeof(status),
                        reply.size() - sizeof(status));
    if (message == kShuttingDownMessage)
      return shuttingDown(what + " was refused");
    return refused(what, message);
  }
  /// The executor stopped with its server (SIGTERM): `what` happened.
  Error shuttingDown(const std::string &what) const {
    return make_error<ShuttingDown>(address, what);
  }
  /// The error of a direct call that failed during `what`.
  Error directFailed(const std::string &what, Error err) {
    if (timedOut || err.isA<DirectCallTimeout>()) {
      consumeError(std::move(err));
      timedOut = true;
      return timeLimitPassed(what, timeLimitMessage());
    }
    return lost(what, toString(std::move(err)));
  }
  // executor-server's services.
  ExecutorAddr launchWrapper, noteWrapper, launchAsyncWrapper, awaitWrapper,
      storeAssetWrapper;
  // Catalyst's encodings: catalyst-executor's services, or on an ORC
  // executor the ones the client links into it (no asset storage there).
  ExecutorAddr remoteAlloc, remoteFree, remoteInvoke, remoteStoreAsset;

  /// launch_async on executors other than executor-server: the invoke
  /// call's reply, by the client's ticket.
  struct AsyncCall {
    std::mutex mutex;
    std::condition_variable ready;
    bool done = false;
    shared::WrapperFunctionBuffer reply;
    std::string what;
  };
  std::map<uint64_t, std::shared_ptr<AsyncCall>> asyncCalls;
  uint64_t nextTicket = 1;

  mutable std::mutex mutex;
  std::map<std::string, JITDylib *> objects;
  std::map<std::pair<std::string, std::string>, ExecutorAddr> entries;

  Error error(const Twine &message) const {
    return make_error<ExecutorError>(address, message.str());
  }
  /// The typed errors (Errors.h) of this session.
  Error closed() const {
    return make_error<SessionLost>(address, "the session is closed");
  }
  /// The executor's reply to `what` is not what the call expects
  /// (`detail` says how): nothing of it was used, and the session ends
  /// (an executor that lies once is not asked again).
  Error malformed(const std::string &what, const Twine &detail) {
    open = false;
    if (transport)
      transport->disconnect();
    return make_error<MalformedReply>(address, "malformed reply to " + what +
                                                   ": " + detail.str());
  }
  Error refused(const std::string &what, const std::string &reason) const {
    return make_error<Refused>(address, what + " failed: " + reason, reason);
  }
  Error timeLimitPassed(const std::string &what,
                        const std::string &detail) const {
    return make_error<LaunchTimedOut>(address, what + " failed: " + detail,
                                      launchTimeout);
  }

  /// The address of `entry` in `object` (empty: in any loaded object,
  /// then the executor process), looked up once.
  Expected<ExecutorAddr> findEntry(const std::string &entry,
                                   const std::string &object);
  /// Every loaded object, then the executor process.
  JITDylibSearchOrder everything() const {
    JITDylibSearchOrder order;
    for (auto &[name, jd] : objects)
      order.push_back({jd, JITDylibLookupFlags::MatchExportedSymbolsOnly});
    order.push_back({process, JITDylibLookupFlags::MatchExportedSymbolsOnly});
    return order;
  }
  /// One wrapper call, waited for on this thread, which reads the socket
  /// itself while no other thread does (no hand-over from a reader thread).
  shared::WrapperFunctionBuffer callAndWait(ExecutorAddr function,
                                            ArrayRef<char> request) {
    struct Slot {
      bool done = false;
      shared::WrapperFunctionBuffer reply;
    };
    auto slot = std::make_shared<Slot>();
    TcpTransport *t = transport;
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

  /// Whether launches go as the transport's direct calls (executor-server
  /// publishes kDirectCallsSymbol).
  bool direct = false;

  /// A launch's reply; outputs in the executor's shared arena are read
  /// while `arena` (this side's) is held.
  struct LaunchReply {
    shared::WrapperFunctionBuffer reply;
    std::unique_lock<std::mutex> arena;
    const char *shared = nullptr;
    size_t sharedSize = 0;
  };
  /// One launch on executor-server: a direct call, or the ORC wrapper call.
  /// Scalars (`scalarInputs`; empty: none) go as kScalarRank inputs; a
  /// scalar result's rank is kScalarRank in `outputRanks`.
  Expected<LaunchReply> launchCall(ExecutorAddr entry, const std::string &kernel,
                                   ArrayRef<DescriptorView> inputs,
                                   ArrayRef<int64_t> inputElementSizes,
                                   ArrayRef<int64_t> outputRanks,
                                   ArrayRef<int64_t> outputElementSizes,
                                   ArrayRef<bool> scalarInputs = {});

  /// The executor this client started ended during `what`: how (its exit
  /// status), as a KernelCrashed naming the kernel of `what` when a signal
  /// ended it; nothing when it has not ended within 2 s (the connection
  /// broke some other way).
  std::optional<Error> childEnded(const std::string &what) const {
    std::lock_guard<std::mutex> lock(childMutex);
    if (!child->waitFor(std::chrono::seconds(2)))
      return std::nullopt;
    std::string name = llvm::sys::path::filename(address).str();
    std::string who = name + " (pid " + std::to_string(childPid) +
                      ", started by this client)";
    int signal = child->terminationSignal();
    if (signal == 0)
      return make_error<SessionLost>(
          address, "lost the session during " + what + ": " + who +
                       " exited with " + child->exitDescription());
    // Which launch was running: `what` names it ("launch of K",
    // "launch_async of K").
    std::string kernel;
    if (size_t of = what.find(" of "); what.rfind("launch", 0) == 0 &&
                                       of != std::string::npos)
      kernel = what.substr(of + 4);
    std::string signalText = std::to_string(signal) + " (" +
                             ::strsignal(signal) + ")";
    std::string message =
        "lost the session during " + what + ": " + who +
        " was killed by signal " + signalText +
        (kernel.empty() ? std::string(" outside a kernel")
                        : " while running kernel " + kernel) +
        "; " + executorKindName(this->kind) +
        "s report no backtrace, so where it crashed (the faulting address, "
        "the kernel's .mlir line) is not known: run the kernel on "
        "executor-server for its frames and line";
    return Error(make_error<KernelCrashed>(address, message, kernel, signal));
  }

  /// The session is gone during `what`: the crash the executor reported
  /// (executor-server names the kernel and the signal), else `detail`.
  Error lost(const std::string &what, const std::string &detail) const {
    if (timedOut)
      return timeLimitPassed(what, detail);
    // The executor sent what no executor sends (the transport checked it).
    std::string bad = transport ? transport->malformedMessage() : "";
    if (!bad.empty()) {
      open = false;
      return make_error<MalformedReply>(address, "malformed reply to " + what +
                                                     ": " + bad);
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
                  formatBacktrace(frames);
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

  /// The reply of an SPS-encoded call of `function`, or the error.
  Expected<shared::WrapperFunctionBuffer>
  callRemote(ExecutorAddr function, ArrayRef<char> request,
             const std::string &what) {
    if (!open)
      return closed();
    shared::WrapperFunctionBuffer reply = callAndWait(function, request);
    // Only the client side makes out-of-band errors: the session is gone.
    if (const char *message = reply.getOutOfBandError())
      return lost(what, message);
    return std::move(reply);
  }
  /// Frees `address` on the executor without waiting for the answer.
  void releaseRemote(ExecutorAddr address) {
    std::vector<char> request = encode<shared::SPSExecutorAddr>(address);
    es->getExecutorProcessControl().callWrapperAsync(
        ExecutorProcessControl::RunInPlace(), remoteFree,
        [](shared::WrapperFunctionBuffer) {}, request);
  }
  /// Zeroed executor memory of `size` bytes.
  Expected<ExecutorAddr> allocateRemote(uint64_t size, const std::string &what);

  struct RemoteOutput {
    std::vector<int64_t> sizes;
    char *data = nullptr; // malloc'ed, the caller's
    uint64_t bytes = 0;
  };
  /// A launch through Catalyst's services: one block for every input's
  /// descriptor and data, the argument pointers and the result descriptors
  /// (alloc), written at once (write), the call (invoke), the result
  /// descriptors read back, then their data in one read; the block and the
  /// kernel's result buffers are freed without waiting.
  /// Scalars (`scalarInputs`, `scalarOutputs`; empty: none) go by pointer
  /// to their value, as the kernel's wrapper takes them, not as descriptors.
  Expected<std::vector<RemoteOutput>>
  launchRemote(ExecutorAddr entry, const std::string &kernel,
               ArrayRef<DescriptorView> inputs,
               ArrayRef<int64_t> inputElementSizes,
               ArrayRef<int64_t> outputRanks,
               ArrayRef<int64_t> outputElementSizes,
               ArrayRef<bool> scalarInputs = {},
               ArrayRef<bool> scalarOutputs = {});
  /// Links the alloc/free/invoke services into an ORC executor (one that
  /// has no services of its own).
  Error linkOrcServices();

  /// Calls one of the server's wrapper functions; returns the reply (whose
  /// status says ok) or the error it reports, naming `what`.
  Expected<shared::WrapperFunctionBuffer>
  callExecutor(ExecutorAddr function, ArrayRef<char> request,
               const std::string &what);
  /// callExecutor, as a direct call when the transport has them (the
  /// server then answers before anything it starts can end the session).
  Expected<shared::WrapperFunctionBuffer>
  callServer(ExecutorAddr function, ArrayRef<char> request,
             const std::string &what) {
    if (!direct)
      return callExecutor(function, request, what);
    if (!open)
      return closed();
    iovec part{const_cast<char *>(request.data()), request.size()};
    auto reply = transport->callDirect(function.getValue(), 0,
                                       ArrayRef<iovec>(part), launchTimeout);
    if (!reply)
      return directFailed(what, reply.takeError());
    if (Error err = replyStatus(*reply, what))
      return std::move(err);
    return std::move(*reply);
  }
  /// A note whose reply nobody waits for.
  void noteLater(const std::string &message) {
    if (kind != ExecutorKind::ExecutorServer || !open)
      return;
    es->getExecutorProcessControl().callWrapperAsync(
        ExecutorProcessControl::RunInPlace(), noteWrapper,
        [](shared::WrapperFunctionBuffer) {},
        ArrayRef<char>(message.data(), message.size()));
  }
  void note(const std::string &message) {
    if (kind != ExecutorKind::ExecutorServer)
      return;
    consumeError(callExecutor(noteWrapper,
                              ArrayRef<char>(message.data(), message.size()),
                              "note")
                     .takeError());
  }
};

ExecutorClient::ExecutorClient(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}

ExecutorClient::~ExecutorClient() { consumeError(close()); }

const std::string &ExecutorClient::address() const { return impl->address; }
const std::string &ExecutorClient::connectedAddress() const {
  return impl->connected;
}

std::string ExecutorClient::executorTriple() const {
  return impl->es ? impl->es->getExecutorProcessControl().getTargetTriple().str()
                  : std::string();
}
int64_t ExecutorClient::sessionPid() const {
  if (impl->child)
    return impl->childPid;
  if (!impl->es)
    return 0;
  const StringMap<ExecutorAddr> &published =
      impl->es->getExecutorProcessControl().getBootstrapSymbolsMap();
  auto it = published.find(kSessionPidSymbol);
  // (A PID is positive and below 2^22 on Linux; anything else is ignored.)
  if (it == published.end() || it->second.getValue() == 0 ||
      it->second.getValue() > (1u << 22))
    return 0;
  return static_cast<int64_t>(it->second.getValue());
}
bool ExecutorClient::isOpen() const { return impl->open; }
ExecutorKind ExecutorClient::executorKind() const { return impl->kind; }
std::string ExecutorClient::tlsDescription() const {
  return impl->transport ? impl->transport->tlsDescription() : "";
}

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::open(const std::string &address, ClientOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->address = address;
  std::string why;
  if (!mapAddress(address, impl->connected, why))
    return impl->error(why);
  bool mapped = impl->connected != address;
  std::string host, port;
  if (!mapped && !isUnixAddress(address) &&
      !splitAddress(address, host, port, why))
    return impl->error(
        "no EXECUTOR_ADDRESS_MAP entry maps this address, and it is not an "
        "address to connect to (" + why + "); run the program with "
        "EXECUTOR_ADDRESS_MAP='" + address + "=HOST:PORT' (several entries "
        "separated by ',')");
  std::string unixPath;
  bool overUnix = isUnixAddress(impl->connected, &unixPath);
  // The environment's settings first: one that cannot be used is the
  // error, not what the executor says without it.
  SessionSecurity security;
  if (!sessionSecurity(options, impl->connected, !overUnix, security, why))
    return impl->error(why);
  if (!overUnix && !security.handshake.token.empty())
    if (std::string weak = tokenWeakness(security.handshake.token);
        !weak.empty())
      return impl->error("the token (EXECUTOR_TOKEN, EXECUTOR_TOKEN_FILE or "
                         "the client's options) " + weak + "; use one such "
                         "as openssl rand -hex 32 makes");
  int fd = overUnix ? connectUnix(unixPath, options.connectTimeout, why)
                    : connectTo(impl->connected, options.connectTimeout, why);
  if (fd < 0) {
    if (!mapped && why.rfind("cannot resolve", 0) == 0)
      why += "; if it stands for an executor, map it with "
             "EXECUTOR_ADDRESS_MAP='" + address + "=HOST:PORT'";
    return impl->error(why);
  }
  // TLS and the token (Handshake.h); a peer that accepts but never speaks
  // (ORC or a greeting) is not waited for longer than the handshake time-out.
  // A Unix socket's file mode decides who connects: no token and no TLS
  // there (executor-server asks for neither on one).
  if (overUnix) {
    security.handshake.token.clear();
    security.handshake.tlsCA.clear();
  } else {
    setLivenessTimeout(fd, security.liveness);
    if (!security.handshake.token.empty() &&
        security.handshake.tlsCA.empty() &&
        !plaintextAllowedTo(fd, why)) {
      ::close(fd);
      return impl->error(why);
    }
  }
  impl->launchTimeout = security.launchTimeout;
  std::unique_ptr<TlsStream> tls;
  if (!clientHandshake(fd, security.handshake, tls, why)) {
    if (!tls)
      ::close(fd);
    return impl->error(why);
  }
  // The one place that knows what carries the session (Stream.h).
  std::unique_ptr<Stream> stream = tls        ? tlsStream(std::move(tls))
                                   : overUnix ? unixStream(fd)
                                              : socketStream(fd);
  bool sameHost = overUnix || isLoopbackHost(impl->connected);
  return startSession(std::move(impl), std::move(stream), overUnix, sameHost);
}

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::startSession(std::unique_ptr<Impl> impl,
                             std::unique_ptr<Stream> stream, bool overUnix,
                             bool sameHost) {
  auto epc = SimpleRemoteEPC::Create<TcpTransport>(
      std::make_unique<DynamicThreadPoolTaskDispatcher>(std::nullopt),
      SimpleRemoteEPC::Setup(), std::move(stream), &impl->transport,
      TcpTransport::Options());
  if (!epc) // the transport owned the socket and closed it
    return impl->error("ORC handshake failed: " + toString(epc.takeError()));
  impl->es = std::make_unique<ExecutionSession>(std::move(*epc));
  impl->es->setErrorReporter([](Error err) { consumeError(std::move(err)); });
  impl->linker = std::make_unique<ObjectLinkingLayer>(*impl->es);
  impl->linkedObjects = LinkedObjects::addTo(*impl->es, *impl->linker);
  impl->sameHost = sameHost;
  // Negotiate from the bootstrap symbols: ours, Catalyst's, or none.
  ExecutorProcessControl &epcRef = impl->es->getExecutorProcessControl();
  const StringMap<ExecutorAddr> &published = epcRef.getBootstrapSymbolsMap();
  auto publishes = [&](std::initializer_list<const char *> names) {
    for (const char *name : names)
      if (!published.count(name))
        return false;
    return true;
  };
  Error negotiated = Error::success();
  if (publishes({kLaunchWrapperName, kNoteWrapperName, kLaunchAsyncWrapperName,
                 kAwaitWrapperName, kStoreAssetWrapperName})) {
    impl->kind = ExecutorKind::ExecutorServer;
    impl->direct = published.count(kDirectCallsSymbol) != 0;
    negotiated = epcRef.getBootstrapSymbols(
        {{impl->launchWrapper, kLaunchWrapperName},
         {impl->noteWrapper, kNoteWrapperName},
         {impl->launchAsyncWrapper, kLaunchAsyncWrapperName},
         {impl->awaitWrapper, kAwaitWrapperName},
         {impl->storeAssetWrapper, kStoreAssetWrapperName}});
  } else if (publishes({"catalyst_remote_alloc", "catalyst_remote_free",
                        "catalyst_remote_invoke",
                        "catalyst_remote_store_asset"})) {
    impl->kind = ExecutorKind::CatalystExecutor;
    negotiated = epcRef.getBootstrapSymbols(
        {{impl->remoteAlloc, "catalyst_remote_alloc"},
         {impl->remoteFree, "catalyst_remote_free"},
         {impl->remoteInvoke, "catalyst_remote_invoke"},
         {impl->remoteStoreAsset, "catalyst_remote_store_asset"}});
  } else {
    impl->kind = ExecutorKind::OrcExecutor;
  }
  if (impl->kind != ExecutorKind::ExecutorServer && impl->transport)
    impl->transport->setQuickAck(true);
  if (negotiated) {
    std::string message = toString(std::move(negotiated));
    ExecutorClient client(std::move(impl));
    return client.impl->error("cannot use its services: " + message);
  }
  impl->process = &impl->es->createBareJITDylib("<executor process>");
  auto generator = EPCDynamicLibrarySearchGenerator::GetForTargetProcess(*impl->es);
  if (!generator) {
    std::string message = toString(generator.takeError());
    ExecutorClient client(std::move(impl));
    return client.impl->error("cannot search the executor process: " + message);
  }
  impl->process->addGenerator(std::move(*generator));
  if (overUnix && impl->kind == ExecutorKind::ExecutorServer) {
    // Kernels allocate through the executor's heap in shared memory, so
    // their large results reach us without a copy there.
    SymbolMap allocators;
    for (const auto &names : kKernelAllocators) {
      auto it = published.find(names[1]);
      if (it == published.end()) {
        allocators.clear();
        break;
      }
      allocators[impl->es->intern(names[0])] = ExecutorSymbolDef(
          it->second, JITSymbolFlags::Exported | JITSymbolFlags::Callable);
    }
    if (!allocators.empty())
      if (Error err =
              impl->process->define(absoluteSymbols(std::move(allocators)))) {
        std::string message = toString(std::move(err));
        ExecutorClient client(std::move(impl));
        return client.impl->error("cannot use its kernel heap: " + message);
      }
  }
  impl->open = true;
  if (impl->kind == ExecutorKind::OrcExecutor) {
    if (Error err = impl->linkOrcServices()) {
      std::string message = toString(std::move(err));
      ExecutorClient client(std::move(impl));
      return client.impl->error("is an ORC executor without executor "
                                "services, and linking them into it failed: " +
                                message);
    }
  }
  return std::unique_ptr<ExecutorClient>(new ExecutorClient(std::move(impl)));
}

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::spawn(const std::string &executor,
                      const std::vector<std::string> &extraArgs) {
  auto impl = std::make_unique<Impl>();
  impl->address = impl->connected = executor;
  if (!llvm::sys::fs::can_execute(executor))
    return impl->error("cannot start it: no executable file there");
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return impl->error(std::string("cannot make a socket pair: ") +
                       ::strerror(errno));
  // ORC's executors take the session's descriptors as `filedescs=IN,OUT`:
  // the child's standard input and output are its end of the pair.
  std::vector<std::string> args = {executor};
  llvm::append_range(args, extraArgs);
  args.push_back("filedescs=0,1");
  executor_studio::SubprocessOptions options;
  options.in = executor_studio::Redirect::descriptor(fds[1]);
  options.out = executor_studio::Redirect::descriptor(fds[1]);
  options.newProcessGroup = true;
  impl->child = std::make_unique<executor_studio::Subprocess>();
  llvm::Error started = impl->child->start(args, options);
  ::close(fds[1]);
  if (started) {
    ::close(fds[0]);
    return impl->error("cannot start it: " + toString(std::move(started)));
  }
  impl->childPid = impl->child->processId();
  return startSession(std::move(impl), socketStream(fds[0]),
                      /*overUnix=*/false, /*sameHost=*/true);
}

bool ExecutorClient::hasObject(const std::string &name) const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->objects.count(name) != 0;
}

namespace {
Error unknownFormat(const std::string &name, int format) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot send " + name + ": unknown binary format " +
                               std::to_string(format) +
                               " (0 is a relocatable object, 1 an asset)");
}
} // namespace

Error ExecutorClient::sendBinary(const std::string &path, int format) {
  if (format != 0 && format != 1)
    return impl->error(toString(unknownFormat(path, format)));
  if (format == 0 && hasObject(path))
    return Error::success();
  // A file the program embedded (executor-compile) ships from memory.
  std::optional<ArrayRef<char>> bytes = findEmbeddedFile(path);
  std::unique_ptr<MemoryBuffer> file;
  if (!bytes) {
    auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
    if (!buffer)
      return impl->error(std::string("cannot read ") +
                         (format == 0 ? "object " : "asset ") + path + ": " +
                         buffer.getError().message());
    file = std::move(*buffer);
    bytes = ArrayRef<char>(file->getBufferStart(), file->getBufferSize());
  }
  if (format == 1)
    return storeAsset(sys::path::filename(path).str(), *bytes);
  return sendBinary(path, *bytes, format);
}

Error ExecutorClient::sendBinary(const std::string &name, ArrayRef<char> bytes,
                                 int format) {
  if (!impl->open)
    return impl->closed();
  if (format == 1)
    return storeAsset(name, bytes);
  if (format != 0)
    return impl->error(toString(unknownFormat(name, format)));
  std::lock_guard<std::mutex> lock(impl->mutex);
  if (impl->objects.count(name))
    return Error::success();
  auto buffer = MemoryBuffer::getMemBufferCopy(
      StringRef(bytes.data(), bytes.size()), name);
  // An object for another architecture would be linked and jumped into.
  if (Error err = checkObjectArchitecture(
          buffer->getMemBufferRef(),
          impl->es->getExecutorProcessControl().getTargetTriple(),
          impl->address == impl->connected
              ? impl->address
              : impl->address + " (" + impl->connected + ")"))
    return err;
  auto interface = getObjectFileInterface(*impl->es, buffer->getMemBufferRef());
  if (!interface)
    return impl->error("object " + name + " is not a loadable object file: " +
                       toString(interface.takeError()));
  SymbolLookupSet symbols;
  for (auto &[symbol, flags] : interface->SymbolFlags)
    if (flags.isExported())
      symbols.add(symbol);
  JITDylib &jd = impl->es->createBareJITDylib(name);
  jd.addToLinkOrder(*impl->process);
  if (Error err = impl->linker->add(jd, std::move(buffer))) {
    consumeError(impl->es->removeJITDylib(jd));
    return impl->error("cannot load object " + name + ": " +
                       toString(std::move(err)));
  }
  // Link now, so that a broken object fails here and not at its first launch.
  auto linked = impl->es->lookup(makeJITDylibSearchOrder(&jd), symbols);
  if (!linked) {
    std::string message = toString(linked.takeError());
    consumeError(impl->es->removeJITDylib(jd));
    return impl->error("cannot link object " + name + ": " + message);
  }
  impl->objects[name] = &jd;
  impl->note("object loaded: " + name + " (" + std::to_string(bytes.size()) +
             " bytes, " + std::to_string(symbols.size()) + " symbols)");
  return Error::success();
}

Expected<ExecutorAddr>
ExecutorClient::Impl::findEntry(const std::string &entry,
                                const std::string &object) {
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(object, entry);
  auto it = entries.find(key);
  if (it != entries.end())
    return it->second;
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
  entries[key] = symbol->getAddress();
  return symbol->getAddress();
}

Expected<shared::WrapperFunctionBuffer>
ExecutorClient::Impl::callExecutor(ExecutorAddr function, ArrayRef<char> request,
                                   const std::string &what) {
  auto reply = callRemote(function, request, what);
  if (!reply)
    return reply.takeError();
  if (Error err = replyStatus(*reply, what))
    return std::move(err);
  return std::move(*reply);
}

namespace {
/// A message built in two passes: `fill(w)` runs once counting and once
/// writing into memory allocated to the exact size.
struct Message {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  ArrayRef<char> bytes() const { return ArrayRef<char>(data.get(), size); }
};
template <typename FillFn> Message buildMessage(FillFn fill) {
  Writer counter;
  fill(counter);
  Message m;
  m.size = counter.size();
  m.data.reset(new char[m.size]);
  Writer writer(m.data.get());
  fill(writer);
  return m;
}

void writeRequestHeader(Writer &w, ExecutorAddr entry,
                        const std::string &kernel, uint32_t nin,
                        uint32_t nout) {
  writeLaunchHeader(w, {entry.getValue(), nin, nout, kernel});
}

} // namespace


Expected<ExecutorClient::Impl::LaunchReply> ExecutorClient::Impl::launchCall(
    ExecutorAddr entry, const std::string &kernel,
    ArrayRef<DescriptorView> inputs, ArrayRef<int64_t> inputElementSizes,
    ArrayRef<int64_t> outputRanks, ArrayRef<int64_t> outputElementSizes,
    ArrayRef<bool> scalarInputs) {
  std::string what = "launch of " + kernel;
  LaunchReply result;
  // An input's rank word (a scalar's says so).
  auto rankWord = [&](size_t i) {
    bool scalar = i < scalarInputs.size() && scalarInputs[i];
    return static_cast<uint32_t>(inputs[i].rank) | (scalar ? kScalarRank : 0);
  };
  if (!direct) {
    Message request = buildMessage([&](Writer &w) {
      writeRequestHeader(w, entry, kernel, inputs.size(), outputRanks.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        w.put<uint32_t>(rankWord(i));
        w.put<uint32_t>(inputElementSizes[i]);
        for (int64_t d = 0; d < inputs[i].rank; ++d)
          w.put<int64_t>(inputs[i].size(d));
        w.putData(inputs[i], inputElementSizes[i]);
      }
      for (size_t i = 0; i < outputRanks.size(); ++i) {
        w.put<uint32_t>(outputRanks[i]);
        w.put<uint32_t>(outputElementSizes[i]);
      }
    });
    auto reply = callExecutor(launchWrapper, request.bytes(), what);
    if (!reply)
      return reply.takeError();
    result.reply = std::move(*reply);
    return std::move(result);
  }
  if (!open)
    return closed();
  // A direct call gathered from the metadata and each input's data where it
  // lies.
  GatherMessage message;
  {
    Writer counter;
    writeRequestHeader(counter, entry, kernel, inputs.size(),
                       outputRanks.size());
    Writer writer(message.reserve(counter.size()));
    writeRequestHeader(writer, entry, kernel, inputs.size(),
                       outputRanks.size());
  }
  // On a Unix socket, large inputs are copied once into this side's arena,
  // and the executor may put large results in its own: held for the call.
  uint32_t flags = 0;
  std::vector<uint64_t> sharedAt(inputs.size(), ~0ull);
  if (transport->sharesMemory()) {
    result.arena =
        std::unique_lock<std::mutex>(transport->arenaMutex(), std::try_to_lock);
    if (result.arena.owns_lock()) {
      flags |= kDirectMayShareReply;
      uint64_t total = 0;
      for (size_t i = 0; i < inputs.size(); ++i) {
        uint64_t bytes = inputs[i].numElements() * inputElementSizes[i];
        if (bytes < kShareAbove)
          continue;
        sharedAt[i] = total;
        total = (total + bytes + kDataAlignment - 1) / kDataAlignment *
                kDataAlignment;
      }
      std::string why;
      if (total && !transport->ownArena().reserve(total, why))
        sharedAt.assign(inputs.size(), ~0ull);
      else if (total)
        if (Error err = transport->offerArena())
          return lost(what, toString(std::move(err)));
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const DescriptorView &in = inputs[i];
    int64_t elt = inputElementSizes[i];
    message.put32(rankWord(i));
    message.put32(static_cast<uint32_t>(elt));
    for (int64_t d = 0; d < in.rank; ++d)
      message.put64(static_cast<uint64_t>(in.size(d)));
    uint64_t bytes = static_cast<uint64_t>(in.numElements() * elt);
    const char *first = in.aligned() + in.offset() * elt;
    if (sharedAt[i] != ~0ull) {
      message.put64(bytes | kSharedData);
      message.put64(sharedAt[i]);
      gatherDense(in, elt, first,
                  transport->ownArena().data() + sharedAt[i]);
      continue;
    }
    message.put64(bytes);
    message.alignData();
    if (bytes == 0)
      continue;
    if (!in.isDense()) {
      char *staged = message.stage(bytes);
      gatherDense(in, elt, first, staged);
      first = staged;
    }
    message.addData(first, bytes);
  }
  for (size_t i = 0; i < outputRanks.size(); ++i) {
    message.put32(static_cast<uint32_t>(outputRanks[i]));
    message.put32(static_cast<uint32_t>(outputElementSizes[i]));
  }
  std::vector<iovec> parts = message.parts();
  auto reply = transport->callDirect(launchWrapper.getValue(), flags, parts,
                                     launchTimeout);
  if (!reply)
    return directFailed(what, reply.takeError());
  if (Error err = replyStatus(*reply, what))
    return std::move(err);
  result.reply = std::move(*reply);
  result.shared = transport->peerArena().data();
  result.sharedSize = transport->peerArena().size();
  return std::move(result);
}

Error ExecutorClient::storeAsset(const std::string &name,
                                 ArrayRef<char> bytes) {
  std::string what = "storing asset '" + name + "'";
  if (impl->kind == ExecutorKind::OrcExecutor)
    return impl->error(what + ": an ORC executor has no asset storage (assets "
                       "need executor-server or catalyst-executor)");
  if (impl->kind == ExecutorKind::CatalystExecutor) {
    std::string problem = assetNameProblem(name);
    if (!problem.empty())
      return impl->error("refused asset name '" + name + "': " + problem);
    std::vector<char> request =
        encode<shared::SPSSequence<char>, shared::SPSString>(bytes, name);
    auto reply = impl->callRemote(impl->remoteStoreAsset, request, what);
    if (!reply)
      return reply.takeError();
    int32_t status = -1;
    shared::SPSInputBuffer in(reply->data(), reply->size());
    if (!shared::SPSArgList<int32_t>::deserialize(in, status))
      return impl->malformed(what, "catalyst_remote_store_asset's reply of " +
                                       Twine(reply->size()) +
                                       " bytes is not an int32 status");
    if (status != 0)
      return impl->refused(what, "catalyst_remote_store_asset answered " +
                                     std::to_string(status) +
                                     " (the executor's log says why)");
    return Error::success();
  }
  Message request = buildMessage([&](Writer &w) {
    w.put<uint32_t>(name.size());
    if (char *dst = w.reserve(name.size()))
      std::memcpy(dst, name.data(), name.size());
    if (char *dst = w.reserve(bytes.size()))
      std::memcpy(dst, bytes.data(), bytes.size());
  });
  auto reply = impl->callExecutor(impl->storeAssetWrapper, request.bytes(),
                                  what);
  return reply ? Error::success() : reply.takeError();
}

Expected<std::vector<HostMemRef>>
ExecutorClient::launch(const std::string &entryName, const std::string &object,
                       const std::vector<HostMemRef> &inputs,
                       const std::vector<ResultSpec> &results) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  for (const HostMemRef &in : inputs)
    if (static_cast<int64_t>(in.bytes.size()) != in.numElements() * in.elementSize)
      return impl->error("input of " + entry + " has " +
                         std::to_string(in.bytes.size()) +
                         " bytes, not the " +
                         std::to_string(in.numElements() * in.elementSize) +
                         " its shape needs");
  std::string kernel = kernelName(entry);
  // Descriptors over the host data, for either launch protocol (a scalar's
  // is of rank 0).
  std::vector<std::vector<int64_t>> words(inputs.size());
  std::vector<DescriptorView> views;
  std::vector<int64_t> inSizes, outRanks, outSizes;
  SmallVector<bool, 8> scalarIn, scalarOut;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].scalar && !inputs[i].sizes.empty())
      return impl->error("scalar input " + std::to_string(i) + " of " + entry +
                         " has a shape");
    int64_t rank = static_cast<int64_t>(inputs[i].sizes.size());
    words[i].assign(3 + 2 * rank, 0);
    DescriptorView view{words[i].data(), rank};
    view.setDense(const_cast<char *>(inputs[i].bytes.data()),
                  inputs[i].sizes.data());
    views.push_back(view);
    inSizes.push_back(inputs[i].elementSize);
    scalarIn.push_back(inputs[i].scalar);
  }
  for (const ResultSpec &spec : results) {
    int64_t size = spec.elementSize;
    if (spec.scalar && (size <= 0 || size > 8 || (size & (size - 1))))
      return impl->error("a scalar result of " + entry + " of " +
                         std::to_string(size) + " bytes (1, 2, 4 or 8)");
    outRanks.push_back(spec.scalar ? 0 : spec.rank);
    outSizes.push_back(size);
    scalarOut.push_back(spec.scalar);
  }
  if (impl->kind != ExecutorKind::ExecutorServer) {
    // Catalyst's services, or ORC's memory access.
    auto remote = impl->launchRemote(*address, kernel, views, inSizes,
                                     outRanks, outSizes, scalarIn, scalarOut);
    if (!remote)
      return remote.takeError();
    std::vector<HostMemRef> outputs;
    for (size_t i = 0; i < remote->size(); ++i) {
      Impl::RemoteOutput &out = (*remote)[i];
      HostMemRef m;
      m.sizes = out.sizes;
      m.elementSize = outSizes[i];
      m.bytes.assign(out.data, out.data + out.bytes);
      m.scalar = scalarOut[i];
      std::free(out.data);
      outputs.push_back(std::move(m));
    }
    return outputs;
  }
  // executor-server's one-trip launch, scalars included.
  for (size_t i = 0; i < outRanks.size(); ++i)
    if (scalarOut[i])
      outRanks[i] = kScalarRank;
  auto reply = impl->launchCall(*address, kernel, views, inSizes, outRanks,
                                outSizes, scalarIn);
  if (!reply)
    return reply.takeError();
  std::vector<ReplyMemRef> placed;
  std::string problem =
      readLaunchReply(reply->reply.data(), reply->reply.size(), reply->shared,
                      reply->sharedSize, outRanks, outSizes, placed);
  if (!problem.empty())
    return impl->malformed("launch of " + kernel, problem);
  std::vector<HostMemRef> outputs;
  for (size_t i = 0; i < results.size(); ++i) {
    HostMemRef out;
    out.sizes = placed[i].sizes;
    out.elementSize = outSizes[i];
    out.bytes.assign(placed[i].data, placed[i].data + placed[i].bytes);
    out.scalar = scalarOut[i];
    outputs.push_back(std::move(out));
  }
  return outputs;
}

Error ExecutorClient::launchDescriptors(const std::string &entryName,
                                        const std::string &object,
                                        ArrayRef<DescriptorView> inputs,
                                        ArrayRef<int64_t> inputElementSizes,
                                        ArrayRef<DescriptorView> outputs,
                                        ArrayRef<int64_t> outputElementSizes) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  return launchDescriptorsAt(address->getValue(), entry, inputs,
                             inputElementSizes, outputs, outputElementSizes);
}

Expected<uint64_t> ExecutorClient::symbolAddress(const std::string &symbol,
                                                 const std::string &object) {
  if (!impl->open)
    return impl->closed();
  auto address = impl->findEntry(symbol, object);
  if (!address)
    return address.takeError();
  return address->getValue();
}

Error ExecutorClient::launchDescriptorsAt(uint64_t entryAddress,
                                          const std::string &entry,
                                          ArrayRef<DescriptorView> inputs,
                                          ArrayRef<int64_t> inputElementSizes,
                                          ArrayRef<DescriptorView> outputs,
                                          ArrayRef<int64_t> outputElementSizes) {
  ExecutorAddr address(entryAddress);
  std::string kernel = kernelName(entry);
  std::vector<int64_t> outRanks;
  for (const DescriptorView &out : outputs)
    outRanks.push_back(out.rank);
  if (impl->kind != ExecutorKind::ExecutorServer) {
    auto remote = impl->launchRemote(address, kernel, inputs, inputElementSizes,
                                     outRanks, outputElementSizes);
    if (!remote)
      return remote.takeError();
    for (size_t i = 0; i < outputs.size(); ++i) {
      DescriptorView out = outputs[i];
      out.setDense((*remote)[i].data, (*remote)[i].sizes.data());
    }
    return Error::success();
  }
  auto launched = impl->launchCall(address, kernel, inputs, inputElementSizes,
                                   outRanks, outputElementSizes);
  if (!launched)
    return launched.takeError();
  shared::WrapperFunctionBuffer *reply = &launched->reply;
  // The largest output takes over the reply buffer itself (malloc'ed by the
  // transport; its data is 16-byte aligned in it), so the program frees it
  // with the descriptor's allocated pointer and the bulk of the data is not
  // copied again. The other outputs are copied out.
  std::vector<ReplyMemRef> placed;
  std::string problem = readLaunchReply(
      reply->data(), reply->size(), launched->shared, launched->sharedSize,
      outRanks, std::vector<int64_t>(outputElementSizes.begin(),
                                     outputElementSizes.end()),
      placed);
  if (!problem.empty())
    return impl->malformed("launch of " + kernel, problem);
  size_t largest = 0;
  bool inReplyLargest = false;
  for (size_t i = 0; i < outputs.size(); ++i) {
    // Only data in the reply itself can be taken over.
    bool inReply = placed[i].data >= reply->data() &&
                   placed[i].data < reply->data() + reply->size();
    if (inReply && (!inReplyLargest || placed[i].bytes > placed[largest].bytes)) {
      largest = i;
      inReplyLargest = true;
    }
  }
  bool adopt = inReplyLargest &&
               reply->size() > sizeof(shared::CWrapperFunctionBuffer{}.Data);
  for (size_t i = 0; i < outputs.size(); ++i) {
    DescriptorView out = outputs[i];
    if (adopt && i == largest)
      continue;
    void *memory = std::malloc(placed[i].bytes ? placed[i].bytes : 1);
    std::memcpy(memory, placed[i].data, placed[i].bytes);
    out.setDense(memory, placed[i].sizes.data());
  }
  if (adopt) {
    DescriptorView out = outputs[largest];
    size_t offset = placed[largest].data - reply->data();
    char *block = reply->release().Data.ValuePtr;
    char *data = block + offset;
    out.setDense(data, placed[largest].sizes.data());
    static_cast<void **>(out.base)[0] = block; // what free() gets
  }
  return Error::success();
}

Expected<uint64_t> ExecutorClient::launchAsync(const std::string &entryName,
                                               const std::string &object) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  return launchAsyncAt(address->getValue(), entry);
}

Expected<uint64_t> ExecutorClient::launchAsyncAt(uint64_t entryAddress,
                                                 const std::string &entry) {
  if (!impl->open)
    return impl->closed();
  std::string kernel = kernelName(entry);
  if (impl->kind != ExecutorKind::ExecutorServer) {
    // The invoke call, not waited for: the executor runs each wrapper call
    // on a thread of its own; await waits for its reply.
    auto call = std::make_shared<Impl::AsyncCall>();
    call->what = "launch_async of " + kernel;
    std::vector<char> request =
        encode<shared::SPSExecutorAddr,
               shared::SPSSequence<shared::SPSExecutorAddr>>(
            ExecutorAddr(entryAddress),
            std::vector<ExecutorAddr>{ExecutorAddr(), ExecutorAddr()});
    uint64_t ticket;
    {
      std::lock_guard<std::mutex> lock(impl->mutex);
      ticket = impl->nextTicket++;
      impl->asyncCalls[ticket] = call;
    }
    impl->es->getExecutorProcessControl().callWrapperAsync(
        ExecutorProcessControl::RunInPlace(), impl->remoteInvoke,
        [call](shared::WrapperFunctionBuffer reply) {
          std::lock_guard<std::mutex> lock(call->mutex);
          call->reply = std::move(reply);
          call->done = true;
          call->ready.notify_all();
        },
        request);
    return ticket;
  }
  // The executor starts the kernel on a thread of its own and answers with a
  // ticket at once; await asks for the ticket's end.
  Message request = buildMessage([&](Writer &w) {
    writeRequestHeader(w, ExecutorAddr(entryAddress), kernel, 0, 0);
  });
  auto reply = impl->callServer(impl->launchAsyncWrapper, request.bytes(),
                                "launch_async of " + kernel);
  if (!reply)
    return reply.takeError();
  Reader r(reply->data(), reply->size());
  uint64_t status, ticket = 0;
  if (!r.get(status) || !r.get(ticket))
    return impl->malformed("launch_async of " + kernel,
                           "it has " + Twine(reply->size()) +
                               " bytes, not a status and a ticket");
  return ticket;
}

Error ExecutorClient::await(uint64_t token) {
  if (impl->kind != ExecutorKind::ExecutorServer) {
    std::shared_ptr<Impl::AsyncCall> call;
    {
      std::lock_guard<std::mutex> lock(impl->mutex);
      auto it = impl->asyncCalls.find(token);
      if (it == impl->asyncCalls.end())
        return impl->error("await of unknown ticket " + std::to_string(token));
      call = it->second;
      impl->asyncCalls.erase(it);
    }
    std::unique_lock<std::mutex> lock(call->mutex);
    call->ready.wait(lock, [&] { return call->done; });
    if (const char *message = call->reply.getOutOfBandError())
      return impl->lost(call->what, message);
    return Error::success();
  }
  auto reply = impl->callExecutor(
      impl->awaitWrapper,
      ArrayRef<char>(reinterpret_cast<const char *>(&token), sizeof(token)),
      "await of launch token " + std::to_string(token));
  return reply ? Error::success() : reply.takeError();
}

Expected<std::vector<char>> ExecutorClient::call(const std::string &symbol,
                                                 ArrayRef<char> input) {
  if (!impl->open)
    return impl->closed();
  JITDylibSearchOrder order;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    order = impl->everything();
  }
  auto found = impl->es->lookup(order, impl->es->intern(symbol));
  if (!found) {
    consumeError(found.takeError());
    return impl->error("unknown symbol " + symbol +
                       ": no loaded object or plugin defines it");
  }
  auto reply = callAddress(found->getAddress().getValue(), input);
  // One line in the executor's log, as a launch has (not waited for: it
  // costs the call no round trip).
  impl->noteLater("call " + symbol + ": " + std::to_string(input.size()) +
                  " bytes in, " +
                  (reply ? std::to_string(reply->size()) + " bytes back"
                         : std::string("failed")));
  return reply;
}

Expected<std::vector<char>> ExecutorClient::callAddress(uint64_t address,
                                                        ArrayRef<char> input) {
  auto reply = impl->callRemote(ExecutorAddr(address), input, "a call");
  if (!reply)
    return reply.takeError();
  return std::vector<char>(reply->data(), reply->data() + reply->size());
}

Expected<ExecutorAddr>
ExecutorClient::Impl::allocateRemote(uint64_t size, const std::string &what) {
  std::vector<char> request = encode<uint64_t>(size);
  auto reply = callRemote(remoteAlloc, request, what);
  if (!reply)
    return reply.takeError();
  ExecutorAddr address;
  shared::SPSInputBuffer in(reply->data(), reply->size());
  if (!shared::SPSArgList<shared::SPSExecutorAddr>::deserialize(in, address))
    return malformed(what, "the alloc service's reply of " +
                               Twine(reply->size()) +
                               " bytes is not an address");
  if (!address)
    return make_error<Refused>(this->address,
                               what + ": the executor could not allocate " +
                                   std::to_string(size) + " bytes",
                               "could not allocate " + std::to_string(size) +
                                   " bytes");
  return address;
}


Expected<std::vector<ExecutorClient::Impl::RemoteOutput>>
ExecutorClient::Impl::launchRemote(ExecutorAddr entry, const std::string &kernel,
                                   ArrayRef<DescriptorView> inputs,
                                   ArrayRef<int64_t> inputElementSizes,
                                   ArrayRef<int64_t> outputRanks,
                                   ArrayRef<int64_t> outputElementSizes,
                                   ArrayRef<bool> scalarInputs,
                                   ArrayRef<bool> scalarOutputs) {
  std::string what = "launch of " + kernel;
  if (!open)
    return closed();
  auto scalarIn = [&](size_t i) { return i < scalarInputs.size() && scalarInputs[i]; };
  auto scalarOut = [&](size_t i) { return i < scalarOutputs.size() && scalarOutputs[i]; };
  // The block: per input a descriptor and its data (dense, 16-aligned; a
  // scalar's data is its value), the argument array, then the results as
  // the wrapper writes them (a C struct of descriptors and scalars).
  size_t at = 0;
  std::vector<size_t> descAt(inputs.size()), dataAt(inputs.size()),
      dataBytes(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    descAt[i] = at;
    at = alignTo(at + DescriptorView::bytesFor(inputs[i].rank), kDataAlignment);
    dataAt[i] = at;
    dataBytes[i] = static_cast<size_t>(inputs[i].numElements() *
                                       inputElementSizes[i]);
    at = alignTo(at + dataBytes[i], kDataAlignment);
  }
  size_t argsAt = at;
  at += 8 * inputs.size();
  size_t resultsAt = at;
  std::vector<size_t> resultAt(outputRanks.size());
  size_t resultBytes = 0;
  for (size_t i = 0; i < outputRanks.size(); ++i) {
    size_t size = scalarOut(i) ? static_cast<size_t>(outputElementSizes[i])
                               : DescriptorView::bytesFor(outputRanks[i]);
    resultBytes = alignTo(resultBytes, scalarOut(i) ? size : 8);
    resultAt[i] = resultBytes;
    resultBytes += size;
  }
  at += alignTo(resultBytes, 8);
  size_t total = at;

  ExecutorAddr block;
  if (total > 0) {
    auto allocated = allocateRemote(total, what);
    if (!allocated)
      return allocated.takeError();
    block = *allocated;
    std::unique_ptr<char[]> staging(new char[total]());
    std::vector<int64_t> sizes;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const DescriptorView &in = inputs[i];
      gatherDense(in, inputElementSizes[i],
                  in.aligned() + in.offset() * inputElementSizes[i],
                  staging.get() + dataAt[i]);
      // A scalar's argument points at its value; a memref's at its
      // descriptor, which points at its data.
      uint64_t argument = (block + (scalarIn(i) ? dataAt[i] : descAt[i])).getValue();
      std::memcpy(staging.get() + argsAt + 8 * i, &argument, 8);
      if (scalarIn(i))
        continue;
      sizes.assign(static_cast<size_t>(in.rank), 0);
      for (int64_t d = 0; d < in.rank; ++d)
        sizes[d] = in.size(d);
      DescriptorView remote{staging.get() + descAt[i], in.rank};
      remote.setDense(nullptr, sizes.data());
      uint64_t data = (block + dataAt[i]).getValue();
      std::memcpy(staging.get() + descAt[i], &data, 8);
      std::memcpy(staging.get() + descAt[i] + 8, &data, 8);
    }
    if (Error err = es->getExecutorProcessControl().getMemoryAccess().writeBuffers(
            {tpctypes::BufferWrite{block, ArrayRef<char>(staging.get(), total)}}))
      return lost(what, toString(std::move(err)));
  }
  ExecutorAddr results = outputRanks.empty() ? ExecutorAddr() : block + resultsAt;
  ExecutorAddr arguments = inputs.empty() ? ExecutorAddr() : block + argsAt;
  std::vector<char> request =
      encode<shared::SPSExecutorAddr,
             shared::SPSSequence<shared::SPSExecutorAddr>>(
          entry, std::vector<ExecutorAddr>{results, arguments});
  auto invoked = callRemote(remoteInvoke, request, what);
  if (!invoked)
    return invoked.takeError();

  std::vector<RemoteOutput> outputs(outputRanks.size());
  // Frees what was malloc'ed for the outputs when they are not returned.
  auto dropOutputs = [&] {
    for (RemoteOutput &out : outputs)
      std::free(out.data);
  };
  if (!outputRanks.empty()) {
    MemoryAccess &memory = es->getExecutorProcessControl().getMemoryAccess();
    auto written =
        memory.readBuffers({ExecutorAddrRange(results, block + total)});
    if (!written)
      return lost(what, toString(written.takeError()));
    // Everything below is the executor's word: the descriptors its kernel
    // wrote and the bytes it sends for them are measured before use.
    uint64_t asked = total - resultsAt;
    if (written->size() != 1 || (*written)[0].size() != asked)
      return malformed(what, "the result descriptors came back as " +
                                 Twine(written->empty() ? 0 : (*written)[0].size()) +
                                 " bytes in " + Twine(written->size()) +
                                 " buffers, not the " + Twine(asked) +
                                 " bytes asked for");
    std::vector<uint8_t> &words = (*written)[0];
    std::vector<ExecutorAddrRange> ranges;
    std::vector<size_t> rangeOf(outputRanks.size(), ~size_t(0));
    std::vector<ResultReach> reach(outputRanks.size());
    std::set<uint64_t> kernelBuffers;
    for (size_t i = 0; i < outputRanks.size(); ++i) {
      int64_t elementSize = outputElementSizes[i];
      if (scalarOut(i))
        continue;
      DescriptorView view{words.data() + resultAt[i], outputRanks[i]};
      std::string problem = checkResultView(view, elementSize, reach[i]);
      if (!problem.empty())
        return malformed(what, "result " + Twine(i) + " (rank " +
                                   Twine(outputRanks[i]) + ", " +
                                   Twine(elementSize) +
                                   "-byte elements): " + problem);
      if (reach[i].readBytes) {
        rangeOf[i] = ranges.size();
        ranges.push_back(ExecutorAddrRange(
            ExecutorAddr(reach[i].start),
            ExecutorAddr(reach[i].start + reach[i].readBytes)));
      }
      // What the kernel allocated for its results: freed below (never a
      // global, marked 0xdeadbeef by MLIR, nor an input, which is in the
      // block).
      uint64_t allocated = reinterpret_cast<uint64_t>(view.allocated());
      if (allocated && allocated != 0xdeadbeef &&
          (allocated < block.getValue() ||
           allocated >= block.getValue() + total))
        kernelBuffers.insert(allocated);
    }
    std::vector<std::vector<uint8_t>> data;
    if (!ranges.empty()) {
      auto read = memory.readBuffers(ranges);
      if (!read)
        return lost(what, toString(read.takeError()));
      data = std::move(*read);
    }
    if (data.size() != ranges.size())
      return malformed(what, Twine(data.size()) + " buffers came back for " +
                                 Twine(ranges.size()) + " results");
    for (size_t i = 0; i < outputRanks.size(); ++i) {
      int64_t elementSize = outputElementSizes[i];
      RemoteOutput &out = outputs[i];
      if (scalarOut(i)) {
        out.bytes = static_cast<uint64_t>(elementSize);
        out.data = static_cast<char *>(std::malloc(out.bytes));
        std::memcpy(out.data, words.data() + resultAt[i], out.bytes);
        continue;
      }
      DescriptorView view{words.data() + resultAt[i], outputRanks[i]};
      const uint8_t *from = nullptr;
      if (rangeOf[i] != ~size_t(0)) {
        const std::vector<uint8_t> &bytes = data[rangeOf[i]];
        if (bytes.size() != reach[i].readBytes) {
          dropOutputs();
          return malformed(what, "result " + Twine(i) + "'s data came back as " +
                                     Twine(bytes.size()) + " bytes, not the " +
                                     Twine(reach[i].readBytes) +
                                     " its descriptor reaches");
        }
        from = bytes.data();
      }
      for (int64_t d = 0; d < view.rank; ++d)
        out.sizes.push_back(view.size(d));
      out.bytes = reach[i].denseBytes;
      out.data = static_cast<char *>(std::malloc(out.bytes ? out.bytes : 1));
      if (!out.data) {
        dropOutputs();
        return error(what + " failed: cannot allocate " +
                     std::to_string(out.bytes) + " bytes for result " +
                     std::to_string(i));
      }
      // The read bytes start at the first element the view reaches.
      if (from)
        gatherDense(view, elementSize, reinterpret_cast<const char *>(from),
                    out.data);
    }
    for (uint64_t buffer : kernelBuffers)
      releaseRemote(ExecutorAddr(buffer));
  }
  if (block)
    releaseRemote(block);
  return outputs;
}

Error ExecutorClient::Impl::linkOrcServices() {
  auto object =
      orcServicesObject(es->getExecutorProcessControl().getTargetTriple());
  if (!object)
    return object.takeError();
  JITDylib &jd = es->createBareJITDylib("<executor-studio ORC services>");
  jd.addToLinkOrder(*process);
  if (Error err = linker->add(jd, std::move(*object)))
    return err;
  auto found = es->lookup(
      makeJITDylibSearchOrder(&jd),
      SymbolLookupSet({es->intern("__executor_studio_orc_alloc"),
                       es->intern("__executor_studio_orc_free"),
                       es->intern("__executor_studio_orc_invoke")}));
  if (!found)
    return found.takeError();
  remoteAlloc = (*found)[es->intern("__executor_studio_orc_alloc")].getAddress();
  remoteFree = (*found)[es->intern("__executor_studio_orc_free")].getAddress();
  remoteInvoke =
      (*found)[es->intern("__executor_studio_orc_invoke")].getAddress();
  return Error::success();
}

ExecutorProcessControl &ExecutorClient::processControl() {
  return impl->es->getExecutorProcessControl();
}

Expected<uint64_t> ExecutorClient::bootstrapSymbol(const std::string &name) {
  ExecutorAddr address;
  if (Error err = processControl().getBootstrapSymbols({{address, name}}))
    return impl->error(toString(std::move(err)));
  return address.getValue();
}

Expected<uint64_t> ExecutorClient::entryAddress(const std::string &entry,
                                                const std::string &object) {
  auto address = impl->findEntry(pyfaceName(entry), object);
  if (!address)
    return address.takeError();
  return address->getValue();
}

Error ExecutorClient::close() {
  if (!impl || !impl->es)
    return Error::success();
  impl->open = false;
  // TcpTransport shuts the socket down on disconnect, so this returns even
  // when the server is gone.
  Error err = impl->es->endSession();
  impl->linker.reset();
  impl->es.reset();
  consumeError(std::move(err)); // the peer is gone by design
  return Error::success();
}

} // namespace executor_studio::runtime
