//===- SlurmConnect.cpp - a session as a Slurm step (srun) ----------------===//
#include "ExecutorRuntime/Connect.h"
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/SshConnect.h"
#include "ExecutorRuntime/Stream.h"

#include <algorithm>

using namespace llvm;

namespace executor_studio::runtime {

std::vector<std::string> srunCommand(const AddressParts &parts) {
  std::vector<std::string> args = {"srun",      "--unbuffered",
                                   "--quiet",   "--ntasks=1",
                                   "--nodes=1", "--job-name=executor-server"};
  for (const auto &[name, value] : parts.slurmOptions)
    args.push_back("--" + name + "=" + value);
  args.insert(args.end(),
              {"--",
               parts.path.empty() ? std::string("executor-server") : parts.path,
               "--stdio"});
  return args;
}

Expected<std::unique_ptr<Stream>> connectSlurm(const AddressParts &parts,
                                               const ClientOptions &options) {
  int64_t seconds = 60;
  std::string why;
  if (!secondsFromEnvironment("EXECUTOR_SLURM_WAIT", 60, seconds, why))
    return createStringError(inconvertibleErrorCode(), why);
  auto wait = std::max<std::chrono::milliseconds>(
      options.handshakeTimeout, std::chrono::seconds(seconds));
  std::string waited = std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(wait).count());
  return connectThroughProgram(
      srunCommand(parts), wait,
      "install Slurm's client (Debian: slurm-client) on this host",
      [&](const std::string &said, int code, const std::string &why) {
        if (why.rfind("refused the session", 0) == 0)
          return "executor-server on the node Slurm chose " + why;
        std::string form = "slurm:server=/path/to/executor-server";
        if (said.find("execve(): ") != std::string::npos &&
            said.find("No such file or directory") != std::string::npos)
          return parts.path.empty()
                     ? "no executor-server on the node Slurm chose (install "
                       "it there, or give its path: " +
                           form + ")"
                     : "no executor-server at " + parts.path +
                           " on the node Slurm chose (install it there, or "
                           "give its path: " +
                           form + ")";
        if (said.find("Unknown command line argument '--stdio'") !=
            std::string::npos)
          return std::string("the executor-server on the node Slurm chose "
                             "is older than --stdio, which slurm: addresses "
                             "run: install this version there");
        std::string last = lastLines(said);
        if (code == -2)
          return "the step did not start an executor session within " + waited +
                 " s (still waiting for its allocation? see squeue; "
                 "EXECUTOR_SLURM_WAIT=SECONDS waits longer)" +
                 (last.empty() ? "" : ": " + last);
        return "srun ended with exit code " + std::to_string(code) +
               (last.empty() ? " and said nothing" : ": " + last);
      });
}

} // namespace executor_studio::runtime
