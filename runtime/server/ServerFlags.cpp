//===- ServerFlags.cpp - executor-server's command line -------------------===//
#include "ServerFlags.h"
#include "Acceptor.h"
#include "Sandbox.h"
#include "ExecutorRuntime/Handshake.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorStudio/Support/ValueParser.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netdb.h>
#include <unistd.h>

using namespace llvm;

namespace executor_studio::runtime {

namespace {
const char *startedAs = "executor-server";
} // namespace

const char *programName() { return startedAs; }

void flagError(const std::string &problem) {
  std::fprintf(stderr, "%s: %s (see --help)\n", startedAs, problem.c_str());
  std::exit(2);
}

bool invokedAsCatalystExecutor(const char *argv0) {
  if (!argv0)
    return false;
  const char *slash = std::strrchr(argv0, '/');
  return std::strcmp(slash ? slash + 1 : argv0, "catalyst-executor") == 0;
}

ServerFlags parseCatalystExecutorFlags(int argc, char **argv,
                                       const char *version) {
  startedAs = "catalyst-executor";
  // Only what Catalyst's launcher passes (frontend/catalyst/executor:
  // `--bind=127.0.0.1:PORT`, then `--plugin=PATH` per plugin), under the
  // names Catalyst's own catalyst-executor gives them.
  static cl::OptionCategory catalyst("catalyst-executor options");
  static cl::list<std::string> binds(
      "bind", cl::value_desc("HOST:PORT"), cl::cat(catalyst),
      cl::desc("a loopback address to listen on (repeatable; 127.0.0.1, "
               "localhost, [::1], or unix:PATH); required"));
  static cl::list<std::string> plugins(
      "plugin", cl::value_desc("LIB.so"), cl::cat(catalyst),
      cl::desc("a library to load at start, kernels may call it "
               "(repeatable)"));
  static cl::opt<bool> shortHelp("h", cl::Hidden,
                                 cl::desc("the same as --help"));
  static std::string versionText =
      std::string("Executor Studio ") + version + " (catalyst-executor)";
  cl::SetVersionPrinter(
      [](raw_ostream &os) { os << versionText << "\n"; });
  cl::HideUnrelatedOptions(catalyst);
  cl::ParseCommandLineOptions(
      argc, argv,
      "executor-server as Catalyst's catalyst-executor, for Catalyst's "
      "launcher (catalyst.executor.Executor) and runtime: Catalyst's "
      "executor services, no token (Catalyst's runtime proves none), so "
      "loopback only (a remote host is reached through the launcher's SSH "
      "tunnel). Prints `Listening on HOST:PORT` on standard error per "
      "address. (executor-server --help: every option.)\n");
  if (shortHelp) {
    cl::PrintHelpMessage();
    std::exit(0);
  }
  if (binds.empty())
    flagError("at least one --bind HOST:PORT is required");

  ServerFlags flags;
  flags.catalystExecutor = true;
  // Refused before anything starts: without a token, whoever reaches the
  // port runs code here, so only this host may.
  for (const std::string &bind : binds) {
    if (isUnixAddress(bind))
      continue;
    std::string host, port, error;
    if (!splitAddress(bind, host, port, error))
      flagError("--bind " + bind + ": " + error);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo *results = nullptr;
    if (int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(),
                             port.c_str(), &hints, &results))
      flagError("cannot resolve " + bind + ": " + gai_strerror(rc));
    bool loopback = results != nullptr;
    for (addrinfo *ai = results; ai; ai = ai->ai_next) {
      sockaddr_storage addr{};
      std::memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
      loopback = loopback && isLoopbackAddress(addr);
    }
    freeaddrinfo(results);
    if (!loopback)
      flagError("refusing to listen on " + bind +
                ", which is not a loopback address: catalyst-executor takes "
                "no token (Catalyst's runtime proves none), so anyone who "
                "reached the port would run code here; bind 127.0.0.1 (a "
                "remote host's executor is reached through "
                "Executor(host=...)'s SSH tunnel), or run executor-server "
                "--allow-remote with --tls-cert, --tls-key and --token-file");
  }
  flags.binds.assign(binds.begin(), binds.end());
  flags.plugins.assign(plugins.begin(), plugins.end());
  flags.allowRemote = false;
  flags.noToken = true;
  flags.publishOurs = false;
  flags.publishCatalyst = true;
  if (const char *tmp = std::getenv("TMPDIR"); tmp && *tmp)
    flags.assetRoot = tmp;
  else
    flags.assetRoot = "/tmp";
  return flags;
}

namespace {
enum class LogLevel { All, Sessions };
enum class Services { All, ExecutorStudio, Catalyst };
} // namespace

ServerFlags parseServerFlags(int argc, char **argv, const char *version) {
  static cl::OptionCategory listen("Where to listen");
  static cl::OptionCategory who("Who may connect");
  static cl::OptionCategory limitsCategory(
      "Limits (T: seconds, or e.g. 500ms; SIZE: bytes or 64K, 16M, 8G)");
  static cl::OptionCategory sessions("Sessions");

  static cl::list<std::string> binds(
      "bind", cl::value_desc("HOST:PORT|unix:PATH"), cl::cat(listen),
      cl::desc("an address to listen on (repeatable); unix:PATH is a Unix "
               "socket (same host only; large buffers cross in shared memory; "
               "no token or TLS: its file mode is the access control). "
               "Default: a Unix socket in $XDG_RUNTIME_DIR/executor-studio "
               "when that is set, else 127.0.0.1:0 (a free loopback port) "
               "with a generated token"));
  static cl::opt<bool> stdio(
      "stdio", cl::cat(listen),
      cl::desc("serve exactly one session on standard input and output "
               "(for ssh:// addresses and Slurm: whoever started this "
               "process authenticated its user, so no token and no TLS); "
               "the log goes to standard error, and the end of standard "
               "input ends the session and all its processes"));
  static cl::opt<std::string> unixMode(
      "unix-mode", cl::value_desc("MODE"), cl::init("0600"), cl::cat(listen),
      cl::desc("the Unix socket's file mode"));
  static cl::opt<bool> allowRemote(
      "allow-remote", cl::cat(listen),
      cl::desc("accept addresses other than loopback; needs --tls-cert, "
               "--tls-key and --token-file"));
  static cl::opt<bool> insecurePlaintext(
      "insecure-plaintext", cl::cat(listen),
      cl::desc("with --allow-remote: allow no TLS and no token (anyone on "
               "the network runs code here)"));

  static cl::opt<std::string> tlsCert(
      "tls-cert", cl::value_desc("FILE"), cl::cat(who),
      cl::desc("TLS 1.3 with this certificate chain (PEM); clients need "
               "EXECUTOR_TLS_CA"));
  static cl::opt<std::string> tlsKey(
      "tls-key", cl::value_desc("FILE"), cl::cat(who),
      cl::desc("the certificate's private key (PEM)"));
  static cl::opt<std::string> tokenFile(
      "token-file", cl::value_desc("FILE"), cl::cat(who),
      cl::desc("clients present this token (the first line, >= 16 bytes; "
               "the file must be chmod 600)"));
  static cl::opt<bool> noToken(
      "no-token", cl::cat(who),
      cl::desc("TCP without a token: any local user (or, with --allow-remote "
               "--insecure-plaintext, anyone) may run code here. Without it "
               "and without --token-file, a TCP address gets a generated "
               "token, in a 0600 file that this user's clients read"));
  static cl::opt<std::string> authFailureDelay(
      "auth-failure-delay", cl::value_desc("T"), cl::init("1s"), cl::cat(who),
      cl::desc("after a wrong token the peer waits T"));

  static cl::opt<std::string> authTimeout(
      "auth-timeout", cl::value_desc("T"), cl::init("3s"), cl::cat(who),
      cl::desc("a connection that has not finished TLS and proved the token "
               "within T is closed (at most --handshake-timeout)"));
  static cl::opt<std::string> maxPending(
      "max-pending", cl::value_desc("N"), cl::init("4096"), cl::cat(who),
      cl::desc("connections authenticating at once (they are not sessions "
               "and get no process; at most the open-file limit); when all "
               "N wait, the oldest that has proved nothing is closed to make "
               "room"));
  static cl::opt<std::string> maxPendingPerAddress(
      "max-pending-per-address", cl::value_desc("N"), cl::init("2048"),
      cl::cat(who),
      cl::desc("connections authenticating at once from one address; when "
               "all N wait, that address's oldest that has proved nothing is "
               "closed to make room"));
  static cl::opt<std::string> handshakeTimeout(
      "handshake-timeout", cl::value_desc("T"), cl::init("10s"),
      cl::cat(limitsCategory),
      cl::desc("from connect to the first ORC call"));
  static cl::opt<std::string> maxSessions(
      "max-sessions", cl::value_desc("N"), cl::init("64"),
      cl::cat(limitsCategory),
      cl::desc("sessions at once; more are refused"));
  static cl::opt<std::string> maxMessageSize(
      "max-message-size", cl::value_desc("SIZE"), cl::init("1G"),
      cl::cat(limitsCategory),
      cl::desc("the largest message a session takes"));
  static cl::opt<std::string> maxSessionMemory(
      "max-session-memory", cl::value_desc("SIZE"), cl::init("16G"),
      cl::cat(limitsCategory),
      cl::desc("memory per session: private writable memory (RLIMIT_DATA), "
               "the size of the kernel heap on a Unix socket, and of the "
               "session's tmpfs (/tmp, /var/tmp, /dev/shm); its address space "
               "(RLIMIT_AS, which counts shared memory) is what it mapped at "
               "start plus SIZE plus 1 GiB (0: no limit)"));
  static cl::opt<std::string> maxSessionProcesses(
      "max-session-processes", cl::value_desc("N"), cl::init("1024"),
      cl::cat(limitsCategory),
      cl::desc("processes and threads per session (RLIMIT_NPROC in the "
               "session's own user namespace; the session's own threads "
               "count)"));
  static cl::opt<std::string> maxLaunchTime(
      "max-launch-time", cl::value_desc("T"), cl::init("3600"),
      cl::cat(limitsCategory),
      cl::desc("a kernel running longer ends its session (0: no limit)"));
  static cl::opt<std::string> livenessTimeout(
      "liveness-timeout", cl::value_desc("T"), cl::init("60s"),
      cl::cat(limitsCategory),
      cl::desc("a client that stops answering is gone after about T"));
  static cl::opt<std::string> stopGrace(
      "stop-grace", cl::value_desc("T"), cl::init("5s"),
      cl::cat(limitsCategory),
      cl::desc("on SIGTERM, running launches get T to finish (new ones are refused) before SIGKILL"));

  static cl::opt<std::string> runAs(
      "run-as", cl::value_desc("USER"), cl::cat(sessions),
      cl::desc("started as root, sessions run as USER (default nobody) with "
               "no_new_privs"));
  enum class SessionNetwork { Own, Host };
  static cl::opt<SessionNetwork, false, executor_studio::ValueParser<SessionNetwork>> sessionNetwork(
      "session-network",
      cl::init(SessionNetwork::Own), cl::cat(sessions),
      cl::desc("the network a session's kernels reach"),
      cl::values(clEnumValN(SessionNetwork::Own, "own",
                            "a network namespace of its own with only its "
                            "loopback (default)"),
                 clEnumValN(SessionNetwork::Host, "host",
                            "the host's network: every service and network "
                            "the host reaches")));
  static cl::list<std::string> allowSyscall(
      "allow-syscall", cl::value_desc("NAME,..."), cl::CommaSeparated,
      cl::cat(sessions),
      cl::desc("system calls a session's seccomp filter allows beyond its "
               "list (the log names a refused call)"));
  static cl::opt<bool> requireIsolation(
      "require-isolation", cl::cat(sessions),
      cl::desc("refuse to start when this machine cannot give sessions all "
               "of the sandbox (the log's 'isolation not in force' line says "
               "what is missing)"));
  static cl::list<std::string> plugins(
      "plugin", cl::value_desc("LIB.so"), cl::cat(sessions),
      cl::desc("load a library kernels may call (repeatable)"));
  static cl::opt<bool> noKernelHeap(
      "no-kernel-heap", cl::cat(sessions),
      cl::desc("on a Unix socket, kernels keep libc's allocator (results "
               "are then copied)"));
  static cl::opt<std::string> assetRoot(
      "asset-root", cl::value_desc("DIR"), cl::cat(sessions),
      cl::desc("where session asset directories go ($TMPDIR, else /tmp)"));
  static cl::opt<Services, false, executor_studio::ValueParser<Services>> services(
      "services", cl::init(Services::All), cl::cat(sessions),
      cl::desc("which executor services sessions publish"),
      cl::values(clEnumValN(Services::All, "all", "ours and Catalyst's"),
                 clEnumValN(Services::ExecutorStudio, "executor-studio",
                            "ours only"),
                 clEnumValN(Services::Catalyst, "catalyst",
                            "Catalyst's only, as catalyst-executor")));
  static cl::opt<LogLevel, false, executor_studio::ValueParser<LogLevel>> log(
      "log", cl::init(LogLevel::All), cl::cat(sessions),
      cl::desc("what the log says"),
      cl::values(clEnumValN(LogLevel::All, "all", "every launch"),
                 clEnumValN(LogLevel::Sessions, "sessions", "sessions only")));
  static cl::opt<bool> debugWait(
      "debug-wait", cl::cat(sessions),
      cl::desc("each session waits before its first launch until a debugger "
               "attaches (gdb -p PID; the log prints it per session), at most "
               "--max-launch-time"));
  static cl::opt<bool> shortHelp("h", cl::Hidden,
                                 cl::desc("the same as --help"));

  static std::string versionText = std::string("Executor Studio ") + version;
  cl::SetVersionPrinter(
      [](raw_ostream &os) { os << versionText << "\n"; });
  cl::HideUnrelatedOptions({&listen, &who, &limitsCategory, &sessions});
  cl::ParseCommandLineOptions(
      argc, argv,
      "runs kernels for executor sessions: each connection is a session in "
      "a process of its own. Prints `listening on HOST:PORT` per address.\n");
  if (shortHelp) {
    cl::PrintHelpMessage();
    std::exit(0);
  }

  ServerFlags flags;
  flags.binds.assign(binds.begin(), binds.end());
  flags.stdio = stdio;
  if (flags.stdio) {
    for (const cl::Option *listenerFlag :
         std::initializer_list<const cl::Option *>{
             // (cl::list's operator& gives its values)
             std::addressof(static_cast<const cl::Option &>(binds)),
             &allowRemote, &insecurePlaintext, &tlsCert, &tlsKey, &tokenFile,
             &noToken})
      if (listenerFlag->getNumOccurrences())
        flagError("--stdio serves one session on standard input and output "
                  "and listens nowhere: --" + listenerFlag->ArgStr.str() +
                  " does not apply (whoever starts it, such as ssh, "
                  "authenticates)");
  } else if (flags.binds.empty()) {
    const char *runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && *runtime && runtime[0] == '/' && access(runtime, W_OK) == 0)
      flags.binds.push_back("unix:" + privateRuntimeDirectory() +
                            "/executor-" + std::to_string(getpid()) + ".sock");
    else
      flags.binds.push_back("127.0.0.1:0");
  }
  flags.plugins.assign(plugins.begin(), plugins.end());
  const std::string &mode = unixMode;
  if (mode.empty() || mode.size() > 4 ||
      mode.find_first_not_of("01234567") != std::string::npos)
    flagError("--unix-mode takes an octal file mode such as 0600 or 0660, "
              "not '" + mode + "'");
  flags.unixMode = std::stoul(mode, nullptr, 8);
  flags.allowRemote = allowRemote;
  flags.insecurePlaintext = insecurePlaintext;
  flags.tokenFile = tokenFile;
  flags.noToken = noToken;
  if (flags.noToken && !flags.tokenFile.empty())
    flagError("--no-token and --token-file contradict each other");
  flags.tlsCert = tlsCert;
  flags.tlsKey = tlsKey;
  if (runAs.getNumOccurrences()) {
    flags.runAsUser = runAs;
    flags.runAsNamed = true;
  }
  auto duration = [](const cl::opt<std::string> &flag,
                     std::chrono::milliseconds &out) {
    if (!parseDuration(flag, out))
      flagError("--" + flag.ArgStr.str() + " '" + flag.getValue() +
                "' is not a duration (seconds, or e.g. 500ms)");
  };
  auto size = [](const cl::opt<std::string> &flag, uint64_t &out) {
    if (!parseSize(flag, out))
      flagError("--" + flag.ArgStr.str() + " '" + flag.getValue() +
                "' is not a size (bytes, or e.g. 64K, 16M, 8G)");
  };
  SessionLimits &limits = flags.limits;
  duration(handshakeTimeout, limits.handshakeTimeout);
  duration(maxLaunchTime, limits.launchTime);
  duration(stopGrace, limits.stopGrace);
  duration(authFailureDelay, limits.authFailureDelay);
  std::chrono::milliseconds liveness{};
  duration(livenessTimeout, liveness);
  limits.liveness = std::chrono::duration_cast<std::chrono::seconds>(liveness);
  size(maxMessageSize, limits.maxMessageSize);
  size(maxSessionMemory, limits.sessionMemory);
  uint64_t sessionsAtOnce = 0;
  const std::string &count = maxSessions;
  if (count.find_first_not_of("0123456789") != std::string::npos ||
      !parseSize(count, sessionsAtOnce) || sessionsAtOnce == 0 ||
      sessionsAtOnce > 100000)
    flagError("--max-sessions '" + count +
              "' is not a number from 1 to 100000");
  limits.maxSessions = static_cast<unsigned>(sessionsAtOnce);
  auto number = [](const cl::opt<std::string> &flag, unsigned &out) {
    const std::string &text = flag;
    uint64_t value = 0;
    if (text.empty() ||
        text.find_first_not_of("0123456789") != std::string::npos ||
        !parseSize(text, value) || value == 0 || value > 100000)
      flagError("--" + flag.ArgStr.str() + " '" + text +
                "' is not a number from 1 to 100000");
    out = static_cast<unsigned>(value);
  };
  number(maxPending, limits.maxPending);
  number(maxSessionProcesses, limits.sessionProcesses);
  number(maxPendingPerAddress, limits.maxPendingPerAddress);
  duration(authTimeout, limits.authTimeout);
  if (!assetRoot.empty())
    flags.assetRoot = assetRoot;
  else if (const char *tmp = std::getenv("TMPDIR"); tmp && *tmp)
    flags.assetRoot = tmp;
  else
    flags.assetRoot = "/tmp";
  flags.useKernelHeap = !noKernelHeap;
  flags.requireIsolation = requireIsolation;
  flags.ownNetwork = sessionNetwork == SessionNetwork::Own;
  flags.allowedCalls.assign(allowSyscall.begin(), allowSyscall.end());
  if (std::string problem = checkSyscallNames(flags.allowedCalls);
      !problem.empty())
    flagError("--allow-syscall: " + problem);
  flags.logLaunches = log == LogLevel::All;
  flags.debugWait = debugWait;
  flags.publishOurs = services != Services::Catalyst;
  flags.publishCatalyst = services != Services::ExecutorStudio;
  if (flags.tlsCert.empty() != flags.tlsKey.empty())
    flagError("--tls-cert and --tls-key go together");
  if (flags.allowRemote && !flags.insecurePlaintext &&
      (flags.tlsCert.empty() || flags.tokenFile.empty()))
    flagError("--allow-remote needs --tls-cert, --tls-key and --token-file: "
              "remote clients must present a shared token, over TLS (or say "
              "--insecure-plaintext to accept anyone who can reach the port)");
  return flags;
}

} // namespace executor_studio::runtime
