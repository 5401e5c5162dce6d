//===- SlurmAddressTest.cpp - slurm: addresses against Debian's Slurm -----===//
//
// Real Slurm, no mocks: the suite starts munged, slurmctld and slurmd (as
// root) for a one-node cluster on this host with a generated munge key and
// slurm.conf (SLURM_CONF), and runs kernels over
// slurm:server=/ABSOLUTE/PATH/executor-server, which srun starts as a
// one-task step running `executor-server --stdio`. Skipped when Slurm or
// munge is not installed (scripts/setup.sh installs slurmctld, slurmd,
// slurm-client and munge) or the tests do not run as root.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Socket.h"
#include "TestFiles.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;
using executor_test::readFile;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;

/// What `args` printed on standard output ("" when it failed).
std::string output(const std::vector<std::string> &args,
                   const std::string &scratch) {
  executor_studio::Subprocess process;
  executor_studio::SubprocessOptions options;
  options.searchPath = true;
  options.out = executor_studio::Redirect::file(scratch);
  options.err = executor_studio::Redirect::null();
  if (process.start(args, options))
    return "";
  process.waitFor(std::chrono::seconds(20));
  return process.exitCode() == 0 ? readFile(scratch) : "";
}

std::string freePort() {
  std::string address;
  int fd = bindLoopback(/*listen=*/false, address);
  ::close(fd);
  return address.substr(address.rfind(':') + 1);
}

/// The pids of processes whose command line has `part` and "--stdio".
std::vector<pid_t> stdioServers(const std::string &part) {
  std::vector<pid_t> found;
  DIR *proc = opendir("/proc");
  while (dirent *entry = proc ? readdir(proc) : nullptr) {
    if (std::atoi(entry->d_name) <= 0)
      continue;
    std::string base = "/proc/" + std::string(entry->d_name);
    std::string cmdline = readFile(base + "/cmdline");
    bool zombie = readFile(base + "/stat").find(") Z ") != std::string::npos;
    if (!zombie && cmdline.find(part) != std::string::npos &&
        cmdline.find("--stdio") != std::string::npos &&
        cmdline.rfind("srun", 0) != 0)
      found.push_back(std::atoi(entry->d_name));
  }
  if (proc)
    closedir(proc);
  return found;
}

class SlurmAddressTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    for (const char *daemon :
         {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd"})
      if (access(daemon, X_OK) != 0)
        skipWhy = std::string("needs ") + daemon;
    if (!llvm::sys::findProgramByName("srun"))
      skipWhy = "needs srun (slurm-client)";
    if (getuid() != 0)
      skipWhy = "needs root (Slurm's daemons)";
    if (!skipWhy.empty())
      return;
    char templ[] = "/tmp/slurm-test-XXXXXX";
    dir = mkdtemp(templ);
    for (const char *sub : {"/state", "/spool"})
      llvm::sys::fs::create_directories(dir + sub);
    {
      std::ofstream key(dir + "/munge.key", std::ios::binary);
      std::ifstream random("/dev/urandom", std::ios::binary);
      char bytes[1024];
      random.read(bytes, sizeof(bytes));
      key.write(bytes, sizeof(bytes));
    }
    chmod((dir + "/munge.key").c_str(), 0400);
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    std::string node(host);
    node = node.substr(0, node.find('.'));
    std::ofstream(dir + "/slurm.conf")
        << "ClusterName=executortest\n"
        << "SlurmctldHost=" << node << "(127.0.0.1)\n"
        << "SlurmctldPort=" << freePort() << "\nSlurmdPort=" << freePort()
        << "\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n"
        << "AuthInfo=socket=" << dir << "/munge.sock\nCredType=cred/munge\n"
        << "StateSaveLocation=" << dir << "/state\nSlurmdSpoolDir=" << dir
        << "/spool\nSlurmctldPidFile=" << dir << "/slurmctld.pid\n"
        << "SlurmdPidFile=" << dir << "/slurmd.pid\n"
        << "SlurmctldLogFile=" << dir << "/slurmctld.log\n"
        << "SlurmdLogFile=" << dir << "/slurmd.log\n"
        << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
        << "JobAcctGatherType=jobacct_gather/none\n"
        << "AccountingStorageType=accounting_storage/none\n"
        << "SchedulerType=sched/builtin\nSelectType=select/cons_tres\n"
        << "SelectTypeParameters=CR_CPU\nMpiDefault=none\n"
        << "ReturnToService=2\n"
        << "NodeName=" << node << " NodeAddr=127.0.0.1 CPUs="
        << std::max(1u, std::thread::hardware_concurrency())
        << " State=UNKNOWN\n"
        << "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE "
           "State=UP\n";
    setenv("SLURM_CONF", (dir + "/slurm.conf").c_str(), 1);
    auto daemon = [&](std::vector<std::string> args, const std::string &log) {
      auto process = std::make_unique<executor_studio::Subprocess>();
      executor_studio::SubprocessOptions options;
      options.out = executor_studio::Redirect::file(dir + "/" + log);
      options.err = executor_studio::Redirect::file(dir + "/" + log + ".err");
      options.newProcessGroup = true;
      if (llvm::Error err = process->start(args, options))
        skipWhy = llvm::toString(std::move(err));
      daemons.push_back(std::move(process));
    };
    daemon({"/usr/sbin/munged", "-F", "-f", "--key-file=" + dir + "/munge.key",
            "--socket=" + dir + "/munge.sock",
            "--pid-file=" + dir + "/munged.pid",
            "--log-file=" + dir + "/munged.log",
            "--seed-file=" + dir + "/munged.seed"},
           "munged.out");
    for (int i = 0; i < 200 && !llvm::sys::fs::exists(dir + "/munge.sock"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    daemon({"/usr/sbin/slurmctld", "-D", "-i"}, "slurmctld.out");
    daemon({"/usr/sbin/slurmd", "-D"}, "slurmd.out");
    // Up once the node is idle.
    for (int i = 0; i < 300; ++i) {
      if (output({"sinfo", "-h", "-o", "%T"}, dir + "/sinfo.out")
              .find("idle") == 0)
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    skipWhy = "the Slurm node did not become idle: " +
              readFile(dir + "/slurmctld.log") + readFile(dir + "/slurmd.log");
  }
  static void TearDownTestSuite() {
    // The steps first (a killed srun's step ends when Slurm notices).
    if (!dir.empty() && skipWhy.empty()) {
      output({"scancel", "--full", "--user=root"}, dir + "/scancel.out");
      for (int i = 0; i < 100; ++i) {
        if (output({"squeue", "-h"}, dir + "/squeue.out").empty())
          break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    // slurmd, slurmctld, munged: SIGKILL to their groups, in reverse.
    while (!daemons.empty())
      daemons.pop_back();
    // A step's slurmstepd leaves slurmd's group: those of this cluster.
    std::string ours = "SLURM_CONF=" + dir + "/slurm.conf";
    DIR *proc = dir.empty() ? nullptr : opendir("/proc");
    while (dirent *entry = proc ? readdir(proc) : nullptr) {
      pid_t pid = std::atoi(entry->d_name);
      std::string base = "/proc/" + std::string(entry->d_name);
      if (pid > 0 &&
          readFile(base + "/stat").find("(slurmstepd)") != std::string::npos) {
        std::string environ = readFile(base + "/environ");
        for (size_t at = 0; at < environ.size();) {
          size_t end = environ.find('\0', at);
          if (environ.substr(at, end - at) == ours)
            ::kill(pid, SIGKILL);
          at = end == std::string::npos ? environ.size() : end + 1;
        }
      }
    }
    if (proc)
      closedir(proc);
    if (!dir.empty()) {
      // (remove_directories leaves sockets.)
      ::unlink((dir + "/munge.sock").c_str());
      llvm::sys::fs::remove_directories(dir);
    }
    unsetenv("SLURM_CONF");
  }
  void SetUp() override {
    if (!skipWhy.empty())
      GTEST_SKIP() << skipWhy;
  }
  static std::string openFailure(const std::string &address) {
    auto client = ExecutorClient::open(address);
    if (client)
      return "";
    return llvm::toString(client.takeError());
  }
  static HostMemRef vec(std::vector<double> values) {
    return HostMemRef::of<double>({static_cast<int64_t>(values.size())},
                                  values);
  }

  static std::string dir, skipWhy;
  static std::vector<std::unique_ptr<executor_studio::Subprocess>> daemons;
};
std::string SlurmAddressTest::dir, SlurmAddressTest::skipWhy;
std::vector<std::unique_ptr<executor_studio::Subprocess>>
    SlurmAddressTest::daemons;
} // namespace

TEST_F(SlurmAddressTest, RunsKernelsAsASlurmStep) {
  // A path of this test's own: the processes it finds are its own (ctest
  // runs tests in parallel).
  std::string server = dir + "/executor-server-of-step";
  ASSERT_FALSE(llvm::sys::fs::create_link(kServer, server));
  std::string address = "slurm:partition=debug,time=5,server=" + server;
  auto client = ExecutorClient::open(address);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  EXPECT_EQ((*client)->executorKind(), ExecutorKind::ExecutorServer);
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4, 6, 8}));
  // Every byte value, both ways, through the step's raw pseudo-terminal.
  std::vector<double> large(1 << 17);
  for (size_t i = 0; i < large.size(); ++i)
    large[i] = static_cast<double>(i) * 1.000001 - 7.5;
  auto same = (*client)->launch("identity", kObjectA, {vec(large)}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
  EXPECT_EQ((*same)[0].as<double>(), large);
  // Closing the session ends the step: no executor-server stays.
  ASSERT_FALSE(static_cast<bool>((*client)->close()));
  client->reset();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!stdioServers(server).empty() &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(stdioServers(server).empty());
}

TEST_F(SlurmAddressTest, AMissingServerSaysToInstallItOrGiveItsPath) {
  EXPECT_EQ(openFailure("slurm:server=/nowhere/executor-server"),
            "executor slurm:server=/nowhere/executor-server: no "
            "executor-server at /nowhere/executor-server on the node Slurm "
            "chose (install it there, or give its path: "
            "slurm:server=/path/to/executor-server)");
}

TEST_F(SlurmAddressTest, SrunsOwnRefusalIsPassedOn) {
  std::string message = openFailure("slurm:partition=nope,server=" + kServer);
  EXPECT_EQ(message.rfind("executor slurm:partition=nope,server=" + kServer +
                              ": srun ended with exit code 1: ",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("Invalid partition name specified"), std::string::npos)
      << message;
}

TEST_F(SlurmAddressTest, OptionsThatRunProgramsAreRefusedBeforeAnythingRuns) {
  std::string allowed =
      "(it may give partition, time, gres, gpus, constraint, account, qos, "
      "mem, cpus-per-task, nodelist, reservation, mem-per-gpu, "
      "gpus-per-task, and server=PATH)";
  std::vector<std::pair<std::string, std::string>> cases = {
      {"slurm:prolog=/tmp/x",
       "has the option 'prolog', which a slurm: address may not give srun " +
           allowed},
      {"slurm:task-prolog=/tmp/x",
       "has the option 'task-prolog', which a slurm: address may not give "
       "srun " +
           allowed},
      {"slurm:partition=gpu --prolog=/tmp/x",
       "has the character ' ' in partition=gpu --prolog=/tmp/x"},
      {"slurm:server=executor-server",
       "has server='executor-server', not an absolute path to "
       "executor-server"},
      {"slurm:server=/bin/x;id",
       "has the character ';' in its server path; give a path of letters, "
       "digits and / . _ - + @ % :"},
      {"slurm:partition",
       "has 'partition', not NAME=VALUE; write it as slurm:NAME=VALUE,... "
       "(e.g. slurm:partition=gpu,time=30)"},
  };
  for (const auto &[address, problem] : cases)
    EXPECT_EQ(openFailure(address),
              "executor " + address + ": address '" + address + "' " + problem)
        << address;
}

TEST_F(SlurmAddressTest, KillingSrunLeavesNoExecutorServerBehind) {
  std::string server = dir + "/executor-server-of-killed-step";
  ASSERT_FALSE(llvm::sys::fs::create_link(kServer, server));
  auto client = ExecutorClient::open("slurm:server=" + server);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA, {vec({1})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  std::vector<pid_t> remote = stdioServers(server);
  ASSERT_GE(remote.size(), 2u) << "the server and its session";
  // srun, this process's child.
  pid_t srun = 0;
  DIR *proc = opendir("/proc");
  while (dirent *entry = proc ? readdir(proc) : nullptr) {
    std::string stat =
        readFile("/proc/" + std::string(entry->d_name) + "/stat");
    size_t close = stat.rfind(')');
    if (std::atoi(entry->d_name) > 0 && close != std::string::npos &&
        stat.find("(srun)") != std::string::npos &&
        std::atoi(stat.c_str() + close + 4) == getpid())
      srun = std::atoi(entry->d_name);
  }
  if (proc)
    closedir(proc);
  ASSERT_GT(srun, 0);
  ::kill(srun, SIGKILL);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::vector<pid_t> left = remote;
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    left.clear();
    for (pid_t pid : stdioServers(server))
      if (std::find(remote.begin(), remote.end(), pid) != remote.end())
        left.push_back(pid);
  }
  EXPECT_TRUE(left.empty()) << left.size()
                            << " executor-server processes "
                               "outlived the srun that started them";
}
