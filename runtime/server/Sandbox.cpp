//===- Sandbox.cpp - what a session process may do ------------------------===//
#include "Sandbox.h"
#include "CrashReport.h"
#include "LaunchService.h"
#include "Limits.h"
#include "LogText.h"
#include "MemoryCgroup.h"
#include "Privileges.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <functional>
#include <seccomp.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace executor_studio::runtime {

std::string leaveTerminal() {
  if (setsid() < 0)
    return std::string("cannot leave the server's terminal (setsid): ") +
           std::strerror(errno);
  return "";
}

std::string openLogRelay(LogRelay &relay) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0)
    return std::string("cannot make the session's log pipe: ") +
           std::strerror(errno);
  relay.readEnd = ends[0];
  relay.writeEnd = ends[1];
  return "";
}

void writeLogToRelay(LogRelay &relay) {
  std::fflush(nullptr);
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    close(null);
  }
  dup2(relay.writeEnd, STDOUT_FILENO);
  dup2(relay.writeEnd, STDERR_FILENO);
  close(relay.writeEnd);
  close(relay.readEnd);
  relay = {};
}

namespace {
void writeLine(const std::string &text) {
  (void)writeAllTo(STDERR_FILENO, text.data(), text.size());
}

/// The keeper's relay (LogRelay): the session's log, line by line. With a
/// `gather` time, lines are written in batches: when the oldest unwritten
/// one is that old, 64 KiB are waiting, or the log ends (--stdio: each
/// write to ssh's or srun's pipe is a message of its own across the
/// network, a line per launch made a launch half again as long).
class LogRelayer {
public:
  explicit LogRelayer(std::chrono::milliseconds gather) : gather(gather) {}
  /// How long poll may wait before flush() is due (-1: no limit).
  int flushWithinMs() const {
    if (gathered.empty())
      return -1;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        oldest + gather - std::chrono::steady_clock::now());
    return static_cast<int>(std::max<int64_t>(0, left.count()));
  }
  /// Writes the gathered lines when they are due.
  void flushIfDue() {
    if (!gathered.empty() && (gathered.size() >= kGatherBytes ||
                              std::chrono::steady_clock::now() >=
                                  oldest + gather))
      flush();
  }
  /// What was read from the pipe.
  void feed(const char *data, size_t size) {
    pending.append(data, size);
    size_t start = 0, end;
    while ((end = pending.find('\n', start)) != std::string::npos) {
      emit(pending.substr(start, end - start));
      start = end + 1;
    }
    pending.erase(0, start);
    if (pending.size() > kLongestLine) { // a line without end: in parts
      emit(pending);
      pending.clear();
    }
  }
  /// At the pipe's end.
  void finish() {
    if (!pending.empty())
      emit(pending);
    pending.clear();
    reportDropped();
    flush();
  }

private:
  static constexpr size_t kLongestLine = 16384;
  static constexpr size_t kGatherBytes = 64 << 10;
  void write(const std::string &text) {
    if (gather.count() <= 0)
      return writeLine(text);
    if (gathered.empty())
      oldest = std::chrono::steady_clock::now();
    gathered += text;
    if (gathered.size() >= kGatherBytes)
      flush();
  }
  void flush() {
    if (!gathered.empty())
      writeLine(gathered);
    gathered.clear();
  }
  void reportDropped() {
    if (!dropped)
      return;
    write("executor-server: " + sessionLabel + ": log: " +
              std::to_string(dropped) +
              " bytes of this session's log dropped (over " +
              std::to_string(kLogRate >> 10) + " KiB a second)\n");
    dropped = 0;
  }
  void emit(const std::string &line) {
    auto now = std::chrono::steady_clock::now();
    budget = std::min<double>(
        kLogBurst,
        budget + kLogRate * std::chrono::duration<double>(now - last).count());
    last = now;
    double cost = static_cast<double>(line.size() + 1);
    if (budget < cost) {
      dropped += line.size() + 1;
      return;
    }
    budget -= cost;
    reportDropped();
    write(escapeLogText(line) + "\n");
  }
  std::chrono::milliseconds gather;
  std::string gathered;
  std::chrono::steady_clock::time_point oldest;
  std::string pending;
  double budget = kLogBurst;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  size_t dropped = 0;
};
} // namespace

void closeInheritedDescriptors(int keep, int keepToo) {
  // The ranges between the kept descriptors (above 2), in order.
  int low = std::min(keep, keepToo), high = std::max(keep, keepToo);
  if (low < 0 || low == high)
    low = high;
  bool closed = true;
  unsigned from = 3;
  for (int kept : {low, high}) {
    if (kept < static_cast<int>(from))
      continue;
    if (kept > static_cast<int>(from))
      closed = closed && close_range(from, static_cast<unsigned>(kept) - 1,
                                     0) == 0;
    from = static_cast<unsigned>(kept) + 1;
  }
  closed = closed && close_range(from, ~0U, 0) == 0;
  if (closed)
    return;
  // A kernel without close_range (before 5.9): what /proc lists.
  std::vector<int> open;
  if (DIR *dir = opendir("/proc/self/fd")) {
    while (dirent *entry = readdir(dir)) {
      int fd = std::atoi(entry->d_name);
      if (fd > 2 && fd != keep && fd != keepToo && fd != dirfd(dir))
        open.push_back(fd);
    }
    closedir(dir);
  }
  for (int fd : open)
    close(fd);
}

namespace {
/// Set by the output thread when the pipe reached its end and the last
/// line was logged (finishKernelOutput waits for it).
std::atomic<bool> kernelOutputDrained{false};
bool kernelOutputCaptured = false;
} // namespace

std::string captureKernelOutput() {
  int log = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  int pipe[2];
  if (log < 0 || pipe2(pipe, O_CLOEXEC) != 0)
    return std::string("cannot capture kernel output: ") +
           std::strerror(errno);
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    close(null);
  }
  std::fflush(nullptr);
  logDescriptor = log;
  if (dup2(pipe[1], STDOUT_FILENO) < 0 || dup2(pipe[1], STDERR_FILENO) < 0)
    return std::string("cannot capture kernel output: ") +
           std::strerror(errno);
  close(pipe[1]);
  // Line buffered: a kernel's printf reaches the log when its line ends.
  setvbuf(stdout, nullptr, _IOLBF, 0);
  int reader = pipe[0];
  std::string error;
  if (!startThread(
          [reader] {
            std::string pending;
            char buffer[4096];
            ssize_t n;
            while ((n = read(reader, buffer, sizeof(buffer))) > 0 ||
                   (n < 0 && errno == EINTR)) {
              if (n <= 0)
                continue;
              pending.append(buffer, static_cast<size_t>(n));
              size_t start = 0, end;
              while ((end = pending.find('\n', start)) != std::string::npos) {
                logEvent("kernel output: " + pending.substr(start, end - start));
                start = end + 1;
              }
              pending.erase(0, start);
              if (pending.size() > 4096) { // a line without end: in parts
                logEvent("kernel output: " + pending);
                pending.clear();
              }
            }
            if (!pending.empty())
              logEvent("kernel output: " + pending);
            kernelOutputDrained.store(true);
          },
          error))
    return error;
  kernelOutputCaptured = true;
  return "";
}

void finishKernelOutput() {
  if (!kernelOutputCaptured)
    return;
  std::fflush(nullptr);
  // This process's ends of the pipe: the thread reads to its end, unless a
  // process the kernel started still holds it (then it waits no longer
  // than a second, and that process's output is not logged).
  int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    close(null);
  }
  for (int waited = 0; waited < 1000 && !kernelOutputDrained.load(); ++waited) {
    timespec step{0, 1000000};
    nanosleep(&step, nullptr);
  }
}


namespace {
std::string failed(const std::string &what) {
  return what + ": " + std::strerror(errno);
}

bool writeText(const char *path, const std::string &text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool written =
      write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  int saved = errno;
  close(fd);
  errno = saved;
  return written;
}

bool isDirectory(const std::string &path) {
  struct stat st{};
  return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool within(const std::string &path, const std::string &dir) {
  return path == dir || path.rfind(dir + "/", 0) == 0;
}

std::string mountTmpfs(const std::string &where, const std::string &options) {
  if (mount("tmpfs", where.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
            options.c_str()) != 0)
    return failed("cannot mount a tmpfs on " + where);
  return "";
}

/// mkdir -p, each new directory with `mode`.
bool makeDirectories(const std::string &path, mode_t mode) {
  for (size_t end = 1; end != std::string::npos;) {
    end = path.find('/', end + 1);
    std::string part = path.substr(0, end);
    if (mkdir(part.c_str(), mode) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

/// The session's asset directory (the working directory) bound back at its
/// own path over a private, read-only asset root. False (nothing changed
/// that matters) when the root cannot be covered: the directory then stays
/// where it is, reachable through the working directory.
/// Whether the working directory is `assets` (the session entered it).
bool inDirectory(const std::string &assets) {
  struct stat here{}, there{};
  return !assets.empty() && assets[0] == '/' && stat(".", &here) == 0 &&
         stat(assets.c_str(), &there) == 0 && here.st_dev == there.st_dev &&
         here.st_ino == there.st_ino;
}

std::string bindAssetDirectory(const std::string &assets,
                               const std::vector<std::string> &privateDirs) {
  size_t slash = assets.rfind('/');
  if (slash == std::string::npos)
    return "";
  std::string root = slash == 0 ? "/" : assets.substr(0, slash);
  bool inPrivate = false;
  for (const std::string &dir : privateDirs)
    inPrivate = inPrivate || within(root, dir);
  bool ownRoot = false;
  if (inPrivate) {
    if (!makeDirectories(root, 0755))
      return "";
  } else {
    if (root == "/" || !mountTmpfs(root, "mode=0755,size=64k,nr_inodes=64").empty())
      return "";
    ownRoot = true;
  }
  if (mkdir(assets.c_str(), 0700) != 0 && errno != EEXIST)
    return "";
  if (mount(".", assets.c_str(), nullptr, MS_BIND, nullptr) != 0)
    return "";
  (void)!chdir(assets.c_str());
  if (ownRoot)
    mount(nullptr, root.c_str(), nullptr,
          MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr);
  return assets;
}
} // namespace

namespace {
/// Itself, mapped to itself: the session keeps its uid and gid, and has no
/// other.
std::string writeIdMaps(uid_t uid, gid_t gid) {
  if (!writeText("/proc/self/uid_map",
                 std::to_string(uid) + " " + std::to_string(uid) + " 1\n"))
    return failed("cannot write the user namespace's uid_map");
  if (!writeText("/proc/self/setgroups", "deny"))
    return failed("cannot deny setgroups in the user namespace");
  if (!writeText("/proc/self/gid_map",
                 std::to_string(gid) + " " + std::to_string(gid) + " 1\n"))
    return failed("cannot write the user namespace's gid_map");
  return "";
}
} // namespace

namespace {
/// The new network namespace's loopback, up (it starts down).
std::string bringUpLoopback() {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return failed("cannot bring up the session's loopback (socket)");
  ifreq request{};
  std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
  bool up = ioctl(fd, SIOCGIFFLAGS, &request) == 0;
  request.ifr_flags |= IFF_UP | IFF_RUNNING;
  up = up && ioctl(fd, SIOCSIFFLAGS, &request) == 0;
  std::string problem =
      up ? "" : failed("cannot bring up the session's loopback");
  close(fd);
  return problem;
}
} // namespace

std::string enterSessionNamespaces(const std::string &assets,
                                   uint64_t tmpfsSize, bool ownNetwork,
                                   bool newIpc) {
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (unshare(CLONE_NEWUSER) != 0)
    return failed("unshare(CLONE_NEWUSER)");
  // Its /proc files belong to root while it is not dumpable (after its
  // change of user): dumpable while it writes its maps only, so that a
  // process of the same user on the host still cannot ptrace it after.
  int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  std::string problem = writeIdMaps(uid, gid);
  prctl(PR_SET_DUMPABLE, dumpable > 0 ? dumpable : 0, 0, 0, 0);
  if (!problem.empty())
    return problem;
  if (unshare(CLONE_NEWPID | CLONE_NEWNS | (newIpc ? CLONE_NEWIPC : 0)) != 0)
    return failed(newIpc ? "unshare(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC)"
                         : "unshare(CLONE_NEWPID | CLONE_NEWNS)");
  if (ownNetwork) {
    if (unshare(CLONE_NEWNET) != 0)
      return failed("unshare(CLONE_NEWNET)");
    if (std::string problem = bringUpLoopback(); !problem.empty())
      return problem;
  }
  // Before /tmp is covered: whether the asset directory is where it works.
  bool entered = inDirectory(assets);
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return failed("cannot make the session's mounts private");
  // One tmpfs (one size) for /tmp, /var/tmp and /dev/shm: the last two are
  // directories of it, bound in place.
  std::string options = "mode=1777";
  if (tmpfsSize)
    options += ",size=" + std::to_string(tmpfsSize);
  if (std::string problem = mountTmpfs("/tmp", options); !problem.empty())
    return problem;
  std::vector<std::string> privateDirs = {"/tmp"};
  for (auto [dir, inTmp] : {std::pair<const char *, const char *>{
                                "/var/tmp", "/tmp/.var-tmp"},
                            {"/dev/shm", "/tmp/.dev-shm"}}) {
    if (!isDirectory(dir))
      continue;
    if (mkdir(inTmp, 01777) != 0 || chmod(inTmp, 01777) != 0 ||
        mount(inTmp, dir, nullptr, MS_BIND, nullptr) != 0)
      return failed(std::string("cannot give the session a private ") + dir);
    privateDirs.push_back(dir);
  }
  // The working directory (the asset directory), writable whatever
  // happens to the mount it is on below: a clone of it, entered last when
  // it could not be bound in its place.
  int workingMount = entered ? -1
                             : open_tree(AT_FDCWD, ".",
                                       OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
  std::string assetMount;
  if (entered)
    assetMount = bindAssetDirectory(assets, privateDirs);
  // Every host directory read-only for the session, whatever its
  // permissions say (a world-writable /run/lock, a home that is the run-as
  // user's): what it writes goes to its own tmpfs and asset directory,
  // which are made writable again, and goes with it.
  mount_attr readOnly{};
  readOnly.attr_set = MOUNT_ATTR_RDONLY;
  if (mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &readOnly,
              sizeof(readOnly)) != 0) {
    std::string problem =
        failed("cannot make the host's directories read-only in the session");
    if (workingMount >= 0)
      close(workingMount);
    return problem;
  }
  mount_attr writable{};
  writable.attr_clr = MOUNT_ATTR_RDONLY;
  if (!assetMount.empty())
    privateDirs.push_back(assetMount);
  for (const std::string &dir : privateDirs)
    if (mount_setattr(AT_FDCWD, dir.c_str(), 0, &writable,
                sizeof(writable)) != 0)
      return failed("cannot make the session's own " + dir + " writable");
  if (workingMount >= 0) {
    bool ok = mount_setattr(workingMount, "", AT_EMPTY_PATH,
                      &writable, sizeof(writable)) == 0 &&
              fchdir(workingMount) == 0;
    close(workingMount);
    if (!ok)
      return failed("cannot keep the session's working directory writable");
  }
  return "";
}

std::string becomeSessionInit(bool privateProc, int keeperAlive) {
  // The host's /proc still: its "self" is this process's PID there.
  char self[32] = {0};
  long hostPid = 0;
  if (readlink("/proc/self", self, sizeof(self) - 1) > 0)
    hostPid = std::strtol(self, nullptr, 10);
  setSessionHostPid(hostPid > 0 ? hostPid : 0,
                    open("/proc/self/status", O_RDONLY | O_CLOEXEC));
  if (privateProc && mount("proc", "/proc", "proc",
                           MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
    return failed("cannot mount the session's own /proc");
  // No capability in its user namespace either (the mounts stay as they
  // are; the seccomp filter refuses mount and unshare besides).
  for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; ++cap)
    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capset, &header, none) != 0)
    return failed("cannot drop the session's capabilities");
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
    return failed("cannot tie the session to its keeper");
  // A keeper that died before the line above: its end of the pipe is
  // closed.
  pollfd p{keeperAlive, POLLIN, 0};
  if (poll(&p, 1, 0) != 0)
    _exit(0);
  close(keeperAlive);
  return "";
}

namespace {
volatile sig_atomic_t keptSession = 0;
void passOn(int sig) {
  if (keptSession > 0)
    kill(keptSession, sig);
}
} // namespace

void keepSession(pid_t session, volatile int *crashSignal, int log,
                 std::chrono::milliseconds gatherLog) {
  keptSession = session;
  struct sigaction sa{};
  sa.sa_handler = passOn;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  // The session's end interrupts the wait for its log (no SA_RESTART).
  struct sigaction child{};
  child.sa_handler = [](int) {};
  sigemptyset(&child.sa_mask);
  sigaction(SIGCHLD, &child, nullptr);
  // One thread (a process that has entered a new PID namespace starts no
  // other): the log relayed until the pipe ends, which is when no process
  // of the session's namespace is left, or a second after the session.
  LogRelayer relayer(gatherLog);
  int status = 0;
  pid_t got = 0;
  std::chrono::steady_clock::time_point gaveUp{};
  char buffer[16384];
  while (true) {
    if (got != session) {
      pid_t now = waitpid(session, &status, WNOHANG);
      if (now == session || (now < 0 && errno != EINTR)) {
        got = now;
        gaveUp = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      }
    }
    if (log < 0) { // the pipe is gone (a kernel may close it): just wait
      while (got == 0 && (got = waitpid(session, &status, 0)) < 0 &&
             errno == EINTR)
        got = 0;
      break;
    }
    if (got != 0 && std::chrono::steady_clock::now() >= gaveUp)
      break;
    int due = relayer.flushWithinMs();
    if (due > 0 && got == 0) {
      // Gathering: the lines wait in the pipe, the keeper does not wake
      // for each (a wake-up per launch on the session's machine).
      poll(nullptr, 0, due);
      continue;
    }
    pollfd p{log, POLLIN, 0};
    int wait = got != 0 ? 50 : 1000;
    if (due >= 0)
      wait = std::min(wait, due);
    int ready = poll(&p, 1, wait);
    if (ready <= 0) {
      relayer.flushIfDue();
      continue;
    }
    ssize_t n = read(log, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      close(log);
      log = -1;
      continue;
    }
    relayer.feed(buffer, static_cast<size_t>(n));
    relayer.flushIfDue();
  }
  relayer.finish();
  std::fflush(nullptr);
  int sig = 0;
  if (got == session && WIFSIGNALED(status))
    sig = WTERMSIG(status);
  else if (crashSignal && *crashSignal > 0 && *crashSignal < 65)
    sig = *crashSignal;
  if (sig) {
    // Dies of it in the session's place (no core of the keeper).
    rlimit noCore{0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(sig);
  }
  _exit(got == session && WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

SessionNamespaces probeSessionNamespaces(const RunAs &runAs,
                                         bool ownNetwork) {
  SessionNamespaces result;
  result.ownNetwork = ownNetwork;
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    result.why = failed("pipe");
    return result;
  }
  pid_t listener = getpid();
  pid_t child = fork();
  if (child == 0) {
    // The steps of a session, with no asset directory; the first line
    // reports the namespaces, the second the private /proc.
    std::string problem = enterSessionPrivileges(runAs, listener);
    if (problem.empty())
      problem = enterSessionNamespaces("", 1 << 20, ownNetwork, true);
    std::string line = "namespaces:" + problem + "\n";
    (void)!write(report[1], line.data(), line.size());
    if (!problem.empty())
      _exit(1);
    int alive[2];
    if (pipe2(alive, O_CLOEXEC) != 0)
      _exit(1);
    pid_t init = fork();
    if (init == 0) {
      close(alive[1]);
      std::string why = becomeSessionInit(true, alive[0]);
      if (why.empty() && getpid() != 1)
        why = "the session is not its PID namespace's init";
      line = "proc:" + why + "\n";
      (void)!write(report[1], line.data(), line.size());
      _exit(0);
    }
    int status = 0;
    waitpid(init, &status, 0);
    _exit(0);
  }
  close(report[1]);
  std::string text;
  char buffer[512];
  ssize_t n;
  while ((n = read(report[0], buffer, sizeof(buffer))) > 0 ||
         (n < 0 && errno == EINTR))
    if (n > 0)
      text.append(buffer, static_cast<size_t>(n));
  close(report[0]);
  if (child > 0)
    waitpid(child, nullptr, 0);
  auto field = [&](const std::string &name, bool &present) {
    size_t at = text.find(name + ":");
    present = at != std::string::npos;
    if (!present)
      return std::string();
    size_t from = at + name.size() + 1;
    return text.substr(from, text.find('\n', from) - from);
  };
  bool reported = false;
  result.why = field("namespaces", reported);
  if (!reported)
    result.why = "the probe failed";
  result.namespaces = reported && result.why.empty();
  if (result.namespaces) {
    result.noProcWhy = field("proc", reported);
    if (!reported)
      result.noProcWhy = "the probe's session did not start";
    result.privateProc = result.noProcWhy.empty();
  }
  return result;
}

namespace {
const char *const kRefused[] = {
    "ptrace",         "process_vm_readv", "process_vm_writev",
    "mount",          "umount2",          "pivot_root",
    "chroot",         "fsopen",           "fsmount",
    "fsconfig",       "fspick",           "move_mount",
    "open_tree",      "mount_setattr",    "keyctl",
    "add_key",        "request_key",      "bpf",
    "perf_event_open", "userfaultfd",     "unshare",
    "setns",          "kexec_load",       "kexec_file_load",
    "init_module",    "finit_module",     "delete_module",
    "swapon",         "swapoff",          "reboot",
    "acct",           "quotactl",         "open_by_handle_at",
    "name_to_handle_at", "kcmp",          "syslog",
    "lookup_dcookie",  "io_uring_setup",  "io_uring_enter",
    "io_uring_register"};
} // namespace

bool worksInChild(const std::function<std::string()> &step,
                  std::string &why) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    why = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  pid_t child = fork();
  if (child == 0) {
    std::string problem = step();
    (void)!write(report[1], problem.data(), problem.size());
    _exit(problem.empty() ? 0 : 1);
  }
  close(report[1]);
  why.clear();
  char buffer[512];
  ssize_t n;
  while ((n = read(report[0], buffer, sizeof(buffer))) > 0 ||
         (n < 0 && errno == EINTR))
    if (n > 0)
      why.append(buffer, static_cast<size_t>(n));
  close(report[0]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    if (why.empty())
      why = "the probe failed";
    return false;
  }
  return true;
}

bool syscallFilterWorks(const std::vector<std::string> &allowed,
                        std::string &why) {
  return worksInChild(
      [&] {
        return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
                   ? installSyscallFilter(allowed)
                   : std::string("cannot set no_new_privs: ") +
                         std::strerror(errno);
      },
      why);
}

namespace {
/// What a session's processes call: the C library's and the C++ runtime's
/// calls, the JIT's and ORC's, threads, the transport's sockets and shared
/// memory, Catalyst's runtime services, and what the test suite's kernels
/// and a compiled program's standard library use. Anything else (a call
/// added to the kernel after this list, an interface no kernel needs)
/// fails with ENOSYS, as on a kernel that lacks it, and the log names it.
/// (clone, socket and ioctl are allowed below by their arguments.)
const char *const kAllowed[] = {
    // files and descriptors
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv",
    "pwritev", "preadv2", "pwritev2", "open", "openat", "openat2", "creat",
    "close", "close_range", "dup", "dup2", "dup3", "lseek", "_llseek",
    "fcntl", "fcntl64", "flock", "fsync", "fdatasync", "sync_file_range",
    "truncate", "ftruncate", "fallocate", "fadvise64", "readahead", "stat",
    "fstat", "lstat", "newfstatat", "fstatat64", "statx", "statfs",
    "fstatfs", "access", "faccessat", "faccessat2", "getdents", "getdents64",
    "getcwd", "chdir", "fchdir", "rename", "renameat", "renameat2", "mkdir",
    "mkdirat", "rmdir", "unlink", "unlinkat", "link", "linkat", "symlink",
    "symlinkat", "readlink", "readlinkat", "chmod", "fchmod", "fchmodat",
    "fchmodat2", "chown", "fchown", "lchown", "fchownat", "umask",
    "utime", "utimes", "utimensat", "futimesat", "copy_file_range",
    "sendfile", "splice", "tee", "vmsplice", "getxattr", "lgetxattr",
    "fgetxattr", "listxattr", "llistxattr", "flistxattr", "pipe", "pipe2",
    "memfd_create", "eventfd", "eventfd2", "signalfd", "signalfd4",
    "timerfd_create", "timerfd_settime", "timerfd_gettime", "inotify_init",
    "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    "select", "pselect6", "poll", "ppoll", "epoll_create", "epoll_create1",
    "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2",
    // memory
    "brk", "mmap", "mmap2", "munmap", "mremap", "mprotect", "madvise",
    "msync", "mincore", "mlock", "mlock2", "munlock", "mlockall",
    "munlockall", "membarrier", "mbind", "get_mempolicy", "set_mempolicy",
    "set_mempolicy_home_node", "pkey_alloc", "pkey_free", "pkey_mprotect",
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop",
    "semctl", "msgget", "msgsnd", "msgrcv", "msgctl",
    // processes, threads, signals, time
    "fork", "vfork", "execve", "execveat", "exit",
    "exit_group", "wait4", "waitid", "kill", "tkill", "tgkill",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending",
    "rt_sigsuspend", "rt_sigtimedwait", "rt_sigqueueinfo",
    "rt_tgsigqueueinfo", "sigaltstack", "restart_syscall", "pause",
    "futex", "futex_waitv", "futex_wait", "futex_wake", "futex_requeue",
    "set_tid_address", "set_robust_list", "get_robust_list", "rseq",
    "arch_prctl", "prctl", "getpid", "getppid", "gettid", "getpgid",
    "getpgrp", "getsid", "setsid", "setpgid", "getuid", "geteuid", "getgid",
    "getegid", "getresuid", "getresgid", "getgroups", "capget",
    "getrlimit", "setrlimit", "prlimit64", "ugetrlimit", "getrusage",
    "times", "sysinfo", "uname", "getpriority", "setpriority",
    "sched_yield", "sched_getaffinity", "sched_setaffinity",
    "sched_getparam", "sched_setparam", "sched_getscheduler",
    "sched_setscheduler", "sched_get_priority_max",
    "sched_get_priority_min", "sched_rr_get_interval", "sched_getattr",
    "sched_setattr", "getcpu", "nanosleep", "clock_nanosleep",
    "clock_gettime", "clock_getres", "gettimeofday", "time", "getitimer",
    "setitimer", "alarm", "timer_create", "timer_settime", "timer_gettime",
    "timer_getoverrun", "timer_delete", "getrandom", "pidfd_open",
    "pidfd_send_signal", "pidfd_getfd",
    // sockets (the session's network is its own loopback)
    "socketpair", "connect", "accept", "accept4", "bind",
    "listen", "shutdown", "sendto", "recvfrom", "sendmsg", "recvmsg",
    "sendmmsg", "recvmmsg", "getsockname", "getpeername", "setsockopt",
    "getsockopt"};

/// The names of the calls, by number, for the refusal's log line (made
/// before the filter is loaded: the handler only reads them).
constexpr int kNamedCalls = 1024;
const char *callNames[kNamedCalls];
char refusalPrefix[256];

void logRefusedCall(int, siginfo_t *info, void *context) {
  int call = info->si_syscall;
  const char *name =
      call >= 0 && call < kNamedCalls && callNames[call] ? callNames[call]
                                                         : "(unnamed)";
  char line[512];
  size_t length = 0;
  auto add = [&](const char *text) {
    while (*text && length < sizeof(line) - 1)
      line[length++] = *text++;
  };
  add(refusalPrefix);
  add("seccomp refused the system call ");
  add(name);
  add(" (ENOSYS); if the kernel needs it, start executor-server with "
      "--allow-syscall=");
  add(name);
  add("\n");
  (void)!write(logDescriptor >= 0 ? logDescriptor : 2, line, length);
  // The call returns ENOSYS, as on a kernel that lacks it.
  auto *uc = static_cast<ucontext_t *>(context);
#if defined(__x86_64__)
  uc->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
#elif defined(__aarch64__)
  uc->uc_mcontext.regs[0] = static_cast<unsigned long>(-ENOSYS);
#else
#error "the refused call's result: this architecture's return register"
#endif
}
} // namespace

std::string checkSyscallNames(const std::vector<std::string> &names) {
  for (const std::string &name : names)
    if (seccomp_syscall_resolve_name(name.c_str()) == __NR_SCMP_ERROR)
      return "'" + name + "' names no system call of this machine";
  return "";
}

std::string installSyscallFilter(const std::vector<std::string> &allowed) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_TRAP);
  if (!filter)
    return "cannot make a seccomp filter (libseccomp)";
  auto fail = [&](const std::string &what, int rc) {
    seccomp_release(filter);
    return "seccomp: " + what + ": " + std::strerror(-rc);
  };
  int rc = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
  if (rc < 0)
    return fail("cannot apply it to every thread", rc);
  auto isAllowed = [&](const char *name) {
    return std::find(allowed.begin(), allowed.end(), name) != allowed.end();
  };
  for (const char *name : kRefused) {
    int call = seccomp_syscall_resolve_name(name);
    if (call == __NR_SCMP_ERROR || isAllowed(name))
      continue; // not on this architecture, or --allow-syscall
    if ((rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), call, 0)) < 0)
      return fail(std::string("cannot refuse ") + name, rc);
  }
  std::vector<const char *> names(std::begin(kAllowed), std::end(kAllowed));
  for (const std::string &name : allowed)
    names.push_back(name.c_str());
  for (const char *name : names) {
    int call = seccomp_syscall_resolve_name(name);
    if (call == __NR_SCMP_ERROR)
      continue; // not on this architecture
    // Calls with a refusing rule above keep it (libseccomp takes the most
    // restrictive rule per argument).
    if ((rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 0)) < 0 &&
        rc != -EEXIST)
      return fail(std::string("cannot allow ") + name, rc);
  }
  // The log line of a refusal, and the call's ENOSYS.
  for (int call = 0; call < kNamedCalls; ++call)
    if (!callNames[call])
      callNames[call] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE,
                                                         call);
  std::snprintf(refusalPrefix, sizeof(refusalPrefix), "executor-server: %s: ",
                sessionLabel.c_str());
  struct sigaction trap{};
  trap.sa_sigaction = logRefusedCall;
  trap.sa_flags = SA_SIGINFO;
  sigemptyset(&trap.sa_mask);
  if (sigaction(SIGSYS, &trap, nullptr) != 0)
    return fail("cannot handle SIGSYS", -errno);
  // clone: no new namespaces. clone3 passes its flags in memory, which the
  // filter cannot read: ENOSYS makes libc fall back to clone.
  // socket: the families a session uses (its loopback, the transport);
  // netlink (the host's kernel interfaces), vsock (other virtual machines)
  // and packet (raw frames) refused outright.
  // ioctl: every request but those that push input into a terminal or
  // drive its console (TIOCSTI, TIOCLINUX), whatever the descriptor (the
  // request is an int: its low 32 bits).
  // Each call's allowing and refusing rules are disjoint; --allow-syscall
  // naming one of them allows it whatever its arguments.
  constexpr scmp_datum_t newNamespaces =
      CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET |
      CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
  struct Rule {
    const char *call;
    uint32_t action;
    scmp_arg_cmp condition;
  };
  std::vector<Rule> rules;
  rules.push_back({"clone3", SCMP_ACT_ERRNO(ENOSYS), {}});
  rules.push_back({"clone", SCMP_ACT_ALLOW,
                   SCMP_A0(SCMP_CMP_MASKED_EQ, newNamespaces, 0)});
  rules.push_back({"clone", SCMP_ACT_ERRNO(EPERM),
                   SCMP_A0(SCMP_CMP_MASKED_EQ, newNamespaces, newNamespaces)});
  for (scmp_datum_t flag :
       {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC,
        CLONE_NEWUTS, CLONE_NEWCGROUP})
    rules.push_back({"clone", SCMP_ACT_ERRNO(EPERM),
                     SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag)});
  for (scmp_datum_t family : {AF_UNIX, AF_INET, AF_INET6})
    rules.push_back({"socket", SCMP_ACT_ALLOW, SCMP_A0(SCMP_CMP_EQ, family, 0)});
  for (scmp_datum_t family : {AF_NETLINK, AF_VSOCK, AF_PACKET})
    rules.push_back(
        {"socket", SCMP_ACT_ERRNO(EPERM), SCMP_A0(SCMP_CMP_EQ, family, 0)});
  static_assert(TIOCSTI < TIOCLINUX, "the requests between them");
  rules.push_back({"ioctl", SCMP_ACT_ALLOW, SCMP_A1_32(SCMP_CMP_LT, TIOCSTI, 0)});
  rules.push_back(
      {"ioctl", SCMP_ACT_ALLOW, SCMP_A1_32(SCMP_CMP_GT, TIOCLINUX, 0)});
  for (scmp_datum_t request = TIOCSTI + 1; request < TIOCLINUX; ++request)
    rules.push_back(
        {"ioctl", SCMP_ACT_ALLOW, SCMP_A1_32(SCMP_CMP_EQ, request, 0)});
  for (scmp_datum_t request : {TIOCSTI, TIOCLINUX})
    rules.push_back(
        {"ioctl", SCMP_ACT_ERRNO(EPERM), SCMP_A1_32(SCMP_CMP_EQ, request, 0)});
  for (const Rule &rule : rules) {
    if (isAllowed(rule.call))
      continue;
    bool always = rule.condition.op == 0;
    if ((rc = seccomp_rule_add(filter, rule.action,
                               seccomp_syscall_resolve_name(rule.call),
                               always ? 0 : 1, rule.condition)) < 0 &&
        rc != -EEXIST)
      return fail(std::string("cannot add the rule for ") + rule.call, rc);
  }
  if ((rc = seccomp_load(filter)) < 0)
    return fail("cannot load the filter", rc);
  seccomp_release(filter);
  return "";
}

std::string describeIsolation(bool dropsPrivileges, bool syscallFilter,
                              const std::string &noFilterWhy,
                              const SessionNamespaces &namespaces,
                              uint64_t sessionMemory, unsigned processes,
                              const MemoryCgroups &memory,
                              const std::string &noIpcLimitsWhy,
                              std::vector<std::string> &missing) {
  missing.clear();
  if (!dropsPrivileges)
    missing.push_back("a user of their own (the server is not root: "
                      "sessions run as its user and can reach its files)");
  if (!syscallFilter)
    missing.push_back("the seccomp filter (this machine refuses it: " +
                      noFilterWhy + ")");
  if (namespaces.namespaces && !namespaces.ownNetwork)
    missing.push_back(
        "a network of their own (" +
        (namespaces.noNetworkWhy.empty()
             ? std::string("--session-network=host")
             : "this machine refuses it: " + namespaces.noNetworkWhy) +
        "): kernels reach every service and network the host does");
  if (!namespaces.namespaces)
    missing.push_back(
        "user, PID, mount, IPC and network namespaces (this machine refuses them: " +
        namespaces.why +
        "): sessions of one user can see and signal each other and read "
        "each other's assets, a process a kernel detaches outlives its "
        "session, and there is no per-session process limit");
  else if (!namespaces.privateProc)
    missing.push_back("a /proc of the session's own (this machine refuses "
                      "it: " + namespaces.noProcWhy +
                      "): a session lists the host's processes, though it "
                      "can signal none outside its namespace");
  if (!sessionMemory)
    missing.push_back("a memory limit (--max-session-memory 0)");
  else if (memory.kind == MemoryCgroups::Kind::None)
    missing.push_back("a memory cgroup (" + memory.why +
                      "): memory that no mapping holds (a memfd grown with "
                      "fallocate, tmpfs files) escapes --max-session-memory");
  if (sessionMemory && namespaces.namespaces && !noIpcLimitsWhy.empty())
    missing.push_back("SysV limits of their own (" + noIpcLimitsWhy +
                      "): detached SysV shared memory escapes "
                      "--max-session-memory");
  std::string line = "isolation: each session a process of its own";
  if (dropsPrivileges)
    line += ", as --run-as";
  line += ", no_new_privs, dies with the server; no controlling terminal "
          "(setsid); only its own descriptors; kernel output escaped in the "
          "log";
  if (namespaces.namespaces)
    line += " (relayed by its keeper, at most " +
            std::to_string(kLogRate >> 10) + " KiB a second)";
  if (namespaces.namespaces) {
    line += "; its own user, PID, mount and IPC namespaces (no capability; "
            "private /tmp, /var/tmp, /dev/shm and asset root";
    if (namespaces.privateProc)
      line += ", /proc";
    line += "; every process of it ends with it); at most " +
            std::to_string(processes) + " processes and threads (RLIMIT_NPROC)";
    if (namespaces.ownNetwork)
      line += "; a network namespace of its own with only its loopback";
  }
  if (sessionMemory)
    line += "; memory: " + describeSize(sessionMemory) +
            " private (RLIMIT_DATA), address space " +
            describeSize(sessionMemory) + " + " +
            describeSize(kAddressSpaceHeadroom) +
            " beyond its start (RLIMIT_AS, counts shared memory)";
  if (sessionMemory && memory.kind != MemoryCgroups::Kind::None)
    line += ", every page it makes at most " +
            describeSize(sessionCgroupLimit(sessionMemory)) + " (" +
            memory.describe() + ")";
  if (sessionMemory && namespaces.namespaces && noIpcLimitsWhy.empty())
    line += ", SysV shared memory at most " + describeSize(sessionMemory) +
            " (its IPC namespace's limits)";
  if (namespaces.namespaces)
    line += "; the host's directories read-only";
  if (sessionMemory)
    line += "; files at most " + describeSize(sessionMemory) +
            " each (RLIMIT_FSIZE)";
  if (syscallFilter)
    line += "; seccomp allows " + std::to_string(std::size(kAllowed) + 3) +
            " system calls (any other fails with ENOSYS and is named in "
            "the log; --allow-syscall) and refuses " +
            std::to_string(std::size(kRefused)) +
            " more, clone into new namespaces, netlink, vsock and "
            "packet sockets and TIOCSTI/TIOCLINUX";
  return line;
}

} // namespace executor_studio::runtime
