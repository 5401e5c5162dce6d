//===- SshServer.h - Debian's sshd on loopback, for tests and benches -*- C++ -*-===//
//
// Real OpenSSH, no mocks: start() runs Debian's sshd (as root) on a free
// loopback port with a generated host key and a generated user key in its
// AuthorizedKeysFile, and writes an ssh config (config(); the tests give it
// to the client as EXECUTOR_SSH_CONFIG) whose aliases reach it: `lab` (the
// user key, the host key known), `stranger` (a key the host does not
// accept), `newhost` (known_hosts without the host key) and `changedhost`
// (known_hosts with another key for it). The ssh:// tests
// (SshAddressTest.cpp) and executor-runtime-bench --remote share it.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_SSHSERVER_H
#define TESTS_SUPPORT_SSHSERVER_H

#include "ExecutorRuntime/Socket.h"
#include "TestFiles.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace executor_test {

class SshServer {
public:
  SshServer() = default;
  SshServer(const SshServer &) = delete;
  SshServer &operator=(const SshServer &) = delete;
  ~SshServer() { stop(); }

  /// Starts sshd; "" when it runs, else why it cannot here (a reason to
  /// skip: no root, no sshd or ssh, a failed start).
  std::string start() {
    if (getuid() != 0 || access("/usr/sbin/sshd", X_OK) != 0 ||
        !llvm::sys::findProgramByName("ssh") ||
        !llvm::sys::findProgramByName("ssh-keygen"))
      return "needs root, /usr/sbin/sshd, ssh and ssh-keygen "
             "(openssh-server, openssh-client)";
    // Short: ssh's control sockets live under it (sockaddr_un).
    char templ[] = "/tmp/ssh-test-XXXXXX";
    if (!mkdtemp(templ))
      return "cannot make a directory under /tmp";
    directory = templ;
    for (const char *key : {"host", "user", "stranger", "otherhost"})
      if (!run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key,
                "-f", directory + "/" + key}))
        return "ssh-keygen failed";
    llvm::sys::fs::copy_file(directory + "/user.pub",
                             directory + "/authorized_keys");
    std::string address;
    int fd = executor_studio::runtime::bindLoopback(/*listen=*/false, address);
    ::close(fd);
    portNumber = address.substr(address.rfind(':') + 1);
    std::ofstream(directory + "/sshd_config")
        << "HostKey " << directory << "/host\n"
        << "ListenAddress 127.0.0.1\n"
        << "AuthorizedKeysFile " << directory << "/authorized_keys\n"
        << "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
        << "KbdInteractiveAuthentication no\nPermitRootLogin yes\n"
        << "PidFile none\n"
        // The remote user's cache, where executor-deploy's copies would be
        // (none here: an address without a path finds none).
        << "SetEnv XDG_CACHE_HOME=" << directory << "/cache\n";
    std::string hostKey = firstLine(directory + "/host.pub");
    std::string otherKey = firstLine(directory + "/otherhost.pub");
    std::string entry = "[127.0.0.1]:" + portNumber + " ";
    std::ofstream(directory + "/known_hosts") << entry << hostKey << "\n";
    std::ofstream(directory + "/changed_known_hosts")
        << entry << otherKey << "\n";
    std::ofstream(directory + "/empty_known_hosts");
    std::ofstream out(config());
    auto alias = [&](const std::string &name, const std::string &key,
                     const std::string &knownHosts) {
      out << "Host " << name << "\n  HostName 127.0.0.1\n  Port " << portNumber
          << "\n  User root\n  IdentityFile " << directory << "/" << key
          << "\n  IdentitiesOnly yes\n  IdentityAgent none\n"
          << "  GlobalKnownHostsFile /dev/null\n  UserKnownHostsFile "
          << directory << "/" << knownHosts << "\n";
    };
    alias("lab", "user", "known_hosts");
    alias("stranger", "stranger", "known_hosts");
    alias("newhost", "user", "empty_known_hosts");
    alias("changedhost", "user", "changed_known_hosts");
    out.close();
    llvm::sys::fs::create_directories("/run/sshd"); // privilege separation
    executor_studio::SubprocessOptions options;
    options.err = executor_studio::Redirect::file(directory + "/sshd.log");
    options.newProcessGroup = true;
    sshd = std::make_unique<executor_studio::Subprocess>();
    if (llvm::Error err = sshd->start({"/usr/sbin/sshd", "-D", "-e", "-f",
                                       directory + "/sshd_config", "-p",
                                       portNumber},
                                      options))
      return "cannot start sshd: " + llvm::toString(std::move(err));
    // Up once it accepts connections.
    for (int tries = 0; tries < 500; ++tries) {
      std::string why;
      int fd = executor_studio::runtime::connectTo(
          "127.0.0.1:" + portNumber, std::chrono::milliseconds(100), why);
      if (fd >= 0) {
        ::close(fd);
        return "";
      }
      if (sshd->poll())
        return "sshd exited: " + readFile(directory + "/sshd.log");
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return "sshd did not accept connections: " +
           readFile(directory + "/sshd.log");
  }

  /// Ends the control master (ControlPersist) that ssh left for `lab`
  /// under `controlDirectory`, if any.
  void exitControlMaster(const std::string &controlDirectory) const {
    run({"ssh", "-F", config(), "-o", "ControlPath=" + controlDirectory + "/%C",
         "-O", "exit", "lab"});
  }

  /// Stops sshd and removes its directory. Idempotent.
  void stop() {
    sshd.reset(); // SIGKILL to its group
    if (!directory.empty())
      llvm::sys::fs::remove_directories(directory);
    directory.clear();
  }

  /// Its directory (keys, configs, known_hosts files, sshd.log).
  const std::string &dir() const { return directory; }
  const std::string &port() const { return portNumber; }
  /// The ssh config with the aliases.
  std::string config() const { return directory + "/ssh_config"; }

  /// Runs `args` (found on PATH), its output dropped; whether it exited 0
  /// within 30 s.
  static bool run(const std::vector<std::string> &args) {
    executor_studio::Subprocess process;
    executor_studio::SubprocessOptions options;
    options.searchPath = true;
    options.out = executor_studio::Redirect::null();
    if (process.start(args, options))
      return false;
    process.waitFor(std::chrono::seconds(30));
    return process.exitCode() == 0;
  }

private:
  static std::string firstLine(const std::string &path) {
    std::string text = readFile(path);
    return text.substr(0, text.find('\n'));
  }

  std::string directory, portNumber;
  std::unique_ptr<executor_studio::Subprocess> sshd;
};

} // namespace executor_test

#endif // TESTS_SUPPORT_SSHSERVER_H
