//===- ExecutorModel.cpp - the executor panel's state machine -------------===//
#include "StudioModel/ExecutorModel.h"

#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Errors.h"
#include "ExecutorRuntime/LocalExecutor.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/ExecutionEngine/Orc/Shared/TargetProcessControlTypes.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using executor_studio::runtime::ExecutorClient;
using executor_studio::runtime::HostMemRef;
using executor_studio::runtime::LocalExecutor;
using executor_studio::runtime::ResultSpec;

namespace executor_studio::gui {

namespace {
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// `err`'s text, and whether it ended the session (Errors.h: lost, closed,
/// or closed after a time-out).
std::string describe(llvm::Error err, bool &sessionLost) {
  sessionLost = executor_studio::runtime::endsSession(err);
  return llvm::toString(std::move(err));
}

/// The frames of a crashed kernel's error (left as it is, for describe).
std::vector<CrashFrameRow> crashFramesOf(llvm::Error &err) {
  std::vector<CrashFrameRow> rows;
  err = llvm::handleErrors(
      std::move(err),
      [&](std::unique_ptr<executor_studio::runtime::KernelCrashed> crashed) -> llvm::Error {
        for (const executor_studio::runtime::CrashFrame &f : crashed->frames) {
          CrashFrameRow row;
          row.text = f.describe();
          row.file = f.file;
          row.line = f.line;
          row.column = f.column;
          row.inKernel = f.inKernel;
          rows.push_back(std::move(row));
        }
        return llvm::Error(std::move(crashed));
      });
  return rows;
}

struct Command {
  enum class Kind {
    Connect,
    StartLocal,
    Disconnect,
    StopLocal,
    Launch,
    DebugLaunch,
    Shutdown
  };
  Kind kind = Kind::Shutdown;
  uint64_t epoch = 0;
  std::string address;
  uint64_t id = 0;
  LaunchRequest request;
};

struct Event {
  enum class Kind {
    Connected,
    ConnectFailed,
    LocalStarted,
    LocalFailed,
    LocalStopped,
    LaunchStarted,
    LaunchDone,
    LaunchFailed,
    /// A debug launch's session is open: its PID and where it runs.
    DebugSession,
    Log,
    CommandDone
  };
  Kind kind = Kind::Log;
  uint64_t epoch = 0;
  uint64_t id = 0;
  std::string text;
  bool error = false;
  bool sessionLost = false;
  double latencyMs = 0, shipMs = 0;
  std::vector<MemRefData> results;
  /// Connected: what kind of executor it is, and what a launch costs there.
  std::string kindName, kindSummary;
  /// Connected: the executor's triple.
  std::string triple;
  /// Connected: the session process's PID (0: not known).
  int64_t pid = 0;
  /// LaunchFailed: a crashed kernel's backtrace.
  std::vector<CrashFrameRow> frames;
  /// Of a debug launch (its own session: the panel's state stays).
  bool debug = false;
  /// DebugSession: on this host, and the session's executable there.
  bool local = false;
  std::string executable;
  /// DebugSession: with the model's executor --debug-wait (its log followed).
  bool ours = false;
};

/// The host of an executor address (`host:port`, `tcp://host:port`,
/// `tls://...`, `ssh://user@host...`), or "" for one on this host (a Unix
/// socket, loopback).
std::string remoteHostOf(const std::string &address) {
  std::string rest = address;
  if (rest.rfind("unix:", 0) == 0)
    return "";
  size_t scheme = rest.find("://");
  if (scheme != std::string::npos)
    rest = rest.substr(scheme + 3);
  if (size_t at = rest.find('@'); at != std::string::npos)
    rest = rest.substr(at + 1);
  std::string host;
  if (!rest.empty() && rest[0] == '[') {
    host = rest.substr(1, rest.find(']') - 1);
  } else {
    host = rest.substr(0, rest.find_first_of(":/"));
  }
  if (host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0)
    return "";
  return host;
}

/// `text` quoted for a POSIX shell when it needs to be.
std::string shellQuote(const std::string &text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-./=:@+,") ==
                           std::string::npos)
    return text;
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The executable of process `pid` of this host, or "".
std::string executableOf(int64_t pid) {
  char path[4096];
  std::string link = "/proc/" + std::to_string(pid) + "/exe";
  ssize_t n = ::readlink(link.c_str(), path, sizeof(path) - 1);
  if (n <= 0)
    return "";
  return std::string(path, static_cast<size_t>(n));
}

} // namespace

const char *stateName(ExecutorState state) {
  switch (state) {
  case ExecutorState::Disconnected:
    return "disconnected";
  case ExecutorState::Connecting:
    return "connecting";
  case ExecutorState::Connected:
    return "connected";
  case ExecutorState::Launching:
    return "launching";
  case ExecutorState::Error:
    return "error";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// The worker
//===----------------------------------------------------------------------===//

struct ExecutorModel::Worker {
  explicit Worker(ExecutorOptions options) : options(std::move(options)) {}

  ExecutorOptions options;
  std::string logPath;
  bool ownsLog = false;

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Command> commands;
  std::deque<Event> events;
  bool finished = false;
  std::condition_variable finishedCv;
  std::thread thread;

  // Owned by the worker thread.
  std::shared_ptr<ExecutorClient> client;
  uint64_t clientEpoch = 0;
  std::mutex localMutex; // the destructor may kill the local executor
  LocalExecutor local;
  /// The local executor-server --debug-wait of "Launch under debugger".
  LocalExecutor debugLocal;
  std::string debugLogPath;
  /// The debug launch's session (closed at shutdown: its launch may wait
  /// for a debugger for minutes).
  std::mutex debugMutex;
  std::shared_ptr<ExecutorClient> debugClient;
  struct AsyncLaunch {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::vector<AsyncLaunch> asyncLaunches;
  /// `() -> ()` kernels started with launch_async, awaited once no command
  /// is waiting: an await holds the executor session until its kernel ends,
  /// so launches issued together must all start before the first await.
  struct PendingAwait {
    uint64_t id, token, epoch;
    Clock::time_point start;
    double shipMs;
  };
  std::deque<PendingAwait> awaits;

  void post(Event event) {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back(std::move(event));
  }
  void log(uint64_t epoch, std::string text, bool error = false) {
    Event e;
    e.kind = Event::Kind::Log;
    e.epoch = epoch;
    e.text = std::move(text);
    e.error = error;
    post(std::move(e));
  }

  void run() {
    for (;;) {
      Command command;
      bool have = false;
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (awaits.empty())
          wake.wait(lock, [&] { return !commands.empty(); });
        else
          wake.wait_for(lock, std::chrono::milliseconds(100),
                        [&] { return !commands.empty(); });
        if (!commands.empty()) {
          command = std::move(commands.front());
          commands.pop_front();
          have = true;
        }
      }
      if (!have) {
        awaitOldest();
        continue;
      }
      reapAsync(false);
      bool stop = command.kind == Command::Kind::Shutdown;
      handle(command);
      Event done;
      done.kind = Event::Kind::CommandDone;
      done.epoch = command.epoch;
      post(std::move(done));
      if (stop)
        break;
    }
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
    finishedCv.notify_all();
  }

  void awaitOldest() {
    PendingAwait pending = awaits.front();
    awaits.pop_front();
    Event e;
    e.epoch = pending.epoch;
    e.id = pending.id;
    e.shipMs = pending.shipMs;
    if (!client || clientEpoch != pending.epoch) {
      e.kind = Event::Kind::LaunchFailed;
      e.text = "the session closed before the launch finished";
      post(std::move(e));
      return;
    }
    llvm::Error err = client->await(pending.token);
    e.latencyMs = millisecondsSince(pending.start);
    if (err) {
      e.kind = Event::Kind::LaunchFailed;
      e.text = describe(std::move(err), e.sessionLost);
    } else {
      e.kind = Event::Kind::LaunchDone;
    }
    post(std::move(e));
  }

  void failPendingAwaits(const std::string &why) {
    for (const PendingAwait &pending : awaits) {
      Event e;
      e.kind = Event::Kind::LaunchFailed;
      e.epoch = pending.epoch;
      e.id = pending.id;
      e.text = why;
      post(std::move(e));
    }
    awaits.clear();
  }

  void reapAsync(bool all) {
    for (auto it = asyncLaunches.begin(); it != asyncLaunches.end();) {
      if (all || it->done->load()) {
        it->thread.join();
        it = asyncLaunches.erase(it);
      } else {
        ++it;
      }
    }
  }

  void closeClient(uint64_t epoch, const char *why) {
    failPendingAwaits("the session closed before the launch finished");
    if (!client)
      return;
    std::string address = client->address();
    // Async launches hold their own reference: while they do, interrupting
    // ends their calls, and the last reference closes the session once they
    // are out (close() frees what their calls use).
    if (client.use_count() > 1)
      client->interrupt();
    else
      llvm::consumeError(client->close());
    client.reset();
    log(epoch, std::string("closed the session with ") + address + why);
  }

  void handle(Command &command) {
    switch (command.kind) {
    case Command::Kind::Connect:
      connect(command.epoch, command.address);
      return;
    case Command::Kind::StartLocal:
      startLocal(command.epoch);
      return;
    case Command::Kind::Disconnect:
      closeClient(command.epoch, "");
      return;
    case Command::Kind::StopLocal:
      stopLocal(command.epoch);
      return;
    case Command::Kind::Launch:
      launch(command);
      return;
    case Command::Kind::DebugLaunch:
      debugLaunch(command);
      return;
    case Command::Kind::Shutdown:
      closeClient(command.epoch, " (shutting down)");
      {
        // A debug launch may wait for a debugger: end its session first
        // (its thread, in the launch, closes the client when it is out).
        std::lock_guard<std::mutex> lock(debugMutex);
        if (debugClient)
          debugClient->interrupt();
      }
      {
        std::lock_guard<std::mutex> lock(localMutex);
        debugLocal.kill();
      }
      reapAsync(true);
      stopLocal(command.epoch);
      return;
    }
  }

  void connect(uint64_t epoch, const std::string &address) {
    closeClient(epoch, " (reconnecting)");
    log(epoch, "connecting to " + address);
    executor_studio::runtime::ClientOptions clientOptions;
    clientOptions.connectTimeout = options.connectTimeout;
    clientOptions.handshakeTimeout = options.handshakeTimeout;
    Clock::time_point start = Clock::now();
    // Both waits are bounded by ExecutorClient::open itself.
    auto opened = ExecutorClient::open(address, clientOptions);
    Event e;
    e.epoch = epoch;
    if (!opened) {
      e.kind = Event::Kind::ConnectFailed;
      e.text = llvm::toString(opened.takeError());
      post(std::move(e));
      return;
    }
    client = std::move(*opened);
    clientEpoch = epoch;
    char text[64];
    std::snprintf(text, sizeof(text), " in %.1f ms", millisecondsSince(start));
    e.kind = Event::Kind::Connected;
    e.text = address;
    e.latencyMs = millisecondsSince(start);
    e.kindName = executor_studio::runtime::executorKindName(client->executorKind());
    e.kindSummary = executor_studio::runtime::executorKindSummary(client->executorKind());
    e.triple = client->executorTriple();
    e.pid = client->sessionPid();
    std::string summary = e.kindSummary + ", " + e.triple;
    if (e.pid)
      summary += ", session pid " + std::to_string(e.pid);
    post(std::move(e));
    log(epoch, "session open with " + client->connectedAddress() + text + " (" +
                   summary + ")");
  }

  void startLocal(uint64_t epoch) {
    std::string address;
    {
      std::lock_guard<std::mutex> lock(localMutex);
      if (!local.running()) {
        std::string server = options.serverPath.empty()
                                 ? LocalExecutor::defaultServerPath()
                                 : options.serverPath;
        log(epoch, "starting " + server);
        // On this host: a Unix socket, buffers in shared memory.
        local.useUnixSocket(true);
        llvm::Error err = local.start(server, {}, logPath);
        if (err) {
          Event e;
          e.kind = Event::Kind::LocalFailed;
          e.epoch = epoch;
          e.text = "cannot start the local executor: " +
                   llvm::toString(std::move(err));
          post(std::move(e));
          return;
        }
        Event e;
        e.kind = Event::Kind::LocalStarted;
        e.epoch = epoch;
        e.text = local.address();
        post(std::move(e));
        log(epoch, "local executor listening on " + local.address() + " (pid " +
                       std::to_string(local.processId()) + ", log " + logPath + ")");
      }
      address = local.address();
    }
    connect(epoch, address);
  }

  void stopLocal(uint64_t epoch) {
    std::lock_guard<std::mutex> lock(localMutex);
    if (!local.running())
      return;
    if (client && client->connectedAddress() == local.address())
      closeClient(epoch, " (stopping the local executor)");
    local.stop();
    Event e;
    e.kind = Event::Kind::LocalStopped;
    e.epoch = epoch;
    post(std::move(e));
    log(epoch, "local executor stopped");
  }

  /// The request's inputs for the client; scalars go by pointer (the
  /// client's launch takes them so on every kind of executor).
  static std::vector<HostMemRef> toHost(const LaunchRequest &request) {
    std::vector<HostMemRef> out;
    out.reserve(request.inputs.size());
    for (size_t i = 0; i < request.inputs.size(); ++i) {
      const MemRefData &d = request.inputs[i];
      HostMemRef h;
      h.sizes = d.sizes;
      h.elementSize = d.elementSize;
      h.bytes = d.bytes;
      h.scalar = i < request.inputTypes.size() && request.inputTypes[i].scalar;
      out.push_back(std::move(h));
    }
    return out;
  }
  static std::vector<ResultSpec> specs(const std::vector<ShapedArg> &results) {
    std::vector<ResultSpec> out;
    for (const ShapedArg &r : results)
      out.push_back({static_cast<int64_t>(r.shape.size()), r.element.size, r.scalar});
    return out;
  }

  /// Runs one launch on `session`; posts its result.
  static void runLaunch(Worker *self, std::shared_ptr<ExecutorClient> session,
                        uint64_t epoch, uint64_t id, const LaunchRequest &request,
                        double shipMs, bool debug = false) {
    Event started;
    started.kind = Event::Kind::LaunchStarted;
    started.epoch = epoch;
    started.id = id;
    started.debug = debug;
    self->post(std::move(started));
    Event e;
    e.epoch = epoch;
    e.id = id;
    e.shipMs = shipMs;
    e.debug = debug;
    Clock::time_point start = Clock::now();
    {
      auto out = session->launch(request.entry, request.object, toHost(request),
                                 specs(request.results));
      e.latencyMs = millisecondsSince(start);
      if (!out) {
        e.kind = Event::Kind::LaunchFailed;
        llvm::Error err = out.takeError();
        e.frames = crashFramesOf(err);
        e.text = describe(std::move(err), e.sessionLost);
      } else {
        e.kind = Event::Kind::LaunchDone;
        for (HostMemRef &h : *out) {
          MemRefData d;
          d.sizes = std::move(h.sizes);
          d.elementSize = h.elementSize;
          d.bytes = std::move(h.bytes);
          e.results.push_back(std::move(d));
        }
      }
    }
    self->post(std::move(e));
  }

  /// "Launch under debugger": a new session (with the connected remote
  /// executor, else with the local executor-server --debug-wait, started
  /// once), on a thread of its own: its launch waits for a debugger.
  void debugLaunch(Command &command) {
    uint64_t epoch = command.epoch, id = command.id;
    auto fail = [this, epoch, id](std::string message) {
      Event e;
      e.kind = Event::Kind::LaunchFailed;
      e.epoch = epoch;
      e.id = id;
      e.debug = true;
      e.text = std::move(message);
      post(std::move(e));
    };
    // The connected executor when it is not the panel's own local one.
    std::string address;
    if (client && clientEpoch == command.epoch &&
        client->connectedAddress() != local.address())
      address = client->address();
    bool ours = address.empty();
    if (ours) {
      std::lock_guard<std::mutex> lock(localMutex);
      if (!debugLocal.running()) {
        std::string server = options.serverPath.empty()
                                 ? LocalExecutor::defaultServerPath()
                                 : options.serverPath;
        log(epoch, "starting " + server + " --debug-wait");
        debugLocal.useUnixSocket(true);
        if (llvm::Error err = debugLocal.start(server, {"--debug-wait"}, debugLogPath)) {
          fail("cannot start the local executor for debugging: " +
               llvm::toString(std::move(err)));
          return;
        }
        log(epoch, "local executor for debugging listening on " +
                       debugLocal.address() + " (pid " +
                       std::to_string(debugLocal.processId()) + ", --debug-wait, log " +
                       debugLogPath + ")");
      }
      address = debugLocal.address();
    }
    struct stat st {};
    if (::stat(command.request.object.c_str(), &st) != 0) {
      fail("object " + command.request.object +
           " does not exist: record the default pipeline (it runs "
           "cross-compile-targets) to build it");
      return;
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    LaunchRequest request = command.request;
    Clock::duration connect = options.connectTimeout,
                    handshake = options.handshakeTimeout;
    asyncLaunches.push_back(
        {std::thread([this, address, ours, request, epoch, id, done, fail,
                      connect, handshake] {
           runDebugLaunch(address, ours, request, epoch, id, fail,
                          std::chrono::duration_cast<std::chrono::milliseconds>(connect),
                          std::chrono::duration_cast<std::chrono::milliseconds>(handshake));
           done->store(true);
         }),
         done});
  }

  template <typename Fail>
  void runDebugLaunch(const std::string &address, bool ours,
                      const LaunchRequest &request, uint64_t epoch, uint64_t id,
                      const Fail &fail, std::chrono::milliseconds connectTimeout,
                      std::chrono::milliseconds handshakeTimeout) {
    executor_studio::runtime::ClientOptions clientOptions;
    clientOptions.connectTimeout = connectTimeout;
    clientOptions.handshakeTimeout = handshakeTimeout;
    // Both waits are bounded by ExecutorClient::open itself.
    auto opened = ExecutorClient::open(address, clientOptions);
    if (!opened) {
      fail("cannot open a session for the debugger with " + address + ": " +
           llvm::toString(opened.takeError()));
      return;
    }
    std::shared_ptr<ExecutorClient> session = std::move(*opened);
    {
      std::lock_guard<std::mutex> lock(debugMutex);
      debugClient = session;
    }
    Event opened_;
    opened_.kind = Event::Kind::DebugSession;
    opened_.epoch = epoch;
    opened_.id = id;
    opened_.debug = true;
    opened_.text = address;
    opened_.pid = session->sessionPid();
    opened_.ours = ours;
    opened_.local = ours || remoteHostOf(address).empty();
    if (opened_.local && opened_.pid)
      opened_.executable = executableOf(opened_.pid);
    post(std::move(opened_));
    double shipMs = 0;
    Clock::time_point start = Clock::now();
    if (llvm::Error err = session->sendBinary(request.object)) {
      fail(llvm::toString(std::move(err)));
    } else {
      shipMs = millisecondsSince(start);
      // The session's first launch: it waits for the debugger.
      runLaunch(this, session, epoch, id, request, shipMs, /*debug=*/true);
    }
    std::lock_guard<std::mutex> lock(debugMutex);
    llvm::consumeError(session->close());
    debugClient.reset();
  }

  void launch(Command &command) {
    auto fail = [&](std::string message, bool sessionLost) {
      Event e;
      e.kind = Event::Kind::LaunchFailed;
      e.epoch = command.epoch;
      e.id = command.id;
      e.text = std::move(message);
      e.sessionLost = sessionLost;
      post(std::move(e));
    };
    if (!client || clientEpoch != command.epoch) {
      fail("no session: connect to an executor first", false);
      return;
    }
    const LaunchRequest &request = command.request;
    double shipMs = 0;
    if (!client->hasObject(request.object)) {
      struct stat st {};
      if (::stat(request.object.c_str(), &st) != 0) {
        fail("object " + request.object +
                 " does not exist: record the default pipeline (it runs "
                 "cross-compile-targets) to build it",
             false);
        return;
      }
      Clock::time_point start = Clock::now();
      if (llvm::Error err = client->sendBinary(request.object)) {
        bool lost = false;
        std::string message = describe(std::move(err), lost);
        fail(message, lost);
        return;
      }
      shipMs = millisecondsSince(start);
      char text[64];
      std::snprintf(text, sizeof(text), " in %.1f ms", shipMs);
      log(command.epoch, "shipped " + request.object + " (" +
                             std::to_string(st.st_size) + " bytes)" + text);
    }
    if (!request.async) {
      runLaunch(this, client, command.epoch, command.id, request, shipMs);
      return;
    }
    if (request.inputs.empty() && request.results.empty()) {
      // The executor's own asynchronous launch: start it now, await later.
      Clock::time_point start = Clock::now();
      auto token = client->launchAsync(request.entry, request.object);
      if (!token) {
        bool lost = false;
        std::string message = describe(token.takeError(), lost);
        fail(message, lost);
        return;
      }
      Event started;
      started.kind = Event::Kind::LaunchStarted;
      started.epoch = command.epoch;
      started.id = command.id;
      post(std::move(started));
      awaits.push_back({command.id, *token, command.epoch, start, shipMs});
      return;
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<ExecutorClient> session = client;
    uint64_t epoch = command.epoch, id = command.id;
    LaunchRequest copy = request;
    asyncLaunches.push_back(
        {std::thread([this, session, epoch, id, copy, shipMs, done] {
           runLaunch(this, session, epoch, id, copy, shipMs);
           done->store(true);
         }),
         done});
  }
};

//===----------------------------------------------------------------------===//
// The UI side
//===----------------------------------------------------------------------===//

ExecutorModel::ExecutorModel(ExecutorOptions options)
    : worker(std::make_unique<Worker>(std::move(options))),
      started(Clock::now()), lastTail(Clock::now()) {
  worker->logPath = worker->options.serverLogPath;
  if (worker->logPath.empty()) {
    static std::atomic<unsigned> counter{0};
    const char *tmp = std::getenv("TMPDIR");
    worker->logPath = std::string(tmp && *tmp ? tmp : "/tmp") +
                      "/executor-studio-server-" + std::to_string(::getpid()) +
                      "-" + std::to_string(counter++) + ".log";
    worker->ownsLog = true;
  }
  worker->debugLogPath = worker->logPath + ".debug";
  Worker *w = worker.get();
  worker->thread = std::thread([w] { w->run(); });
}

ExecutorModel::~ExecutorModel() {
  {
    std::lock_guard<std::mutex> lock(worker->mutex);
    Command c;
    c.kind = Command::Kind::Shutdown;
    c.epoch = ++epoch;
    worker->commands.push_back(std::move(c));
  }
  worker->wake.notify_one();
  {
    std::unique_lock<std::mutex> lock(worker->mutex);
    if (!worker->finishedCv.wait_for(lock, std::chrono::seconds(5),
                                     [&] { return worker->finished; })) {
      // A launch does not return: end the local executor under it, so the
      // session fails and the worker gets to the shutdown.
      lock.unlock();
      std::lock_guard<std::mutex> localLock(worker->localMutex);
      worker->local.kill();
      worker->debugLocal.kill();
    }
  }
  worker->thread.join();
  if (worker->ownsLog)
    std::remove(worker->logPath.c_str());
  if (worker->ownsLog)
    std::remove(worker->debugLogPath.c_str());
}

const std::string &ExecutorModel::localLogPath() const { return worker->logPath; }

const char *debugPhaseName(DebugLaunch::Phase phase) {
  switch (phase) {
  case DebugLaunch::Phase::None:
    return "none";
  case DebugLaunch::Phase::Starting:
    return "starting";
  case DebugLaunch::Phase::Waiting:
    return "waiting for a debugger";
  case DebugLaunch::Phase::Attached:
    return "attached";
  case DebugLaunch::Phase::Finished:
    return "finished";
  }
  return "?";
}

std::string gdbAttachCommand(int64_t pid, const std::string &executable,
                             const std::string &entry) {
  std::string command = "gdb -q";
  if (!executable.empty())
    command += " " + shellQuote(executable);
  command += " -p " + std::to_string(pid);
  if (!entry.empty())
    command += " -ex " + shellQuote("break " + entry);
  return command + " -ex continue";
}

std::string lldbAttachCommand(int64_t pid, const std::string &executable,
                              const std::string &entry, const std::string &lldb) {
  std::string command = lldb;
  if (!executable.empty())
    command += " " + shellQuote(executable);
  command += " -p " + std::to_string(pid);
  // The session's PID namespace makes lldb take its own thread stops for
  // the program's SIGSTOPs (docs/debugging.md; the extension's
  // SIGSTOP_COMMAND): once attached, SIGSTOP neither stops nor passes.
  command += " -o " + shellQuote("process handle SIGSTOP -s false -n false -p false");
  if (!entry.empty())
    command += " -o " + shellQuote("breakpoint set --name " + entry);
  return command + " -o continue";
}

std::string ExecutorModel::gdbCommand() const {
  return pid ? "gdb -p " + std::to_string(pid) : std::string();
}

void ExecutorModel::addLog(LogEntry::Level level, std::string text) {
  LogEntry entry;
  entry.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  entry.level = level;
  entry.text = std::move(text);
  logLines.push_back(std::move(entry));
  while (logLines.size() > 2000)
    logLines.pop_front();
  ++logGen;
}

namespace {
void postCommand(ExecutorModel::Worker &worker, Command command);
} // namespace

void ExecutorModel::connect(const std::string &address) {
  if (address.empty()) {
    current = ExecutorState::Error;
    lastError = "give an address (host:port) or start a local executor";
    addLog(LogEntry::Level::Error, lastError);
    return;
  }
  current = ExecutorState::Connecting;
  lastError.clear();
  sessionAddress = address;
  Command c;
  c.kind = Command::Kind::Connect;
  c.epoch = ++epoch;
  c.address = address;
  ++pendingCommands;
  postCommand(*worker, std::move(c));
}

void ExecutorModel::startLocal() {
  current = ExecutorState::Connecting;
  lastError.clear();
  sessionAddress = localListening.empty() ? "local executor" : localListening;
  Command c;
  c.kind = Command::Kind::StartLocal;
  c.epoch = ++epoch;
  ++pendingCommands;
  postCommand(*worker, std::move(c));
}

void ExecutorModel::disconnect() {
  current = ExecutorState::Disconnected;
  pid = 0;
  lastError.clear();
  Command c;
  c.kind = Command::Kind::Disconnect;
  c.epoch = ++epoch;
  ++pendingCommands;
  postCommand(*worker, std::move(c));
}

void ExecutorModel::stopLocal() {
  Command c;
  c.kind = Command::Kind::StopLocal;
  c.epoch = epoch; // the session survives unless it is with this executor
  ++pendingCommands;
  postCommand(*worker, std::move(c));
}

namespace {
/// lldb on this host's PATH (`lldb`, else Debian's `lldb-22`).
std::string localLldb() {
  for (const char *name : {"lldb", "lldb-22"})
    if (llvm::sys::findProgramByName(name))
      return name;
  return "lldb";
}
} // namespace

uint64_t ExecutorModel::launchUnderDebugger(LaunchRequest request) {
  if (!canLaunchUnderDebugger()) {
    addLog(LogEntry::Level::Error,
           "cannot launch " + request.label + " under a debugger: launch #" +
               std::to_string(debugging.launchId) +
               " is still under one (attach, or let it finish)");
    return 0;
  }
  request.async = false;
  uint64_t id = recordLaunch(request, /*debug=*/true);
  debugging = DebugLaunch();
  debugging.phase = DebugLaunch::Phase::Starting;
  debugging.launchId = id;
  debugging.entry = request.entry;
  postLaunch(id, std::move(request), /*debug=*/true);
  return id;
}

uint64_t ExecutorModel::recordLaunch(const LaunchRequest &request, bool debug) {
  LaunchRecord record;
  record.id = nextLaunch++;
  record.label = request.label;
  record.async = request.async;
  record.debug = debug;
  record.resultTypes = request.results;
  record.inputs = request.inputs;
  record.inputTypes = request.inputTypes;
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    if (i)
      record.inputsSummary += ", ";
    record.inputsSummary += formatShape(request.inputs[i].sizes);
  }
  records.push_back(record);
  addLog(LogEntry::Level::Info, "launch #" + std::to_string(record.id) + " " +
                                    record.label +
                                    (debug           ? " under a debugger"
                                     : request.async ? " (async)"
                                                     : ""));
  return record.id;
}

void ExecutorModel::postLaunch(uint64_t id, LaunchRequest request, bool debug) {
  Command c;
  c.kind = debug ? Command::Kind::DebugLaunch : Command::Kind::Launch;
  c.epoch = epoch;
  c.id = id;
  c.request = std::move(request);
  ++pendingCommands;
  ++inFlight;
  postCommand(*worker, std::move(c));
}

uint64_t ExecutorModel::launch(LaunchRequest request) {
  if (!canLaunch()) {
    addLog(LogEntry::Level::Error,
           "cannot launch " + request.label + ": the executor is " +
               stateName(current) + "; connect first");
    return 0;
  }
  uint64_t id = recordLaunch(request, /*debug=*/false);
  current = ExecutorState::Launching;
  postLaunch(id, std::move(request), /*debug=*/false);
  return id;
}

namespace {
void postCommand(ExecutorModel::Worker &worker, Command command) {
  {
    std::lock_guard<std::mutex> lock(worker.mutex);
    worker.commands.push_back(std::move(command));
  }
  worker.wake.notify_one();
}
} // namespace

const LaunchRecord *ExecutorModel::findLaunch(uint64_t id) const {
  for (const LaunchRecord &r : records)
    if (r.id == id)
      return &r;
  return nullptr;
}

void ExecutorModel::clearLaunches() {
  records.erase(std::remove_if(records.begin(), records.end(),
                               [](const LaunchRecord &r) {
                                 return r.status == LaunchRecord::Status::Done ||
                                        r.status == LaunchRecord::Status::Failed;
                               }),
                records.end());
}

bool ExecutorModel::busy() const { return pendingCommands > 0 || inFlight > 0; }

std::vector<std::string> ExecutorModel::tailLog(const std::string &path,
                                               uint64_t &offset,
                                               std::string &partial) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return lines;
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0 || static_cast<uint64_t>(size) <= offset)
    return lines;
  in.seekg(static_cast<std::streamoff>(offset));
  std::string chunk(static_cast<size_t>(size) - offset, '\0');
  in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  offset = static_cast<uint64_t>(size);
  partial += chunk;
  size_t at;
  while ((at = partial.find('\n')) != std::string::npos) {
    std::string line = partial.substr(0, at);
    partial.erase(0, at + 1);
    if (!line.empty()) {
      addLog(LogEntry::Level::Server, line);
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

void ExecutorModel::tailServerLog() {
  if (!localListening.empty() || serverLogOffset != 0)
    tailLog(worker->logPath, serverLogOffset, serverLogPartial);
  // The local executor --debug-wait's: its session says when it waits for
  // a debugger and when one is attached (CrashReport.cpp's waitForDebugger).
  if (debugging.phase == DebugLaunch::Phase::None)
    return;
  for (const std::string &line :
       tailLog(worker->debugLogPath, debugLogOffset, debugLogPartial)) {
    if (debugging.phase == DebugLaunch::Phase::Finished || !debugging.followsLog)
      continue;
    std::string pidText = "pid " + std::to_string(debugging.pid) + ";";
    if (line.find("waiting for a debugger before launching") != std::string::npos &&
        line.find(pidText) != std::string::npos)
      debugging.phase = DebugLaunch::Phase::Waiting;
    else if (line.find("a debugger is attached") != std::string::npos &&
             debugging.phase == DebugLaunch::Phase::Waiting)
      debugging.phase = DebugLaunch::Phase::Attached;
    else if (line.find("no debugger came; launching") != std::string::npos &&
             debugging.phase == DebugLaunch::Phase::Waiting)
      debugging.noDebugger = true;
  }
}

void ExecutorModel::drain() {
  std::deque<Event> events;
  {
    std::lock_guard<std::mutex> lock(worker->mutex);
    events.swap(worker->events);
  }
  for (Event &e : events) {
    bool currentSession = e.epoch == epoch;
    switch (e.kind) {
    case Event::Kind::CommandDone:
      --pendingCommands;
      break;
    case Event::Kind::Log:
      addLog(e.error ? LogEntry::Level::Error : LogEntry::Level::Info,
             std::move(e.text));
      break;
    case Event::Kind::Connected:
      if (currentSession) {
        current = inFlight > 0 ? ExecutorState::Launching : ExecutorState::Connected;
        sessionAddress = e.text;
        kindName = std::move(e.kindName);
        kindSummary = std::move(e.kindSummary);
        tripleName = std::move(e.triple);
        pid = e.pid;
        lastError.clear();
      }
      break;
    case Event::Kind::ConnectFailed:
      addLog(LogEntry::Level::Error, e.text);
      if (currentSession) {
        current = ExecutorState::Error;
        lastError = e.text;
      }
      break;
    case Event::Kind::LocalStarted:
      localListening = e.text;
      if (currentSession)
        sessionAddress = e.text;
      break;
    case Event::Kind::LocalFailed:
      addLog(LogEntry::Level::Error, e.text);
      if (currentSession) {
        current = ExecutorState::Error;
        lastError = e.text;
      }
      break;
    case Event::Kind::LocalStopped:
      tailServerLog();
      if (sessionAddress == localListening &&
          (current == ExecutorState::Connected ||
           current == ExecutorState::Launching)) {
        current = ExecutorState::Disconnected;
      }
      localListening.clear();
      break;
    case Event::Kind::DebugSession:
      if (debugging.launchId == e.id) {
        debugging.address = e.text;
        debugging.local = e.local;
        debugging.followsLog = e.ours;
        debugging.host = e.local ? "" : remoteHostOf(e.text);
        debugging.pid = e.pid;
        debugging.executable = e.executable;
        if (e.pid) {
          debugging.gdbCommand =
              gdbAttachCommand(e.pid, debugging.executable, debugging.entry);
          debugging.lldbCommand =
              lldbAttachCommand(e.pid, debugging.executable, debugging.entry,
                                e.local ? localLldb() : "lldb");
        }
        std::string where = e.local ? "on this host" : "on " + debugging.host;
        addLog(LogEntry::Level::Info,
               "launch #" + std::to_string(e.id) + ": session pid " +
                   std::to_string(e.pid) + " " + where +
                   " waits for a debugger; attach with:");
        addLog(LogEntry::Level::Info, "  " + debugging.gdbCommand);
        addLog(LogEntry::Level::Info, "  " + debugging.lldbCommand);
      }
      break;
    case Event::Kind::LaunchStarted:
      if (e.debug && debugging.launchId == e.id && !debugging.followsLog)
        // No log to follow: the launch is in flight, and waits if that
        // executor runs with --debug-wait.
        debugging.phase = DebugLaunch::Phase::Waiting;
      for (LaunchRecord &r : records)
        if (r.id == e.id && r.status == LaunchRecord::Status::Queued)
          r.status = LaunchRecord::Status::Running;
      break;
    case Event::Kind::LaunchDone:
    case Event::Kind::LaunchFailed: {
      --inFlight;
      bool ok = e.kind == Event::Kind::LaunchDone;
      for (LaunchRecord &r : records) {
        if (r.id != e.id)
          continue;
        r.status = ok ? LaunchRecord::Status::Done : LaunchRecord::Status::Failed;
        r.latencyMs = e.latencyMs;
        r.shipMs = e.shipMs;
        r.results = std::move(e.results);
        r.error = e.text;
        r.crashFrames = std::move(e.frames);
        char text[96];
        std::snprintf(text, sizeof(text), " in %.3f ms", e.latencyMs);
        if (ok)
          addLog(LogEntry::Level::Info,
                 "launch #" + std::to_string(r.id) + " " + r.label + " done" + text);
        else
          addLog(LogEntry::Level::Error,
                 "launch #" + std::to_string(r.id) + " " + r.label +
                     " failed: " + r.error);
      }
      if (e.debug) {
        if (debugging.launchId == e.id) {
          tailServerLog(); // the executor's last words on the wait
          debugging.phase = DebugLaunch::Phase::Finished;
        }
        break; // its own session: the panel's stays as it is
      }
      if (!currentSession)
        break;
      if (e.sessionLost) {
        current = ExecutorState::Error;
        pid = 0;
        // (A crash's frames are in the launch's record and the log.)
        lastError = e.text.substr(0, e.text.find('\n')) +
                    "; connect again for a new session";
      } else if (current == ExecutorState::Launching && inFlight == 0) {
        current = ExecutorState::Connected;
      }
      break;
    }
    }
  }
  if (Clock::now() - lastTail > std::chrono::milliseconds(200)) {
    lastTail = Clock::now();
    tailServerLog();
  }
}

bool ExecutorModel::waitIdle(std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    drain();
    if (!busy())
      break;
    if (Clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  lastTail = Clock::time_point();
  drain(); // the server's last log lines
  return true;
}

} // namespace executor_studio::gui
