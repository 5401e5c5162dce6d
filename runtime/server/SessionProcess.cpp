//===- SessionProcess.cpp - what a session process runs -------------------===//
//
// One session, in the process forked for it: ORC's SimpleRemoteEPCServer
// with this project's and Catalyst's services, its calls on a pool of
// threads, until the client goes (SessionProcess.h).
//
//===----------------------------------------------------------------------===//
#include "SessionProcess.h"

#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/Wire.h"
#include "AssetService.h"
#include "CatalystServices.h"
#include "CrashReport.h"
#include "DebugSupport.h"
#include "KernelHeap.h"
#include "LaunchService.h"
#include "Limits.h"
#include "Sandbox.h"

#include "llvm/ExecutionEngine/Orc/TargetProcess/SimpleExecutorMemoryManager.h"
#include "llvm/Support/Error.h"

#include <condition_variable>
#include <deque>
#include <malloc.h>
#include <mutex>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

namespace {
/// Runs wrapper calls on a pool of threads that stay alive between calls
/// (ORC's ThreadDispatcher starts a thread per call). A call never waits
/// for a busy thread: when every worker is busy a new one starts, so an
/// await that blocks never holds up the launches that follow it.
class PoolDispatcher : public SimpleRemoteEPCServer::Dispatcher {
public:
  void dispatch(unique_function<void()> work) override {
    markSessionStarted(); // the client's first call ends the handshake
    std::lock_guard<std::mutex> lock(mutex);
    // Counted until it is done, its reply sent (a stopping session waits).
    queue.push_back([serving = std::make_unique<CallInFlight>(),
                     work = std::move(work)]() mutable { work(); });
    ++outstanding;
    if (queue.size() > idle) {
      std::string error;
      if (startThread([this] { run(); }, error))
        ++workers;
      else if (workers == 0)
        endSessionWithError(error + " for a call");
      // else: a busy worker takes it when it is done.
    } else {
      wake.notify_one();
    }
  }

  void shutdown() override {
    std::unique_lock<std::mutex> lock(mutex);
    running = false;
    wake.notify_all();
    // The client has gone: a kernel still running after a moment ends the
    // session (nobody waits for its results). Direct calls run on the
    // transport's threads, not here: the table of running kernels counts
    // them.
    std::string kernel;
    int64_t ran = 0;
    auto quiet = [&] {
      return outstanding == 0 && !longestRunningKernel(kernel, ran);
    };
    auto giveUp = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(500);
    while (!quiet() && std::chrono::steady_clock::now() < giveUp)
      done.wait_for(lock, std::chrono::milliseconds(10));
    if (!quiet()) {
      logEvent("the client has gone while " +
               (longestRunningKernel(kernel, ran) ? "kernel " + kernel
                                                  : std::string("a call")) +
               " still runs: ending the session");
      exitSession(0);
    }
    exited.wait(lock, [&] { return workers == 0; });
  }

private:
  void run() {
    KernelThreadStack stack; // kernels run on this thread
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      ++idle;
      wake.wait(lock, [&] { return !queue.empty() || !running; });
      --idle;
      if (queue.empty()) {
        if (--workers == 0)
          exited.notify_all();
        return;
      }
      unique_function<void()> work = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      work();
      lock.lock();
      if (--outstanding == 0)
        done.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, done, exited;
  std::deque<unique_function<void()>> queue;
  size_t workers = 0; // detached (startThread): they may fail to start
  size_t idle = 0, outstanding = 0;
  bool running = true;
};

/// The session's PID (kSessionPidAddressSymbol): set in the session.
uint64_t aheadSessionPid = 0;

/// A session's dispatcher, bootstrap symbols and services (Service.h):
/// each publishes its own bootstrap symbols when the server asks it.
void addSessionServices(SimpleRemoteEPCServer::Setup &s, bool kernelHeap) {
  s.setDispatcher(std::make_unique<PoolDispatcher>());
  s.bootstrapSymbols() = SimpleRemoteEPCServer::defaultBootstrapSymbols();
  auto &services = s.services();
  services.push_back(makeDebugSupportService());
  if (publishOurs) {
    services.push_back(makeLaunchService());
    services.push_back(makeAssetService());
    if (kernelHeap)
      services.push_back(makeKernelHeapService());
  }
  if (publishCatalyst)
    services.push_back(makeCatalystServices());
  services.push_back(
      std::make_unique<rt_bootstrap::SimpleExecutorMemoryManager>());
}

} // namespace

bool publishOurs = true, publishCatalyst = true;
bool useKernelHeap = true;
SimpleRemoteEPCServer *unservedAtExit[2];

std::string prepareAheadServer(AheadServer &ahead, bool kernelHeap) {
  ahead.kernelHeap = kernelHeap;
  auto server = SimpleRemoteEPCServer::Create<SetupAhead>(
      [&](SimpleRemoteEPCServer::Setup &s) -> Error {
        addSessionServices(s, kernelHeap);
        s.bootstrapSymbols()[kSessionPidAddressSymbol] =
            ExecutorAddr::fromPtr(&aheadSessionPid);
        return Error::success();
      },
      &ahead.transport);
  if (!server)
    return toString(server.takeError());
  ahead.server = std::move(*server);
  if (ahead.transport->setupFrame().empty())
    return "no Setup message was made";
  return "";
}

namespace {
/// What every session process does before it serves: its heap's habits,
/// Catalyst's runtime, the kernel heap when `kernelHeap` (false when it
/// cannot start, and the log says why), its address-space limit.
bool prepareSessionProcess(uint64_t memoryLimit, bool kernelHeap) {
  // Large launches move tens of MiB per call through buffers that are freed
  // right after (the transport's message, the kernel's results, the reply).
  // glibc would hand each back to the kernel with munmap and fault every
  // page in again on the next call; keeping them in the heap for reuse makes
  // big transfers several times faster. The session's memory stays at its
  // peak, and is returned when the session ends.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1); // thread arenas cap out at 64 MiB and mmap the rest
  if (publishCatalyst)
    startCatalystRuntime();
  // Kernels' large results in shared memory the client maps (as large as
  // the session's memory limit at most: RLIMIT_DATA does not count it).
  std::string heapProblem;
  if (kernelHeap && !startKernelHeap(memoryLimit, heapProblem)) {
    logEvent("results are copied: " + heapProblem);
    kernelHeap = false;
  }
  // The address space, the kernel heap's included: it counts what
  // RLIMIT_DATA does not (MAP_SHARED mappings).
  if (std::string problem = limitSessionAddressSpace(memoryLimit);
      !problem.empty())
    logEvent("error: " + problem);
  return kernelHeap;
}

/// After the client went (`err`: how): the transport goes after this, so
/// first the watchdog, whose hangups send on it, and the crash reports.
int finishSession(Error err) {
  stopSessionWatchdog();
  stopCrashReports();
  if (publishCatalyst)
    stopCatalystRuntime();
  if (!err)
    return 0;
  std::string refusal = StreamTransport::lastRefusal();
  logEvent("error: " + (refusal.empty() ? toString(std::move(err))
                                        : (consumeError(std::move(err)),
                                           refusal)));
  return 1;
}

/// A session that could not start serving: `problem` logged.
int sessionNotStarted(const std::string &problem) {
  logEvent("error: " + problem);
  stopCrashReports();
  return 1;
}
} // namespace

int serveSession(std::unique_ptr<Stream> stream, uint64_t memoryLimit) {
  bool kernelHeap = prepareSessionProcess(
      memoryLimit, stream->passesDescriptors() && publishOurs && useKernelHeap);
  StreamTransport *transport = nullptr;
  StreamTransport::Options options;
  options.executorSide = true;
  if (publishOurs)
    options.directHandler = serveDirectCall;
  auto setup = [&](SimpleRemoteEPCServer::Setup &s) -> Error {
    addSessionServices(s, kernelHeap);
    s.bootstrapSymbols()[kSessionPidSymbol] =
        ExecutorAddr(static_cast<uint64_t>(sessionHostPid()));
    return Error::success();
  };
  installCrashReports(&transport);
  auto server = SimpleRemoteEPCServer::Create<StreamTransport>(
      setup, std::move(stream), &transport, std::move(options));
  if (!server) {
    std::string error = toString(server.takeError());
    std::string refusal = StreamTransport::lastRefusal();
    return sessionNotStarted(refusal.empty() ? error : refusal);
  }
  return finishSession((*server)->waitForDisconnect());
}

int serveAheadSession(std::unique_ptr<Stream> stream, AheadServer &ahead,
                      uint64_t memoryLimit) {
  prepareSessionProcess(memoryLimit, ahead.kernelHeap);
  aheadSessionPid = static_cast<uint64_t>(sessionHostPid());
  StreamTransport *transport = nullptr;
  installCrashReports(&transport);
  StreamTransport::Options options;
  options.executorSide = true;
  options.setupSent = true;
  if (publishOurs)
    options.directHandler = serveDirectCall;
  auto created = StreamTransport::Create(ahead.transport->client(),
                                      std::move(stream), &transport,
                                      std::move(options));
  if (!created)
    return sessionNotStarted(toString(created.takeError()));
  ahead.transport->attach(std::move(*created));
  if (Error err = transport->start())
    return sessionNotStarted(toString(std::move(err)));
  return finishSession(ahead.server->waitForDisconnect());
}

} // namespace executor_studio::runtime
