//===- executor-deploy.cpp - copy executor-server to an ssh:// host -------===//
//
//   executor-deploy ssh://[USER@]HOST[:PORT] [--server=PATH...]
//
// Asks HOST its architecture (`uname -m`, through the system's ssh, as an
// ssh:// address runs it: SshConnect.h), picks the self-contained
// executor-server built for it (it needs only glibc there), and copies it
// through ssh's standard input into
//   ${XDG_CACHE_HOME:-$HOME/.cache}/executor-studio/VERSION-SHA/executor-server
// (SHA: the first 16 hex digits of its SHA-256), where the remote
// sha256sum checks it before it takes its name. A copy already there with
// the right checksum is left alone (and said so); a damaged one is
// replaced. Prints the address to use: ssh://[USER@]HOST[:PORT], whose
// remote command (deployedServerLauncher) runs that copy.
//
// Every remote command is fixed text with this build's version and the
// copy's checksum in it: nothing of the address reaches the remote shell,
// and the address is checked (Address.h) before anything runs.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Support/Address.h"
#include "ExecutorRuntime/SshConnect.h"
#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

using namespace llvm;
using namespace executor_studio;
using namespace executor_studio::runtime;

static cl::OptionCategory category("executor-deploy options");
static cl::opt<std::string> address(cl::Positional, cl::Required,
                                    cl::value_desc("ssh://[user@]host[:port]"),
                                    cl::desc("<ssh://[user@]host[:port]>"),
                                    cl::cat(category));
static cl::list<std::string> serverFlags(
    "server", cl::value_desc("PATH"), cl::cat(category),
    cl::desc("a self-contained executor-server to copy when the remote has "
             "its architecture (repeatable; read from its ELF header); by "
             "default the one beside executor-deploy, "
             "../libexec/executor-studio/ARCH/executor-server, and the "
             "aarch64 build's (scripts/cross/build-aarch64.sh)"));
static cl::opt<unsigned> timeoutSeconds(
    "timeout", cl::init(300), cl::value_desc("SECONDS"), cl::cat(category),
    cl::desc("how long each ssh command may take, the copy included"));

namespace {
[[noreturn]] void fail(const std::string &why) {
  errs() << "executor-deploy: " << why << "\n";
  std::exit(1);
}

struct Ran {
  int code = 0; // -2: a signal, -3: timed out
  std::string out, err;
};

/// Runs `args` (never through a shell here), `in` (-1: nothing) as its
/// standard input, up to `timeout`; its exit code and output.
Ran runCaptured(const std::vector<std::string> &args, int in,
                std::chrono::seconds timeout) {
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
    fail(std::string("cannot make a pipe: ") + std::strerror(errno));
  SubprocessOptions options;
  options.in = in >= 0 ? Redirect::descriptor(in) : Redirect::null();
  options.out = Redirect::descriptor(out[1]);
  options.err = Redirect::descriptor(err[1]);
  options.searchPath = true;
  Subprocess child;
  Error started = child.start(args, options);
  ::close(out[1]);
  ::close(err[1]);
  if (started)
    fail("cannot start " + args.front() + " (" + toString(std::move(started)) +
         "); install OpenSSH's client (Debian: openssh-client)");
  Ran ran;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string *into[2] = {&ran.out, &ran.err};
  int open = 2;
  bool late = false;
  while (open > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      late = true;
      break;
    }
    int n = ::poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR)
      continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char buffer[4096];
      ssize_t got = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (got > 0) {
        into[i]->append(buffer, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (pollfd &fd : fds)
    if (fd.fd >= 0)
      ::close(fd.fd);
  if (late) {
    child.terminate(std::chrono::seconds(1));
    ran.code = -3;
    return ran;
  }
  if (!child.waitFor(std::chrono::seconds(10)))
    child.terminate(std::chrono::seconds(1));
  ran.code = child.exitCode();
  return ran;
}

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' ||
                           text.back() == ' '))
    text.pop_back();
  return text;
}

/// The architecture of the ELF executable at `path` ("x86_64",
/// "aarch64"), "" when it is none of these or not readable.
std::string elfArchitecture(const std::string &path) {
  unsigned char header[20];
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return "";
  ssize_t got = ::read(fd, header, sizeof(header));
  ::close(fd);
  if (got != static_cast<ssize_t>(sizeof(header)) ||
      std::memcmp(header, "\x7f"
                          "ELF",
                  4) != 0 ||
      header[4] != 2 /*ELFCLASS64*/ || header[5] != 1 /*little-endian*/)
    return "";
  unsigned machine = header[18] | (header[19] << 8);
  return machine == 62 ? "x86_64" : machine == 183 ? "aarch64" : "";
}

/// `uname -m`'s answer as an architecture executor-deploy has servers for.
std::string normalArchitecture(const std::string &machine) {
  if (machine == "x86_64" || machine == "amd64")
    return "x86_64";
  if (machine == "aarch64" || machine == "arm64" || machine == "aarch64_be")
    return machine == "aarch64_be" ? "" : "aarch64";
  return "";
}

/// The executor-server to copy to a host of architecture `arch`, or "" with
/// the places looked at in `looked`.
std::string findServer(const std::string &arch, const std::string &self,
                       std::vector<std::string> &looked) {
  std::vector<std::string> candidates(serverFlags.begin(), serverFlags.end());
  SmallString<256> dir(sys::path::parent_path(self));
  candidates.push_back((dir + "/executor-server").str());
  candidates.push_back(
      (dir + "/../libexec/executor-studio/" + arch + "/executor-server").str());
  if (arch == "aarch64")
    candidates.push_back(EXECUTOR_STUDIO_AARCH64_SERVER);
  for (std::string candidate : candidates) {
    SmallString<256> clean(candidate);
    sys::path::remove_dots(clean, /*remove_dot_dot=*/true);
    candidate = clean.str().str();
    looked.push_back(candidate);
    if (elfArchitecture(candidate) == arch)
      return candidate;
  }
  return "";
}

/// The newest glibc symbol version (GLIBC_2.N) `binary` names: N, or -1.
int newestGlibcMinor(StringRef binary) {
  int newest = -1;
  for (size_t at = binary.find("GLIBC_2."); at != StringRef::npos;
       at = binary.find("GLIBC_2.", at + 1)) {
    StringRef digits = binary.substr(at + 8).take_while(isDigit);
    int minor;
    if (!digits.empty() && !digits.getAsInteger(10, minor))
      newest = std::max(newest, minor);
  }
  return newest;
}

std::string howToBuild(const std::string &arch) {
  if (arch == "aarch64")
    return "build it with scripts/cross/build-aarch64.sh executor-server "
           "(it lands in build-aarch64/bin/executor-server), or give one "
           "with --server=PATH";
  return "build it with scripts/build.sh executor-server (it lands in "
         "build/bin/executor-server), or give one with --server=PATH";
}
} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "Executor Studio " EXECUTOR_STUDIO_VERSION " (executor-deploy)\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "Copies a self-contained executor-server for the host's architecture "
      "into the remote user's cache (checked by SHA-256 there) and prints "
      "the ssh:// address that runs it\n");

  // Refused before anything runs.
  if (!isSshAddress(address))
    fail("'" + address + "' is not an ssh:// address; give the host as " +
         "ssh://[user@]host[:port] (e.g. executor-deploy ssh://lab)");
  AddressParts parts;
  if (std::string problem = parseAddress(address, &parts); !problem.empty())
    fail("address \"" + address + "\" " + problem);
  if (!parts.path.empty())
    fail("address \"" + address + "\" has a remote path (" + parts.path +
         "); executor-deploy chooses where the copy goes (the remote "
         "user's cache): give ssh://[user@]host[:port]");
  std::string plain = sshAddressText(parts);
  std::string why;
  std::string control = sshControlDirectory(why);
  if (control.empty())
    fail(why);
  std::chrono::seconds timeout(timeoutSeconds);
  std::chrono::milliseconds connectTimeout(20000);
  auto explain = [&](const Ran &ran, const std::string &what) -> std::string {
    if (ran.code == -3)
      return what + " on " + parts.host + " took longer than " +
             std::to_string(timeoutSeconds) +
             " s (--timeout=SECONDS); is the host reachable (ssh " +
             (parts.user.empty() ? "" : parts.user + "@") + parts.host + ")?";
    if (ran.code == 255 || ran.code == -2)
      return explainSshFailure(parts, ran.err, ran.code);
    std::string said = lastLines(ran.err);
    return what + " on " + parts.host + " failed (exit code " +
           std::to_string(ran.code) + ")" +
           (said.empty() ? "" : ": " + said);
  };

  // 1. Its architecture.
  // (and its glibc's version, which the copy must not be newer than)
  Ran uname = runCaptured(
      sshCommand(parts, control, connectTimeout,
                 {"sh -c 'uname -m; getconf GNU_LIBC_VERSION 2>/dev/null; "
                  "exit 0'"}),
      -1, timeout);
  if (uname.code != 0)
    fail(explain(uname, "uname -m"));
  SmallVector<StringRef, 2> lines;
  StringRef(uname.out).split(lines, '\n', 2, /*KeepEmpty=*/false);
  std::string machine = lines.empty() ? "" : trim(lines[0].str());
  int remoteGlibc = -1;
  if (lines.size() > 1 && lines[1].consume_front("glibc 2."))
    if (lines[1].trim().getAsInteger(10, remoteGlibc))
      remoteGlibc = -1;
  std::string arch = normalArchitecture(machine);
  if (arch.empty())
    fail(parts.host + " is a '" + machine +
         "' machine (uname -m), and executor-deploy has servers for x86_64 "
         "and aarch64 only: build executor-server on that host (docs/"
         "executors.md), and give its path: " +
         plain + "/path/to/executor-server");
  outs() << parts.host << ": " << machine << " (uname -m)\n";

  // 2. The copy for it, and its checksum.
  std::string self = sys::fs::getMainExecutable(argv[0], (void *)&main);
  std::vector<std::string> looked;
  std::string server = findServer(arch, self, looked);
  if (server.empty())
    fail("no " + arch + " executor-server here to copy to " + parts.host +
         " (looked at " + join(looked, ", ") + "): " + howToBuild(arch));
  auto contents = MemoryBuffer::getFile(server, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
  if (!contents)
    fail("cannot read " + server + ": " + contents.getError().message());
  int needsGlibc = newestGlibcMinor((*contents)->getBuffer());
  if (remoteGlibc >= 0 && needsGlibc > remoteGlibc)
    fail(parts.host + " has glibc 2." + std::to_string(remoteGlibc) + ", and " +
         server + " needs glibc 2." + std::to_string(needsGlibc) +
         " or newer: build executor-server on a system whose glibc is no "
         "newer than " + parts.host + "'s (e.g. its own distribution "
         "release), and give it with --server=PATH");
  auto digest = SHA256::hash(arrayRefFromStringRef((*contents)->getBuffer()));
  std::string sha = toHex(digest, /*LowerCase=*/true);
  std::string version = EXECUTOR_STUDIO_VERSION;
  // Fixed text, this build's version (digits and dots) and hex digits.
  std::string directory = remoteDeployDirectory() + "/" + version + "-" +
                          sha.substr(0, 16);
  std::string sum = "\"$(sha256sum < \"$f\" | cut -c1-64)\" = " + sha;

  // 3. Whether it is there already.
  Ran status = runCaptured(
      sshCommand(parts, control, connectTimeout,
                 {"sh -c 'command -v sha256sum >/dev/null 2>&1 || { echo "
                  "no-sha256sum; exit 0; }; f=" +
                  directory +
                  "/executor-server; if [ ! -e \"$f\" ]; then echo "
                  "\"absent $f\"; elif [ -x \"$f\" ] && [ " +
                  sum +
                  " ]; then echo \"present $f\"; else echo \"damaged "
                  "$f\"; fi'"}),
      -1, timeout);
  if (status.code != 0)
    fail(explain(status, "looking for the copy"));
  std::string state = trim(status.out);
  if (state == "no-sha256sum")
    fail(parts.host + " has no sha256sum, which checks the copy there: "
                      "install GNU coreutils on it (Debian: coreutils)");
  size_t space = state.find(' ');
  std::string word = state.substr(0, space);
  std::string remotePath =
      space == std::string::npos ? "" : state.substr(space + 1);
  if (remotePath.empty() ||
      (word != "absent" && word != "present" && word != "damaged"))
    fail("unexpected answer from " + parts.host + " while looking for the "
         "copy: '" + state + "' (is its shell a POSIX sh?)");
  std::string described = "executor-server " + version + " for " + arch +
                          " (sha256 " + sha.substr(0, 16) + ")";
  if (word == "present") {
    outs() << described << " is already on " << parts.host << " at "
           << remotePath << "; nothing to copy\n";
  } else {
    if (word == "damaged")
      outs() << "the copy on " << parts.host << " at " << remotePath
             << " is damaged (its SHA-256 is not " << sha
             << "); replacing it\n";
    // 4. The copy, through ssh's standard input.
    int in = ::open(server.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0)
      fail("cannot open " + server + ": " + std::strerror(errno));
    Ran copy = runCaptured(
        sshCommand(parts, control, connectTimeout,
                   {"sh -c 'd=" + directory +
                    "; f=$d/executor-server.part; mkdir -p \"$d\" && cat > "
                    "\"$f\" && chmod 755 \"$f\" && if [ " +
                    sum +
                    " ]; then mv -f \"$f\" \"$d/executor-server\" && echo "
                    "copied; else rm -f \"$f\"; echo mismatch; fi'"}),
        in, timeout);
    ::close(in);
    if (copy.code != 0)
      fail(explain(copy, "copying " + server));
    if (trim(copy.out) == "mismatch")
      fail("the copy on " + parts.host + " does not have the SHA-256 of " +
           server + " (" + sha +
           "): the transfer was damaged, or the disk there is full; run "
           "executor-deploy again");
    if (trim(copy.out) != "copied")
      fail("unexpected answer from " + parts.host + " after the copy: '" +
           trim(copy.out) + "'");
    outs() << "copied " << described << " from " << server << " to "
           << parts.host << " at " << remotePath
           << " (SHA-256 checked there)\n";
  }
  outs() << "use the address " << plain << "\n";
  return 0;
}
