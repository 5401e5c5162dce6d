//===- SlurmAddressTest.cpp - slurm: addresses against Debian's Slurm -----===//
//
// Real Slurm, no mocks: the suite starts munged, slurmctld and slurmd (as
// root) for a one-node cluster on this host (SlurmCluster.h) and runs
// kernels over
// slurm:server=/ABSOLUTE/PATH/executor-server, which srun starts as a
// one-task step running `executor-server --stdio`. Skipped when Slurm or
// munge is not installed (scripts/setup.sh installs slurmctld, slurmd,
// slurm-client and munge) or the tests do not run as root.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "RunTool.h"
#include "SlurmCluster.h"
#include "TestFiles.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
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
    cluster = new executor_test::SlurmCluster();
    skipWhy = cluster->start();
    dir = cluster->dir();
  }
  static void TearDownTestSuite() {
    delete cluster;
    cluster = nullptr;
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
  static executor_test::SlurmCluster *cluster;
};
std::string SlurmAddressTest::dir, SlurmAddressTest::skipWhy;
executor_test::SlurmCluster *SlurmAddressTest::cluster = nullptr;
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

// executor-compile --target-of=slurm:... opens a session on a step to read
// the executor's triple (this host's here) and compiles the dispatched
// target for it; the step ends with the session.
TEST_F(SlurmAddressTest, ExecutorCompileTargetOfReadsTheStepsTriple) {
  std::string server = dir + "/executor-server-of-target-of";
  ASSERT_FALSE(llvm::sys::fs::create_link(kServer, server));
  std::string out = dir + "/target-of", error;
  int code = executor_test::runTool(
      EXECUTOR_COMPILE_PATH,
      {"--target-of=slurm:partition=debug,time=5,server=" + server,
       SAMPLES_DIR "/cross-compile-dispatch.mlir", "-o", out},
      std::nullopt, &error);
  ASSERT_EQ(code, 0) << error;
  std::string object = readFile(out + ".workspace/compute/compute.o");
  ASSERT_GE(object.size(), sizeof(Elf64_Ehdr));
  Elf64_Ehdr header;
  std::memcpy(&header, object.data(), sizeof(header));
#if defined(__x86_64__)
  EXPECT_EQ(header.e_machine, EM_X86_64);
#elif defined(__aarch64__)
  EXPECT_EQ(header.e_machine, EM_AARCH64);
#endif
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!stdioServers(server).empty() &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(stdioServers(server).empty());
}
