//===- ExecutorModelTest.cpp - the executor state machine, for real -------===//
//
// Every test drives a real executor-server (started by the model itself or
// by the test) through the model's worker thread, as the UI does.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "StudioModel/ExecutorModel.h"

#include "ExecutorRuntime/LocalExecutor.h"
#include "ExternalExecutor.h"
#include "TestFiles.h"

#include "llvm/Support/Program.h"

#include <arpa/inet.h>
#include <chrono>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio;
using namespace executor_studio::gui;
using namespace std::chrono_literals;

using executor_test::readFile;

namespace {
ExecutorOptions options() {
  ExecutorOptions o;
  o.serverPath = EXECUTOR_SERVER_PATH;
  return o;
}

ShapedArg vec(int64_t n) {
  ShapedArg a;
  a.type = "memref<" + std::to_string(n) + "xf64>";
  a.shape = {n};
  a.element = elementTypeNamed("f64");
  a.supported = true;
  return a;
}

LaunchRequest twice(std::vector<double> values, bool async = false) {
  LaunchRequest r;
  r.label = "k";
  r.entry = "k";
  r.object = KERNELS_A_OBJECT;
  MemRefData in;
  in.sizes = {static_cast<int64_t>(values.size())};
  in.bytes.resize(values.size() * 8);
  std::memcpy(in.bytes.data(), values.data(), in.bytes.size());
  r.inputs.push_back(in);
  r.results.push_back(vec(static_cast<int64_t>(values.size())));
  r.async = async;
  return r;
}

LaunchRequest noArgs(const char *entry, bool async = false) {
  LaunchRequest r;
  r.label = entry;
  r.entry = entry;
  r.object = KERNELS_A_OBJECT;
  r.async = async;
  return r;
}

std::vector<double> doubles(const MemRefData &d) {
  std::vector<double> v(d.bytes.size() / 8);
  std::memcpy(v.data(), d.bytes.data(), d.bytes.size());
  return v;
}

std::string closedPort() {
  std::string address;
  int fd = executor_studio::runtime::bindLoopback(/*listen=*/false, address);
  close(fd);
  return address;
}

bool logHas(const ExecutorModel &m, const std::string &text) {
  for (const LogEntry &e : m.log())
    if (e.text.find(text) != std::string::npos)
      return true;
  return false;
}

/// The local executor writes a launch's line after its reply, through its
/// session's keeper: waits for it in the file, then in the panel's log.
bool waitForLogLine(ExecutorModel &m, const std::string &text,
                    std::chrono::milliseconds limit = 10s) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    m.drain();
    if (readFile(m.localLogPath()).find(text) != std::string::npos &&
        logHas(m, text))
      return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}
} // namespace

TEST(ExecutorModel, StartsLocalConnectsAndLaunches) {
  ExecutorModel m(options());
  EXPECT_EQ(m.state(), ExecutorState::Disconnected);
  m.startLocal();
  EXPECT_EQ(m.state(), ExecutorState::Connecting);
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  EXPECT_TRUE(m.localRunning());
  EXPECT_EQ(m.address(), m.localAddress());
  uint64_t id = m.launch(twice({1, 2, 3, 4}));
  ASSERT_NE(id, 0u);
  EXPECT_EQ(m.state(), ExecutorState::Launching);
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_EQ(m.state(), ExecutorState::Connected);
  const LaunchRecord *r = m.findLaunch(id);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, LaunchRecord::Status::Done) << r->error;
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_EQ(r->results[0].sizes, std::vector<int64_t>{4});
  EXPECT_EQ(doubles(r->results[0]), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_GT(r->latencyMs, 0.0);
  EXPECT_GT(r->shipMs, 0.0); // the first launch shipped the object
  uint64_t again = m.launch(twice({5}));
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_EQ(m.findLaunch(again)->shipMs, 0.0); // loaded already
  EXPECT_EQ(doubles(m.findLaunch(again)->results[0]), std::vector<double>{10});
  // The executor saw the launches.
  // Tailed into the panel's log too.
  EXPECT_TRUE(waitForLogLine(m, "launch 1 in, 1 out"))
      << readFile(m.localLogPath());
  EXPECT_TRUE(waitForLogLine(m, "object loaded"));
}

TEST(ExecutorModel, UnreachableExecutorIsAnErrorAndNeverBlocks) {
  ExecutorModel m(options());
  std::string address = closedPort();
  auto start = std::chrono::steady_clock::now();
  m.connect(address);
  m.drain();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 100ms);
  ASSERT_TRUE(m.waitIdle(10s));
  EXPECT_EQ(m.state(), ExecutorState::Error);
  EXPECT_NE(m.error().find(address), std::string::npos) << m.error();
  // Launching without a session is refused, not queued.
  EXPECT_EQ(m.launch(twice({1})), 0u);
  EXPECT_TRUE(logHas(m, "connect first"));
  // An empty address is an error too.
  m.connect("");
  EXPECT_EQ(m.state(), ExecutorState::Error);
}

TEST(ExecutorModel, ACrashingKernelEndsTheSessionAndANewOneWorks) {
  ExecutorModel m(options());
  m.startLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  // The session process a debugger attaches to: a live executor-server.
  int64_t pid = m.sessionPid();
  ASSERT_GT(pid, 0);
  EXPECT_EQ(m.gdbCommand(), "gdb -p " + std::to_string(pid));
  {
    std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
    std::string argv0;
    std::getline(cmdline, argv0, '\0');
    EXPECT_NE(argv0.find("executor-server"), std::string::npos) << argv0;
  }
  uint64_t id = m.launch(noArgs("crash"));
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_EQ(m.state(), ExecutorState::Error);
  EXPECT_NE(m.error().find("lost the session"), std::string::npos) << m.error();
  EXPECT_EQ(m.findLaunch(id)->status, LaunchRecord::Status::Failed);
  // Its backtrace, innermost first: the kernel's object (a C object without
  // debug info: no line), then the executor's frames.
  const std::vector<CrashFrameRow> &frames = m.findLaunch(id)->crashFrames;
  ASSERT_GE(frames.size(), 2u) << m.findLaunch(id)->error;
  EXPECT_TRUE(frames[0].inKernel);
  EXPECT_EQ(frames[0].line, 0u);
  EXPECT_NE(frames[0].text.find("kernels_a.o"), std::string::npos) << frames[0].text;
  EXPECT_FALSE(frames.back().inKernel);
  EXPECT_EQ(m.sessionPid(), 0); // that session is gone
  EXPECT_FALSE(m.canLaunch());
  // Open the session again on the same executor.
  m.connect(m.localAddress());
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  uint64_t ok = m.launch(twice({3}));
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.findLaunch(ok)->status, LaunchRecord::Status::Done)
      << m.findLaunch(ok)->error;
  EXPECT_EQ(doubles(m.findLaunch(ok)->results[0]), std::vector<double>{6});
}

TEST(ExecutorModel, AsyncLaunchesRunAtTheSameTime) {
  ExecutorModel m(options());
  m.startLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  // Each rendezvous returns only when both run at once (else aborts after 10 s).
  uint64_t a = m.launch(noArgs("rendezvous", true));
  uint64_t b = m.launch(noArgs("rendezvous", true));
  uint64_t c = m.launch(twice({1, 1}, true)); // with arguments, on its own thread
  ASSERT_TRUE(m.waitIdle(30s));
  for (uint64_t id : {a, b, c}) {
    const LaunchRecord *r = m.findLaunch(id);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->async);
    EXPECT_EQ(r->status, LaunchRecord::Status::Done) << r->error;
  }
  EXPECT_EQ(doubles(m.findLaunch(c)->results[0]), (std::vector<double>{2, 2}));
  EXPECT_EQ(m.state(), ExecutorState::Connected);
}

TEST(ExecutorModel, BadLaunchesKeepTheSession) {
  ExecutorModel m(options());
  m.startLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  LaunchRequest missing = twice({1});
  missing.object = "/no/such/object.o";
  uint64_t a = m.launch(missing);
  LaunchRequest unknown = twice({1});
  unknown.entry = "nope";
  uint64_t b = m.launch(unknown);
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_NE(m.findLaunch(a)->error.find("does not exist"), std::string::npos)
      << m.findLaunch(a)->error;
  EXPECT_NE(m.findLaunch(b)->error.find("has no entry"), std::string::npos)
      << m.findLaunch(b)->error;
  EXPECT_EQ(m.state(), ExecutorState::Connected);
  m.clearLaunches();
  EXPECT_TRUE(m.launches().empty());
}

// The studio launches on any ORC executor too: LLVM's stock
// llvm-jitlink-executor, which has none of executor-server's services. The
// model says which kind it got and what a launch costs there, and the
// numbers are right.
TEST(ExecutorModel, LaunchesOnAStockOrcExecutorAndSaysWhatItIs) {
  executor_test::JitlinkExecutor orc;
  ASSERT_TRUE(orc.start()) << "llvm-jitlink-executor did not listen";
  ExecutorModel m(options());
  EXPECT_TRUE(m.executorKind().empty());
  m.connect(orc.address);
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  EXPECT_EQ(m.executorKind(), "ORC executor");
  EXPECT_NE(m.executorKindSummary().find("round trips"), std::string::npos)
      << m.executorKindSummary();
  uint64_t id = m.launch(twice({1, 2, 3, 4}));
  ASSERT_TRUE(m.waitIdle(20s));
  const LaunchRecord *r = m.findLaunch(id);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, LaunchRecord::Status::Done) << r->error;
  EXPECT_EQ(doubles(r->results[0]), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_TRUE(logHas(m, "ORC executor"));
}

TEST(ExecutorModel, ConnectsToAnExecutorItDidNotStartAndDisconnects) {
  executor_studio::runtime::LocalExecutor server;
  llvm::Error err = server.start(EXECUTOR_SERVER_PATH);
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  std::string address = server.address();
  {
    ExecutorModel m(options());
    m.connect(address);
    ASSERT_TRUE(m.waitIdle(20s));
    ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
    EXPECT_FALSE(m.localRunning());
    m.disconnect();
    EXPECT_EQ(m.state(), ExecutorState::Disconnected);
    ASSERT_TRUE(m.waitIdle(20s));
    EXPECT_EQ(m.state(), ExecutorState::Disconnected);
    EXPECT_EQ(m.launch(twice({1})), 0u);
  }
  server.stop();
}

// Under a debugger on an executor the panel is connected to (not its own
// local one): a second session with that executor, which waits because it
// runs with --debug-wait; the model cannot read its log, so the launch shows
// "waiting" until it ends; the panel's own session stays as it was.
TEST(ExecutorModel, LaunchUnderDebuggerUsesTheConnectedExecutor) {
  if (!llvm::sys::findProgramByName("gdb"))
    GTEST_SKIP() << "no gdb";
  executor_studio::runtime::LocalExecutor server;
  llvm::Error err = server.start(EXECUTOR_SERVER_PATH, {"--debug-wait"});
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  ExecutorModel m(options());
  m.connect(server.address());
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  int64_t panelSession = m.sessionPid();
  // kernels_a.c with -g: the session registers it with gdb as it links it.
  LaunchRequest request = twice({1, 2});
  request.object = KERNELS_A_DEBUG_OBJECT;
  uint64_t id = m.launchUnderDebugger(request);
  ASSERT_NE(id, 0u);
  const DebugLaunch &d = m.debugLaunch();
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (d.phase != DebugLaunch::Phase::Waiting && std::chrono::steady_clock::now() < deadline) {
    m.drain();
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_EQ(d.phase, DebugLaunch::Phase::Waiting) << debugPhaseName(d.phase);
  EXPECT_EQ(d.address, server.address());
  EXPECT_FALSE(d.followsLog);
  EXPECT_TRUE(d.local); // loopback: this host
  ASSERT_GT(d.pid, 0);
  EXPECT_NE(d.pid, panelSession);
  EXPECT_EQ(d.gdbCommand, gdbAttachCommand(d.pid, d.executable, "k"));
  EXPECT_NE(d.gdbCommand.find(" -p " + std::to_string(d.pid) + " -ex 'break k'"),
            std::string::npos)
      << d.gdbCommand;
  EXPECT_EQ(m.state(), ExecutorState::Connected);
  // gdb attached stops in the kernel (a C function here: its symbol is the
  // wrapper's), then detaches: the launch ends with its results. gdb is
  // given the server's executable, as the studio's command gives it: when it
  // lies under /tmp, the session's private /tmp hides it from gdb's target:.
  std::string pid = std::to_string(d.pid);
  std::string out = testing::TempDir() + "model-gdb-" + pid + ".out";
  EXPECT_EQ(llvm::sys::ExecuteAndWait("/bin/sh",
                                      {"/bin/sh", "-c",
                                       "gdb -nx -batch '" + d.executable + "' -p " + pid +
                                           " -ex 'break _catalyst_pyface_k' -ex continue -ex bt > " +
                                           out + " 2>&1"},
                                      std::nullopt, {}, /*SecondsToWait=*/120),
            0);
  ASSERT_TRUE(m.waitIdle(60s)) << readFile(out);
  EXPECT_NE(readFile(out).find("#0  _catalyst_pyface_k"), std::string::npos) << readFile(out);
  EXPECT_NE(readFile(out).find("kernels_a.c:"), std::string::npos) << readFile(out);
  const LaunchRecord *r = m.findLaunch(id);
  ASSERT_EQ(r->status, LaunchRecord::Status::Done) << r->error;
  EXPECT_EQ(doubles(r->results[0]), (std::vector<double>{2, 4}));
  EXPECT_EQ(d.phase, DebugLaunch::Phase::Finished);
  EXPECT_EQ(m.state(), ExecutorState::Connected);
  EXPECT_EQ(m.sessionPid(), panelSession);
  server.stop();
}

// The commands: quoted for a shell, the executable when there is one.
TEST(ExecutorModel, DebuggerCommands) {
  EXPECT_EQ(gdbAttachCommand(42, "/opt/my tools/executor-server", "square"),
            "gdb -q '/opt/my tools/executor-server' -p 42 -ex 'break square' -ex continue");
  EXPECT_EQ(gdbAttachCommand(42, "", "square"),
            "gdb -q -p 42 -ex 'break square' -ex continue");
  EXPECT_EQ(lldbAttachCommand(7, "", "k", "lldb-22"),
            "lldb-22 -p 7 -o 'process handle SIGSTOP -s false -n false -p false' -o "
            "'breakpoint set --name k' -o continue");
}

TEST(ExecutorModel, StopsTheLocalExecutorWithTheModel) {
  std::string address;
  {
    ExecutorModel m(options());
    m.startLocal();
    ASSERT_TRUE(m.waitIdle(20s));
    ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
    address = m.localAddress();
  }
  ExecutorModel probe(options());
  probe.connect(address);
  ASSERT_TRUE(probe.waitIdle(10s));
  EXPECT_EQ(probe.state(), ExecutorState::Error);
}

TEST(ExecutorModel, StopLocalDisconnectsItsSession) {
  ExecutorModel m(options());
  m.startLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  ASSERT_EQ(m.state(), ExecutorState::Connected) << m.error();
  m.stopLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_FALSE(m.localRunning());
  EXPECT_EQ(m.state(), ExecutorState::Disconnected);
  // And it starts again.
  m.startLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_EQ(m.state(), ExecutorState::Connected) << m.error();
}

TEST(ExecutorModel, AListenerThatNeverAnswersTimesOut) {
  // Accepts (the kernel's backlog does) and never speaks: the handshake
  // would wait forever; the model gives up and stays usable.
  std::string address;
  int fd = executor_studio::runtime::bindLoopback(/*listen=*/true, address);
  ASSERT_GE(fd, 0);
  ExecutorOptions o = options();
  o.connectTimeout = 500ms;
  o.handshakeTimeout = 500ms;
  ExecutorModel m(o);
  auto start = std::chrono::steady_clock::now();
  m.connect(address);
  ASSERT_TRUE(m.waitIdle(10s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(m.state(), ExecutorState::Error);
  EXPECT_NE(m.error().find("did not start an ORC session"), std::string::npos)
      << m.error();
  EXPECT_NE(m.error().find(address), std::string::npos) << m.error();
  // A real executor afterwards.
  m.startLocal();
  ASSERT_TRUE(m.waitIdle(20s));
  EXPECT_EQ(m.state(), ExecutorState::Connected) << m.error();
  close(fd);
}
