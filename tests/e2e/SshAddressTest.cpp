//===- SshAddressTest.cpp - ssh:// addresses against Debian's OpenSSH -----===//
//
// Real OpenSSH, no mocks: the suite starts Debian's sshd (as root) on a free
// loopback port with a generated host key, a generated user key in its
// AuthorizedKeysFile, and writes an ssh config (EXECUTOR_SSH_CONFIG) whose
// aliases reach it: `lab` (the user key, the host key known), `stranger` (a
// key the host does not accept), `newhost` (known_hosts without the host
// key) and `changedhost` (known_hosts with another key for it). Kernels run
// over ssh://lab/ABSOLUTE/PATH/executor-server, which ssh starts as
// `executor-server --stdio`. Skipped when sshd or ssh is not installed
// (scripts/setup.sh installs openssh-server and openssh-client) or the
// tests do not run as root.
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
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;
using executor_test::readFile;

namespace {
const std::string kServer = EXECUTOR_SERVER_PATH;
const std::string kObjectA = KERNELS_A_OBJECT;

bool run(const std::vector<std::string> &args) {
  executor_studio::Subprocess process;
  executor_studio::SubprocessOptions options;
  options.searchPath = true;
  options.out = executor_studio::Redirect::null();
  if (process.start(args, options))
    return false;
  process.waitFor(std::chrono::seconds(30));
  return process.exitCode() == 0;
}

std::string firstLine(const std::string &path) {
  std::string text = readFile(path);
  return text.substr(0, text.find('\n'));
}

/// The pids of executor-servers whose command line has `part` and
/// "--stdio" (not the ssh that started one).
std::vector<pid_t> stdioServers(const std::string &part) {
  std::vector<pid_t> found;
  DIR *proc = opendir("/proc");
  while (dirent *entry = proc ? readdir(proc) : nullptr) {
    pid_t pid = std::atoi(entry->d_name);
    if (pid <= 0)
      continue;
    std::string cmdline =
        readFile("/proc/" + std::string(entry->d_name) + "/cmdline");
    std::string stat =
        readFile("/proc/" + std::string(entry->d_name) + "/stat");
    bool zombie = stat.find(") Z ") != std::string::npos;
    if (!zombie && cmdline.find(part) != std::string::npos &&
        cmdline.find("--stdio") != std::string::npos &&
        cmdline.rfind(std::string("ssh\0", 4), 0) != 0)
      found.push_back(pid);
  }
  if (proc)
    closedir(proc);
  return found;
}

/// This process's children named `name`.
std::vector<pid_t> childrenNamed(const std::string &name) {
  std::vector<pid_t> found;
  DIR *proc = opendir("/proc");
  while (dirent *entry = proc ? readdir(proc) : nullptr) {
    pid_t pid = std::atoi(entry->d_name);
    if (pid <= 0)
      continue;
    std::string stat =
        readFile("/proc/" + std::string(entry->d_name) + "/stat");
    // pid (comm) state ppid ...
    size_t close = stat.rfind(')');
    if (close == std::string::npos)
      continue;
    std::string comm =
        stat.substr(stat.find('(') + 1, close - stat.find('(') - 1);
    pid_t parent = std::atoi(stat.c_str() + close + 4);
    if (comm == name && parent == getpid())
      found.push_back(pid);
  }
  if (proc)
    closedir(proc);
  return found;
}

class SshAddressTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    if (getuid() != 0 || access("/usr/sbin/sshd", X_OK) != 0 ||
        !llvm::sys::findProgramByName("ssh") ||
        !llvm::sys::findProgramByName("ssh-keygen")) {
      skipWhy = "needs root, /usr/sbin/sshd, ssh and ssh-keygen "
                "(openssh-server, openssh-client)";
      return;
    }
    // Short: ssh's control sockets live under it (sockaddr_un).
    char templ[] = "/tmp/ssh-test-XXXXXX";
    dir = mkdtemp(templ);
    for (const char *key : {"host", "user", "stranger", "otherhost"})
      if (!run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f",
                dir + "/" + key})) {
        skipWhy = "ssh-keygen failed";
        return;
      }
    llvm::sys::fs::copy_file(dir + "/user.pub", dir + "/authorized_keys");
    std::string address;
    int fd = bindLoopback(/*listen=*/false, address);
    ::close(fd);
    port = address.substr(address.rfind(':') + 1);
    std::ofstream(dir + "/sshd_config")
        << "HostKey " << dir << "/host\n"
        << "ListenAddress 127.0.0.1\n"
        << "AuthorizedKeysFile " << dir << "/authorized_keys\n"
        << "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
        << "KbdInteractiveAuthentication no\nPermitRootLogin yes\n"
        << "PidFile none\n"
        // The remote user's cache, where executor-deploy's copies would be
        // (none here: an address without a path finds none).
        << "SetEnv XDG_CACHE_HOME=" << dir << "/cache\n";
    std::string hostKey = firstLine(dir + "/host.pub");
    std::string otherKey = firstLine(dir + "/otherhost.pub");
    std::string entry = "[127.0.0.1]:" + port + " ";
    std::ofstream(dir + "/known_hosts") << entry << hostKey << "\n";
    std::ofstream(dir + "/changed_known_hosts") << entry << otherKey << "\n";
    std::ofstream(dir + "/empty_known_hosts");
    std::ofstream config(dir + "/ssh_config");
    auto alias = [&](const std::string &name, const std::string &key,
                     const std::string &knownHosts) {
      config << "Host " << name << "\n  HostName 127.0.0.1\n  Port " << port
             << "\n  User root\n  IdentityFile " << dir << "/" << key
             << "\n  IdentitiesOnly yes\n  IdentityAgent none\n"
             << "  GlobalKnownHostsFile /dev/null\n  UserKnownHostsFile " << dir
             << "/" << knownHosts << "\n";
    };
    alias("lab", "user", "known_hosts");
    alias("stranger", "stranger", "known_hosts");
    alias("newhost", "user", "empty_known_hosts");
    alias("changedhost", "user", "changed_known_hosts");
    config.close();
    llvm::sys::fs::create_directories("/run/sshd"); // privilege separation
    executor_studio::SubprocessOptions options;
    options.err = executor_studio::Redirect::file(dir + "/sshd.log");
    options.newProcessGroup = true;
    sshd = new executor_studio::Subprocess();
    if (llvm::Error err = sshd->start({"/usr/sbin/sshd", "-D", "-e", "-f",
                                       dir + "/sshd_config", "-p", port},
                                      options)) {
      skipWhy = "cannot start sshd: " + llvm::toString(std::move(err));
      return;
    }
    // Up once it accepts connections.
    for (int tries = 0; tries < 500; ++tries) {
      std::string why;
      int fd =
          connectTo("127.0.0.1:" + port, std::chrono::milliseconds(100), why);
      if (fd >= 0) {
        ::close(fd);
        break;
      }
      if (sshd->poll()) {
        skipWhy = "sshd exited: " + readFile(dir + "/sshd.log");
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    setenv("EXECUTOR_SSH_CONFIG", (dir + "/ssh_config").c_str(), 1);
  }
  static void TearDownTestSuite() {
    // The control masters (ControlPersist) end with their connections.
    for (const std::string &control : controlDirs)
      run({"ssh", "-F", dir + "/ssh_config", "-o",
           "ControlPath=" + control + "/%C", "-O", "exit", "lab"});
    delete sshd; // SIGKILL to its group
    sshd = nullptr;
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir);
    unsetenv("EXECUTOR_SSH_CONFIG");
    unsetenv("EXECUTOR_SSH_CONTROL_DIR");
  }
  void SetUp() override {
    if (!skipWhy.empty())
      GTEST_SKIP() << skipWhy;
    // A control directory per test: a master one test left must not log
    // another in (all aliases are the same host, port and user).
    std::string control = dir + "/c" + std::to_string(controlDirs.size());
    controlDirs.push_back(control);
    setenv("EXECUTOR_SSH_CONTROL_DIR", control.c_str(), 1);
  }
  /// Why opening `address` failed ("" when it opened).
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

  static std::string dir, port, skipWhy;
  static std::vector<std::string> controlDirs;
  static executor_studio::Subprocess *sshd;
};
std::string SshAddressTest::dir, SshAddressTest::port, SshAddressTest::skipWhy;
std::vector<std::string> SshAddressTest::controlDirs;
executor_studio::Subprocess *SshAddressTest::sshd = nullptr;
} // namespace

TEST_F(SshAddressTest, RunsKernelsOverSsh) {
  std::string address = "ssh://lab" + kServer;
  auto client = ExecutorClient::open(address);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  EXPECT_EQ((*client)->executorKind(), ExecutorKind::ExecutorServer);
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA, {vec({1, 2, 3, 4})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].sizes, std::vector<int64_t>{4});
  EXPECT_EQ((*out)[0].as<double>(), (std::vector<double>{2, 4, 6, 8}));
  // A buffer larger than a pipe holds, both ways.
  std::vector<double> large(1 << 18);
  for (size_t i = 0; i < large.size(); ++i)
    large[i] = static_cast<double>(i);
  auto same = (*client)->launch("identity", kObjectA, {vec(large)}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
  EXPECT_EQ((*same)[0].as<double>(), large);
  ASSERT_FALSE(static_cast<bool>((*client)->close()));
  // A second session reuses ssh's master connection.
  auto again = ExecutorClient::open(address);
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  ASSERT_FALSE(static_cast<bool>((*again)->sendBinary(kObjectA)));
  auto twice = (*again)->launch("k", kObjectA, {vec({5})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(twice)) << llvm::toString(twice.takeError());
  EXPECT_EQ((*twice)[0].as<double>(), (std::vector<double>{10}));
}

TEST_F(SshAddressTest, ARefusedKeySaysToCopyOne) {
  EXPECT_EQ(openFailure("ssh://stranger" + kServer),
            "executor ssh://stranger" + kServer +
                ": ssh could not log in to stranger: no key the host "
                "accepts: ssh-copy-id stranger");
}

TEST_F(SshAddressTest, AnUnknownHostKeySaysSo) {
  EXPECT_EQ(openFailure("ssh://newhost" + kServer),
            "executor ssh://newhost" + kServer +
                ": ssh cannot verify the host key of newhost (Host key "
                "verification failed: known_hosts does not have it, and no "
                "question is asked here): check and record it by connecting "
                "once with ssh newhost (a key that changed on purpose: "
                "ssh-keygen -R newhost first)");
}

TEST_F(SshAddressTest, AChangedHostKeySaysHowToRemoveIt) {
  EXPECT_EQ(openFailure("ssh://changedhost" + kServer),
            "executor ssh://changedhost" + kServer +
                ": the host key of changedhost has changed since known_hosts "
                "recorded it, and ssh refused to connect (the host was "
                "reinstalled, or someone is intercepting the connection): if "
                "you know why it changed, remove the old key with "
                "ssh-keygen -f \"" +
                dir +
                "/changed_known_hosts\" -R "
                "\"[127.0.0.1]:" +
                port +
                "\" and check the new one with "
                "ssh changedhost");
}

TEST_F(SshAddressTest, AMissingServerSaysToInstallItOrGiveItsPath) {
  EXPECT_EQ(openFailure("ssh://lab/nowhere/executor-server"),
            "executor ssh://lab/nowhere/executor-server: no executor-server "
            "at /nowhere/executor-server on lab (install it there, or give "
            "its path: ssh://lab/path/to/executor-server)");
  // Not in the remote PATH either (the build tree is not on it).
  if (llvm::sys::findProgramByName("executor-server"))
    GTEST_SKIP() << "an executor-server is on PATH here";
  EXPECT_EQ(openFailure("ssh://root@lab"),
            "executor ssh://root@lab: no executor-server on lab: copy one "
            "there with executor-deploy ssh://root@lab (or install it, or "
            "give its path: ssh://root@lab/path/to/executor-server)");
}

// A program there that does not know --stdio (an older executor-server):
// what it said is read as such.
TEST_F(SshAddressTest, AnOlderServerSaysToUpdateIt) {
  std::string older = dir + "/older-executor-server";
  std::ofstream(older) << "#!/bin/sh\n"
                          "echo \"executor-server: Unknown command line "
                          "argument '$1'.  Try: 'executor-server --help'\" "
                          ">&2\nexit 1\n";
  chmod(older.c_str(), 0755);
  EXPECT_EQ(openFailure("ssh://lab" + older),
            "executor ssh://lab" + older +
                ": the executor-server on lab is older than --stdio, which "
                "ssh:// addresses run: install this version there");
}

TEST_F(SshAddressTest, HostileAddressesAreRefusedBeforeAnythingRuns) {
  std::string form =
      "; write it as ssh://[user@]host[:port][/path/to/executor-server]";
  std::string shell = " in its remote path, which the remote shell would "
                      "interpret; give a path of letters, digits and / . _ "
                      "- + , = @ % :";
  std::vector<std::pair<std::string, std::string>> cases = {
      {"ssh://-oProxyCommand=touch${IFS}/tmp/x",
       "has a host that starts with '-' (ssh would take it for an option)"},
      {"ssh://-oProxyCommand=x@lab",
       "has a user that starts with '-' (ssh would take it for an option)"},
      {"ssh://lab/bin/executor-server;touch${IFS}x",
       "has the character ';'" + shell},
      {"ssh://lab/opt/executor server", "has white space" + shell},
      {"ssh://lab/opt/$(id)/executor-server", "has the character '$'" + shell},
      {"ssh://lab/opt/`id`", "has the character '`'" + shell},
      {"ssh://lab/opt/a|b", "has the character '|'" + shell},
      {"ssh://", "has an empty host" + form},
      {"ssh:///usr/bin/executor-server", "has an empty host" + form},
      {"ssh://lab:22x", "has port '22x', not a number in [1, 65535]"},
      {"ssh://la b", "has the character ' ' in its host" + form},
  };
  for (const auto &[address, problem] : cases)
    EXPECT_EQ(openFailure(address),
              "executor " + address + ": address '" + address + "' " + problem)
        << address;
  // Nothing ran: not even ssh's control directory was made.
  EXPECT_FALSE(llvm::sys::fs::exists(getenv("EXECUTOR_SSH_CONTROL_DIR")));
}

TEST_F(SshAddressTest, KillingSshLeavesNoExecutorServerBehind) {
  // A path of this test's own: the processes it finds are its own (ctest
  // runs tests in parallel).
  std::string server = dir + "/killed/executor-server";
  llvm::sys::fs::create_directories(dir + "/killed");
  ASSERT_FALSE(llvm::sys::fs::create_link(kServer, server));
  auto client = ExecutorClient::open("ssh://lab" + server);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto out = (*client)->launch("k", kObjectA, {vec({1})}, {{1, 8}});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  // The remote side: executor-server --stdio and its session processes.
  std::vector<pid_t> remote = stdioServers(server);
  ASSERT_GE(remote.size(), 2u) << "the server and its session";
  std::vector<pid_t> ssh = childrenNamed("ssh");
  ASSERT_EQ(ssh.size(), 1u);
  ::kill(ssh[0], SIGKILL);
  // EOF on its standard input ends the session and the server.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::vector<pid_t> left = remote;
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    left.clear();
    for (pid_t pid : stdioServers(server))
      if (std::find(remote.begin(), remote.end(), pid) != remote.end())
        left.push_back(pid);
  }
  EXPECT_TRUE(left.empty()) << left.size()
                            << " executor-server processes "
                               "outlived the ssh that started them";
  // The client's next call fails, and says the session was lost.
  auto after = (*client)->launch("k", kObjectA, {vec({1})}, {{1, 8}});
  EXPECT_FALSE(static_cast<bool>(after));
  if (!after)
    llvm::consumeError(after.takeError());
}

TEST_F(SshAddressTest, ACrashingKernelIsReportedOverSsh) {
  std::string address = "ssh://lab" + kServer;
  auto client = ExecutorClient::open(address);
  ASSERT_TRUE(static_cast<bool>(client)) << llvm::toString(client.takeError());
  ASSERT_FALSE(static_cast<bool>((*client)->sendBinary(kObjectA)));
  auto crashed = (*client)->launch("crash", kObjectA, {}, {});
  ASSERT_FALSE(static_cast<bool>(crashed));
  std::string message = llvm::toString(crashed.takeError());
  // The session's crash report crossed the pipe before the session ended.
  std::string first = message.substr(0, message.find('\n'));
  EXPECT_NE(first.find("executor " + address + ": lost the session"),
            std::string::npos)
      << message;
  EXPECT_NE(first.find("kernel crash crashed with signal 11 (Segmentation "
                       "fault)"),
            std::string::npos)
      << message;
}

// Not through ssh: executor-server --stdio on a terminal.
TEST(ExecutorServerStdio, ATerminalGetsOneLineAndStatus2) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  std::string log = ::testing::TempDir() + "/executor-stdio-terminal.log";
  executor_studio::Subprocess server;
  executor_studio::SubprocessOptions options;
  options.in = executor_studio::Redirect::descriptor(terminal);
  options.out = executor_studio::Redirect::descriptor(terminal);
  options.err = executor_studio::Redirect::file(log);
  ASSERT_FALSE(static_cast<bool>(server.start({kServer, "--stdio"}, options)));
  ASSERT_TRUE(server.waitFor(std::chrono::seconds(10)));
  ::close(terminal);
  ::close(master);
  EXPECT_EQ(server.exitCode(), 2);
  EXPECT_EQ(readFile(log),
            "executor-server: --stdio speaks ORC's binary protocol on "
            "standard input and output for the client that starts it (an "
            "ssh:// address); not on a terminal: to serve clients that "
            "connect, start it with --bind\n");
}
