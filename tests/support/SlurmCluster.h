//===- SlurmCluster.h - a one-node Slurm, for tests and benches -*- C++ -*-===//
//
// Real Slurm, no mocks: start() runs munged, slurmctld and slurmd (as root)
// for a one-node cluster on this host with a generated munge key and
// slurm.conf (SLURM_CONF, set for this process and its children), cgroup
// v1 autodetected, proctrack/linuxproc and task/none; the node's partition
// is `debug`. The slurm: tests (SlurmAddressTest.cpp) and
// executor-runtime-bench --remote share it.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_SLURMCLUSTER_H
#define TESTS_SUPPORT_SLURMCLUSTER_H

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
#include <memory>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace executor_test {

class SlurmCluster {
public:
  SlurmCluster() = default;
  SlurmCluster(const SlurmCluster &) = delete;
  SlurmCluster &operator=(const SlurmCluster &) = delete;
  ~SlurmCluster() { stop(); }

  /// Starts the cluster and waits until its node is idle; "" when it is,
  /// else why it cannot run here (a reason to skip).
  std::string start() {
    for (const char *daemon :
         {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd"})
      if (access(daemon, X_OK) != 0)
        return std::string("needs ") + daemon;
    if (!llvm::sys::findProgramByName("srun"))
      return "needs srun (slurm-client)";
    if (getuid() != 0)
      return "needs root (Slurm's daemons)";
    char templ[] = "/tmp/slurm-test-XXXXXX";
    if (!mkdtemp(templ))
      return "cannot make a directory under /tmp";
    directory = templ;
    for (const char *sub : {"/state", "/spool"})
      llvm::sys::fs::create_directories(directory + sub);
    {
      std::ofstream key(directory + "/munge.key", std::ios::binary);
      std::ifstream random("/dev/urandom", std::ios::binary);
      char bytes[1024];
      random.read(bytes, sizeof(bytes));
      key.write(bytes, sizeof(bytes));
    }
    chmod((directory + "/munge.key").c_str(), 0400);
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    std::string node(host);
    node = node.substr(0, node.find('.'));
    const std::string &dir = directory;
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
    std::string why;
    auto daemon = [&](std::vector<std::string> args, const std::string &log) {
      auto process = std::make_unique<executor_studio::Subprocess>();
      executor_studio::SubprocessOptions options;
      options.out = executor_studio::Redirect::file(dir + "/" + log);
      options.err = executor_studio::Redirect::file(dir + "/" + log + ".err");
      options.newProcessGroup = true;
      if (llvm::Error err = process->start(args, options))
        why = llvm::toString(std::move(err));
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
    if (!why.empty())
      return why;
    // Up once the node is idle.
    for (int i = 0; i < 300; ++i) {
      if (output({"sinfo", "-h", "-o", "%T"}).find("idle") == 0)
        return "";
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return "the Slurm node did not become idle: " +
           readFile(dir + "/slurmctld.log") + readFile(dir + "/slurmd.log");
  }

  /// Cancels the jobs, stops the daemons and the steps of this cluster,
  /// and removes its directory. Idempotent.
  void stop() {
    if (directory.empty())
      return;
    // The steps first (a killed srun's step ends when Slurm notices).
    if (daemons.size() == 3) {
      output({"scancel", "--full", "--user=root"});
      for (int i = 0; i < 100; ++i) {
        if (output({"squeue", "-h"}).empty())
          break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    // slurmd, slurmctld, munged: SIGKILL to their groups, in reverse.
    while (!daemons.empty())
      daemons.pop_back();
    // A step's slurmstepd leaves slurmd's group: those of this cluster.
    std::string ours = "SLURM_CONF=" + directory + "/slurm.conf";
    DIR *proc = opendir("/proc");
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
    // (remove_directories leaves sockets.)
    ::unlink((directory + "/munge.sock").c_str());
    llvm::sys::fs::remove_directories(directory);
    directory.clear();
    unsetenv("SLURM_CONF");
  }

  /// Its directory (slurm.conf, the daemons' logs).
  const std::string &dir() const { return directory; }

  /// What `args` (found on PATH) printed on standard output ("" when it
  /// failed), within 20 s.
  std::string output(const std::vector<std::string> &args) const {
    std::string scratch = directory + "/output.txt";
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

private:
  static std::string freePort() {
    std::string address;
    int fd = executor_studio::runtime::bindLoopback(/*listen=*/false, address);
    ::close(fd);
    return address.substr(address.rfind(':') + 1);
  }

  std::string directory;
  std::vector<std::unique_ptr<executor_studio::Subprocess>> daemons;
};

} // namespace executor_test

#endif // TESTS_SUPPORT_SLURMCLUSTER_H
