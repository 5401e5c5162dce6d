//===- ExecutorModel.h - the executor panel's state machine -----*- C++ -*-===//
//
// One ExecutorClient session, driven from the UI thread without blocking
// it: commands go to a worker thread that owns the client (and the local
// executor-server, when the panel started one); the worker posts events to
// a queue that drain() applies once a frame.
//
//   Disconnected --connect--> Connecting --ok--> Connected --launch--> Launching
//        ^                        |                  ^                    |
//        |                     failed                +---- all done ------+
//        +------ disconnect ------+--> Error <-- session lost (crash) ----+
//   Error --connect--> Connecting (a new session)
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_EXECUTORMODEL_H
#define STUDIOMODEL_EXECUTORMODEL_H

#include "ExecutorStudio/Launch/KernelArguments.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace executor_studio::gui {

enum class ExecutorState { Disconnected, Connecting, Connected, Launching, Error };
const char *stateName(ExecutorState state);

struct LaunchRequest {
  /// What the log and the results table call it (`@compute::@square`).
  std::string label;
  /// The entry (the client adds `_catalyst_pyface_`) and its object file.
  std::string entry;
  std::string object;
  std::vector<MemRefData> inputs;
  /// Each input's type (scalars go by pointer, not as a memref); may be
  /// empty when every input is a memref.
  std::vector<ShapedArg> inputTypes;
  /// Each result's type: its rank and element size go to the executor.
  std::vector<ShapedArg> results;
  /// Launch without waiting for earlier launches: `() -> ()` entries go
  /// through the executor's own asynchronous launch (launch_async, then
  /// await once no other launch is queued, so launches issued together run
  /// together); entries with arguments run on a thread of their own over
  /// the same session.
  bool async = false;
};

/// A frame of a crashed launch's backtrace, as the client named it.
struct CrashFrameRow {
  /// `oob at prog.mlir:27:7`, `Launch::run()+0x2f in executor-server`.
  std::string text;
  /// The source position of a kernel frame built with -g (line 0: none).
  std::string file;
  unsigned line = 0, column = 0;
  bool inKernel = false;
};

struct LaunchRecord {
  enum class Status { Queued, Running, Done, Failed };
  uint64_t id = 0;
  std::string label;
  bool async = false;
  Status status = Status::Queued;
  /// Round trip of the launch itself, and of shipping the object when this
  /// launch had to (0 when it was loaded already).
  double latencyMs = 0, shipMs = 0;
  std::string inputsSummary;
  /// Launched under a debugger (ExecutorModel::launchUnderDebugger).
  bool debug = false;
  /// What was launched with (for the result inspector).
  std::vector<MemRefData> inputs;
  std::vector<ShapedArg> inputTypes;
  std::vector<MemRefData> results;
  std::vector<ShapedArg> resultTypes;
  std::string error;
  /// A kernel that crashed: its backtrace (innermost first).
  std::vector<CrashFrameRow> crashFrames;
};

/// "Launch under debugger": a launch on a session of its own that waits for
/// a debugger before the kernel runs. The wait is executor-server's
/// --debug-wait (the session's first launch waits until a tracer is on its
/// process; the log says "waiting for a debugger before launching KERNEL:
/// pid N" and then "a debugger is attached"), the mechanism the VS Code
/// extension's executor-kernel debugger and tests/e2e/gdb-attach use: for
/// a local executor the model starts one with --debug-wait (beside the
/// panel's own, which launches without waiting) and follows its log; a
/// remote executor waits only when it runs with --debug-wait, and the
/// commands are to be run on its host.
struct DebugLaunch {
  enum class Phase {
    None,
    /// Opening the session and shipping the object.
    Starting,
    /// The session's launch waits for a debugger (remote: the launch is in
    /// flight, waiting if that executor runs with --debug-wait).
    Waiting,
    /// The executor saw a debugger attach; the kernel runs under it.
    Attached,
    /// The launch ended (its record says how).
    Finished
  };
  Phase phase = Phase::None;
  uint64_t launchId = 0;
  /// The kernel's symbol (the breakpoint the commands set).
  std::string entry;
  /// The session's executor and its host (empty: this host, `local`);
  /// `followsLog`: the model's own executor --debug-wait, whose log says
  /// when the session waits and when a debugger attached (any other only
  /// waits when it runs with --debug-wait, and says nothing of it).
  bool local = true, followsLog = false;
  std::string address, host;
  /// The session process's PID on the executor's host, and its executable
  /// as this host sees it (local only: gdb and lldb would otherwise look for
  /// it through the session's own mounts).
  int64_t pid = 0;
  std::string executable;
  /// The executor said no debugger came in time and launched anyway.
  bool noDebugger = false;
  /// The commands that attach to the session and stop in the kernel (run
  /// them on `host` for a remote executor); empty until the session is open.
  std::string gdbCommand, lldbCommand;
};
const char *debugPhaseName(DebugLaunch::Phase phase);
/// The gdb and lldb commands that attach to session `pid` (its executable
/// `executable`, may be empty) and stop at kernel `entry`; `lldb` is the
/// lldb binary's name (`lldb`, `lldb-22`).
std::string gdbAttachCommand(int64_t pid, const std::string &executable,
                             const std::string &entry);
std::string lldbAttachCommand(int64_t pid, const std::string &executable,
                              const std::string &entry,
                              const std::string &lldb = "lldb");

struct LogEntry {
  enum class Level { Info, Error, Server };
  double seconds = 0; ///< since the model started
  Level level = Level::Info;
  std::string text;
};

struct ExecutorOptions {
  /// executor-server for "Start local executor" (empty: beside the
  /// running binary, else in the build tree).
  std::string serverPath;
  /// Where the local executor writes its log (empty: a temporary file).
  std::string serverLogPath;
  std::chrono::milliseconds connectTimeout{3000};
  /// How long an accepted connection may take to become a session (the
  /// ORC handshake) before the panel gives up on it.
  std::chrono::milliseconds handshakeTimeout{5000};
};

class ExecutorModel {
public:
  explicit ExecutorModel(ExecutorOptions options = {});
  /// Closes the session, stops the local executor, joins the worker.
  ~ExecutorModel();
  ExecutorModel(const ExecutorModel &) = delete;
  ExecutorModel &operator=(const ExecutorModel &) = delete;

  ExecutorState state() const { return current; }
  /// The last error (connect failure, lost session); empty otherwise.
  const std::string &error() const { return lastError; }
  /// The address of the session (or the one being connected to).
  const std::string &address() const { return sessionAddress; }
  /// The kind of executor the session is with (`executor-server`,
  /// `catalyst-executor`, `ORC executor`) and what a launch costs there;
  /// empty before the first session.
  const std::string &executorKind() const { return kindName; }
  const std::string &executorKindSummary() const { return kindSummary; }
  /// The executor's target triple (from ORC's setup message): the objects
  /// it runs must be compiled for it. Empty before the first session.
  const std::string &executorTriple() const { return tripleName; }
  /// The session process's PID on the executor's host (0: not known), and
  /// the command that attaches gdb to it.
  int64_t sessionPid() const { return pid; }
  std::string gdbCommand() const;
  bool localRunning() const { return !localListening.empty(); }
  const std::string &localAddress() const { return localListening; }
  const std::string &localLogPath() const;

  /// Opens a session with `address` (`host:port`); closes the current one.
  void connect(const std::string &address);
  /// Starts executor-server on a free loopback port (once) and connects to it.
  void startLocal();
  /// Closes the session; launches in flight fail.
  void disconnect();
  /// Stops the local executor (it also stops with the model).
  void stopLocal();

  bool canLaunch() const {
    return current == ExecutorState::Connected ||
           current == ExecutorState::Launching;
  }
  /// Queues a launch; returns its id, or 0 (logged) when there is no session.
  uint64_t launch(LaunchRequest request);
  /// "Launch under debugger" (DebugLaunch): on a new session with the
  /// connected remote executor, else with a local executor-server
  /// --debug-wait; returns the launch's id, or 0 (logged) while another
  /// debug launch is in flight. Needs no open session.
  uint64_t launchUnderDebugger(LaunchRequest request);
  /// The last debug launch (phase None: none yet).
  const DebugLaunch &debugLaunch() const { return debugging; }
  /// Whether launchUnderDebugger takes a launch now.
  bool canLaunchUnderDebugger() const {
    return debugging.phase == DebugLaunch::Phase::None ||
           debugging.phase == DebugLaunch::Phase::Finished;
  }

  /// Applies what the worker posted. Call once a frame.
  void drain();
  /// Whether commands or launches are pending.
  bool busy() const;
  /// Drains until nothing is pending or `timeout` passes; for tests and
  /// headless runs. Returns !busy().
  bool waitIdle(std::chrono::milliseconds timeout);

  const std::vector<LaunchRecord> &launches() const { return records; }
  const LaunchRecord *findLaunch(uint64_t id) const;
  void clearLaunches();
  const std::deque<LogEntry> &log() const { return logLines; }
  /// Bumped whenever the log gains lines.
  uint64_t logGeneration() const { return logGen; }

  struct Worker;

private:
  void addLog(LogEntry::Level level, std::string text);
  void tailServerLog();
  /// A queued record of `request` in the table (and the log); its id.
  uint64_t recordLaunch(const LaunchRequest &request, bool debug);
  /// Hands launch `id` to the worker (a launch under a debugger when `debug`).
  void postLaunch(uint64_t id, LaunchRequest request, bool debug);
  /// Reads what `path` gained since `offset` into log lines (Server level);
  /// the complete lines, in order.
  std::vector<std::string> tailLog(const std::string &path, uint64_t &offset,
                                   std::string &partial);

  std::unique_ptr<Worker> worker;
  ExecutorState current = ExecutorState::Disconnected;
  std::string lastError, sessionAddress, localListening, kindName, kindSummary,
      tripleName;
  /// Bumped by every connect and disconnect: events of older sessions are
  /// logged but change no state.
  uint64_t epoch = 0;
  int64_t pid = 0;
  uint64_t nextLaunch = 1;
  int inFlight = 0;
  int pendingCommands = 0;
  std::vector<LaunchRecord> records;
  std::deque<LogEntry> logLines;
  uint64_t logGen = 0;
  std::chrono::steady_clock::time_point started, lastTail;
  uint64_t serverLogOffset = 0;
  std::string serverLogPartial;
  DebugLaunch debugging;
  uint64_t debugLogOffset = 0;
  std::string debugLogPartial;
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_EXECUTORMODEL_H
