//===- SshConnect.cpp - a session through OpenSSH's ssh -------------------===//
#include "ExecutorRuntime/SshConnect.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Stream.h"
#include "ExecutorRuntime/TlsStream.h"

#include "ExecutorStudio/Support/Subprocess.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace executor_studio::runtime {

namespace {
Error failure(const std::string &why) {
  return createStringError(inconvertibleErrorCode(), why);
}

/// `target` as ssh-copy-id and ssh take it: USER@HOST, or HOST.
std::string target(const AddressParts &parts) {
  return parts.user.empty() ? parts.host : parts.user + "@" + parts.host;
}

bool contains(const std::string &text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

/// The child (ssh, srun) and its standard error: the last few KiB kept for the
/// messages, and, once the session runs, every line passed on to this
/// process's standard error (the remote executor-server's log).
class ProgramProcess {
public:
  ~ProgramProcess() { finish(std::chrono::seconds(3)); }

  Error start(const std::vector<std::string> &args, int session,
              const std::string &installHint) {
    int err[2];
    if (pipe2(err, O_CLOEXEC) != 0)
      return failure(("cannot make a pipe for " + args.front() + ": ") +
                     std::strerror(errno));
    SubprocessOptions options;
    options.in = Redirect::descriptor(session);
    options.out = Redirect::descriptor(session);
    options.err = Redirect::descriptor(err[1]);
    options.searchPath = true;
    program = args.front();
    Error started = child.start(args, options);
    ::close(err[1]);
    if (started) {
      ::close(err[0]);
      return failure("cannot start " + args.front() + " (" +
                     toString(std::move(started)) + "); " + installHint);
    }
    int from = err[0];
    reader = std::thread([this, from] {
      char buffer[4096];
      std::string line;
      ssize_t n;
      while ((n = ::read(from, buffer, sizeof(buffer))) > 0 ||
             (n < 0 && errno == EINTR)) {
        if (n <= 0)
          continue;
        std::lock_guard<std::mutex> lock(mutex);
        said.append(buffer, static_cast<size_t>(n));
        if (said.size() > 16384)
          said.erase(0, said.size() - 8192);
        if (forward) {
          line.append(buffer, static_cast<size_t>(n));
          size_t end = line.rfind('\n');
          if (end != std::string::npos) {
            (void)!::write(STDERR_FILENO, line.data(), end + 1);
            line.erase(0, end + 1);
          }
        }
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (forward && !line.empty()) {
        line += '\n';
        (void)!::write(STDERR_FILENO, line.data(), line.size());
      }
      ::close(from);
    });
    return Error::success();
  }

  /// From now on its lines go to this process's standard error.
  void forwardFromNow() {
    std::lock_guard<std::mutex> lock(mutex);
    forward = true;
  }

  /// Waits up to `grace` for ssh to exit (its input ended), then kills it;
  /// what it said and its exit code.
  int finish(std::chrono::milliseconds grace) {
    if (child.running() && !child.waitFor(grace))
      child.terminate(std::chrono::seconds(1));
    if (reader.joinable())
      reader.join();
    return child.exitCode();
  }

  const std::string &name() const { return program; }

  std::string standardError() {
    std::lock_guard<std::mutex> lock(mutex);
    return said;
  }

private:
  Subprocess child;
  std::string program;
  std::thread reader;
  std::mutex mutex;
  std::string said;
  bool forward = false;
};

/// The socket to the child's standard input and output; the child is
/// owned by it.
class ProgramStream final : public Stream {
public:
  ProgramStream(std::unique_ptr<Stream> socket,
                std::unique_ptr<ProgramProcess> child)
      : socket(std::move(socket)), child(std::move(child)) {}
  ~ProgramStream() override {
    socket.reset(); // ssh sees the end of its input, the session its own
    child.reset();
  }
  int fd() const override { return socket->fd(); }
  ssize_t read(char *into, size_t size, bool dontWait,
               std::deque<int> &passed) override {
    return socket->read(into, size, dontWait, passed);
  }
  Error write(iovec *parts, size_t count, int passFd) override {
    return socket->write(parts, count, passFd);
  }
  void writeBeforeExit(const char *data, size_t size) override {
    socket->writeBeforeExit(data, size);
  }
  std::string lastError() const override { return socket->lastError(); }
  void shutdown() override { socket->shutdown(); }
  std::string security() const override { return child->name(); }

private:
  std::unique_ptr<Stream> socket;
  std::unique_ptr<ProgramProcess> child;
};
} // namespace

std::string sshControlDirectory(std::string &why) {
  std::string dir;
  if (const char *chosen = std::getenv("EXECUTOR_SSH_CONTROL_DIR");
      chosen && *chosen)
    dir = chosen;
  else if (const char *runtime = std::getenv("XDG_RUNTIME_DIR");
           runtime && runtime[0] == '/' && access(runtime, W_OK) == 0)
    dir = std::string(runtime) + "/executor-studio-ssh";
  else
    dir = "/tmp/executor-studio-ssh-" + std::to_string(getuid());
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    why = "cannot make ssh's control directory " + dir + ": " +
          std::strerror(errno);
    return "";
  }
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
      st.st_uid != getuid() || (st.st_mode & 077) != 0) {
    why = "ssh's control directory " + dir +
          " is not a directory of this "
          "user's that only it can enter (mode 0700); remove it, or set "
          "EXECUTOR_SSH_CONTROL_DIR to one";
    return "";
  }
  return dir;
}

std::string sshAddressText(const AddressParts &parts) {
  std::string host = parts.host.find(':') != std::string::npos
                         ? "[" + parts.host + "]"
                         : parts.host;
  return std::string(kSshAddressPrefix) +
         (parts.user.empty() ? "" : parts.user + "@") + host +
         (parts.port.empty() ? "" : ":" + parts.port);
}

std::string lastLines(const std::string &said) {
  std::string last;
  size_t end = said.size();
  for (int lines = 0; lines < 3 && end > 0;) {
    size_t start = said.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string line = said.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
      line.pop_back();
    if (!line.empty()) {
      last = line + (last.empty() ? "" : "; " + last);
      ++lines;
    }
    end = start > 0 ? start - 1 : 0;
  }
  return last;
}

std::vector<std::string>
sshCommand(const AddressParts &parts, const std::string &controlDirectory,
           std::chrono::milliseconds connectTimeout,
           const std::vector<std::string> &remoteCommand) {
  long seconds = std::max<long>(
      1, static_cast<long>((connectTimeout.count() + 999) / 1000));
  std::vector<std::string> args = {
      "ssh", "-T",
      "-o",  "BatchMode=yes",
      "-o",  "ServerAliveInterval=15",
      "-o",  "ControlMaster=auto",
      "-o",  "ControlPath=" + controlDirectory + "/%C",
      "-o",  "ControlPersist=60",
      "-o",  "ConnectTimeout=" + std::to_string(seconds)};
  if (const char *config = std::getenv("EXECUTOR_SSH_CONFIG");
      config && *config)
    args.insert(args.end(), {"-F", config});
  if (!parts.port.empty())
    args.insert(args.end(), {"-p", parts.port});
  if (!parts.user.empty())
    args.insert(args.end(), {"-l", parts.user});
  args.insert(args.end(), {"--", parts.host});
  if (!remoteCommand.empty())
    args.insert(args.end(), remoteCommand.begin(), remoteCommand.end());
  else if (!parts.path.empty())
    // A path the address grammar let through only of characters no shell
    // interprets.
    args.insert(args.end(), {parts.path, "--stdio"});
  else
    args.push_back(deployedServerLauncher());
  return args;
}

std::string remoteDeployDirectory() {
  return "\"${XDG_CACHE_HOME:-$HOME/.cache}/executor-studio\"";
}

std::string deployedServerLauncher() {
  // Fixed text (and this build's version): nothing the address says.
  std::string script =
      "c=" + remoteDeployDirectory() +
      "; s=; for f in \"$c\"/" EXECUTOR_STUDIO_VERSION
      "-*/executor-server; do d=${f%/executor-server}; h=${d##*-}; "
      "[ ${#h} -eq 16 ] && [ -x \"$f\" ] || continue; "
      "if [ -z \"$s\" ] || [ \"$f\" -nt \"$s\" ]; then s=$f; fi; done; "
      "if [ -z \"$s\" ]; then exec executor-server --stdio; fi; "
      "d=${s%/executor-server}; h=${d##*-}; "
      "case \"$(sha256sum < \"$s\" 2>/dev/null)\" in \"$h\"*) "
      "exec \"$s\" --stdio;; esac; "
      "echo \"" +
      std::string(kDamagedDeployment) +
      ": $s does not have the checksum its directory names\" >&2; exit 125";
  return "sh -c '" + script + "'";
}

std::string explainSshFailure(const AddressParts &parts,
                              const std::string &said, int exitCode) {
  std::string host = parts.host;
  std::string who = target(parts);
  if (contains(said, "REMOTE HOST IDENTIFICATION HAS CHANGED")) {
    // ssh names the known_hosts file and the entry: its command, if it
    // gave one.
    std::string remove = "ssh-keygen -R " + host;
    if (size_t at = said.find("ssh-keygen -f "); at != std::string::npos) {
      size_t end = said.find_first_of("\r\n", at);
      remove = said.substr(at, end == std::string::npos ? end : end - at);
    }
    return "the host key of " + host +
           " has changed since known_hosts "
           "recorded it, and ssh refused to connect (the host was "
           "reinstalled, or someone is intercepting the connection): if you "
           "know why it changed, remove the old key with " +
           remove + " and check the new one with ssh " + who;
  }
  if (contains(said, "Host key verification failed"))
    return "ssh cannot verify the host key of " + host +
           " (Host key "
           "verification failed: known_hosts does not have it, and no "
           "question is asked here): check and record it by connecting "
           "once with ssh " +
           who +
           " (a key that changed on purpose: "
           "ssh-keygen -R " +
           host + " first)";
  if (contains(said, "Permission denied"))
    return "ssh could not log in to " + who +
           ": no key the host accepts: "
           "ssh-copy-id " +
           (parts.port.empty() ? "" : "-p " + parts.port + " ") + who;
  if (contains(said, "Unknown command line argument '--stdio'"))
    return "the executor-server on " + host + " is older than --stdio, "
           "which ssh:// addresses run: install this version there";
  bool notFound = exitCode == 127 || contains(said, "command not found") ||
                  contains(said, ": not found");
  std::string pathForm = "ssh://" + who +
                         (parts.port.empty() ? "" : ":" + parts.port) +
                         "/path/to/executor-server";
  if (contains(said, kDamagedDeployment))
    return "the executor-server that executor-deploy copied to " + host +
           " is damaged (its checksum does not match): copy it again with "
           "executor-deploy " + sshAddressText(parts);
  if (notFound && parts.path.empty())
    return "no executor-server on " + host +
           ": copy one there with executor-deploy " + sshAddressText(parts) +
           " (or install it, or give its path: " + pathForm + ")";
  if (notFound)
    return "no executor-server at " + parts.path + " on " + host +
           " (install it there, or give its path: " + pathForm + ")";
  if (exitCode == 126 && (contains(said, "Exec format error") ||
                          contains(said, "cannot execute binary file")))
    return (parts.path.empty() ? "the executor-server that ran"
                               : parts.path) +
           " on " + host +
           " is a program for another architecture (Exec format error): "
           "copy the one for " + host + "'s architecture (uname -m there) "
           "with executor-deploy " + sshAddressText(parts) +
           ", or give the path of one built there: " + pathForm;
  if (exitCode == 126)
    return (parts.path.empty() ? "executor-server" : parts.path) + " on " +
           host +
           " is not a program this user may "
           "run (chmod +x, or give the path of executor-server: " +
           pathForm + ")";
  std::string last = lastLines(said);
  std::string how =
      exitCode == 255  ? "ssh failed"
      : exitCode == -2 ? "ssh was killed"
                       : "ssh ended with exit code " + std::to_string(exitCode);
  return how + (last.empty() ? " and said nothing" : ": " + last);
}

Expected<std::unique_ptr<Stream>> connectThroughProgram(
    const std::vector<std::string> &args, std::chrono::milliseconds wait,
    const std::string &installHint,
    function_ref<std::string(const std::string &, int, const std::string &)>
        explain) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return failure("cannot make a socket pair for " + args.front() + ": " +
                   std::strerror(errno));
  auto child = std::make_unique<ProgramProcess>();
  Error started = child->start(args, fds[1], installHint);
  ::close(fds[1]);
  if (started) {
    ::close(fds[0]);
    return std::move(started);
  }
  ClientSecurity security;
  security.timeout = wait;
  std::unique_ptr<TlsStream> none;
  std::string why;
  if (!clientHandshake(fds[0], security, none, why)) {
    ::close(fds[0]);
    int code = child->finish(std::chrono::seconds(5));
    return failure(explain(child->standardError(), code, why));
  }
  child->forwardFromNow();
  return std::make_unique<ProgramStream>(socketStream(fds[0]),
                                         std::move(child));
}

Expected<std::unique_ptr<Stream>> connectSsh(const AddressParts &parts,
                                             const ClientOptions &options) {
  std::string why;
  std::string directory = sshControlDirectory(why);
  if (directory.empty())
    return failure(why);
  // Logging in takes longer than a TCP connection: the handshake's time
  // counts from when ssh has had its connection time-out.
  auto wait = options.connectTimeout +
              std::max<std::chrono::milliseconds>(options.handshakeTimeout,
                                                  std::chrono::seconds(20));
  return connectThroughProgram(
      sshCommand(parts, directory, options.connectTimeout), wait,
      "install OpenSSH's client (Debian: openssh-client)",
      [&](const std::string &said, int code, const std::string &why) {
        if (why.rfind("refused the session", 0) == 0)
          return "executor-server on " + parts.host + " " + why;
        std::string explained = explainSshFailure(parts, said, code);
        if (code == -2 && explained.rfind("ssh was killed", 0) == 0)
          explained = "the executor-server that ssh started on " + parts.host +
                      " " + why + explained.substr(14);
        return explained;
      });
}

} // namespace executor_studio::runtime
