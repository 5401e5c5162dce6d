//===- MemoryCgroup.cpp - a session's memory counted where it is ---------===//
#include "MemoryCgroup.h"
#include "Sandbox.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace executor_studio::runtime {

namespace {
std::string failed(const std::string &what) {
  return what + ": " + std::strerror(errno);
}

bool writeFile(const std::string &path, const std::string &text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = write(fd, text.data(), text.size()) ==
            static_cast<ssize_t>(text.size());
  int saved = errno;
  close(fd);
  errno = saved;
  return ok;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool hasWord(const std::string &list, const std::string &word,
             char separator) {
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, separator))
    if (item == word)
      return true;
  return false;
}

/// The mount point and root of the cgroup hierarchy that has `controller`
/// (v1), or of the unified hierarchy (controller ""), from mountinfo.
bool findHierarchy(const std::string &controller, std::string &mountPoint,
                   std::string &root) {
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line;
  while (std::getline(mounts, line)) {
    std::istringstream fields(line);
    std::string id, parent, device, mountRoot, point, field;
    fields >> id >> parent >> device >> mountRoot >> point;
    while (fields >> field && field != "-")
      ;
    std::string type, source, options;
    fields >> type >> source >> options;
    bool match = controller.empty()
                     ? type == "cgroup2"
                     : type == "cgroup" && hasWord(options, controller, ',');
    if (match) {
      mountPoint = point;
      root = mountRoot;
      return true;
    }
  }
  return false;
}

/// This process's group in the hierarchy whose /proc/self/cgroup line has
/// `controllers` ("memory" for v1, "" for v2) as its second field.
bool ownGroup(const std::string &controller, std::string &group) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos)
      continue;
    std::string names = line.substr(first + 1, second - first - 1);
    if (controller.empty() ? names.empty() && line.compare(0, first, "0") == 0
                           : hasWord(names, controller, ',')) {
      group = line.substr(second + 1);
      return true;
    }
  }
  return false;
}

/// The directory of `group` under a hierarchy mounted at `mountPoint`
/// whose root is `root` (a container sees its own part only).
std::string groupDirectory(const std::string &mountPoint,
                           const std::string &root, std::string group) {
  if (root != "/" && group.compare(0, root.size(), root) == 0)
    group = group.substr(root.size());
  if (group.empty() || group == "/")
    return mountPoint;
  return mountPoint + group;
}

std::string sessionGroup(const MemoryCgroups &groups, pid_t session) {
  return groups.parent + "/session-" + std::to_string(session);
}

MemoryCgroups none(std::string why) {
  MemoryCgroups groups;
  groups.why = std::move(why);
  return groups;
}

MemoryCgroups setUpV2(const std::string &mountPoint, const std::string &root,
                      const std::string &group) {
  std::string ours = groupDirectory(mountPoint, root, group);
  if (!hasWord(readFile(ours + "/cgroup.controllers"), "memory", ' '))
    return none("cgroup v2 gives this server's group (" + ours +
                ") no memory controller");
  std::string parent =
      ours + "/executor-server-" + std::to_string(getpid());
  if (!hasWord(readFile(ours + "/cgroup.subtree_control"), "memory", ' ') &&
      !writeFile(ours + "/cgroup.subtree_control", "+memory")) {
    if (errno != EBUSY)
      return none(failed("cannot enable the memory controller in " + ours));
    // "No internal processes": the listener moves into a leaf of its own.
    std::string listener =
        ours + "/executor-listener-" + std::to_string(getpid());
    if ((mkdir(listener.c_str(), 0755) != 0 && errno != EEXIST) ||
        !writeFile(listener + "/cgroup.procs", "0") ||
        !writeFile(ours + "/cgroup.subtree_control", "+memory"))
      return none(failed("cannot enable the memory controller in " + ours));
  }
  if ((mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) ||
      !writeFile(parent + "/cgroup.subtree_control", "+memory"))
    return none(failed("cannot make " + parent));
  MemoryCgroups groups;
  groups.kind = MemoryCgroups::Kind::V2;
  groups.parent = parent;
  return groups;
}
} // namespace

const char *MemoryCgroups::describe() const {
  switch (kind) {
  case Kind::V2:
    return "cgroup v2 memory.max";
  case Kind::V1:
    return "cgroup v1 memory controller";
  case Kind::None:
    break;
  }
  return "none";
}

MemoryCgroups setUpMemoryCgroups() {
  std::string mountPoint, root, group;
  if (findHierarchy("", mountPoint, root) && ownGroup("", group)) {
    MemoryCgroups groups = setUpV2(mountPoint, root, group);
    if (groups.kind != MemoryCgroups::Kind::None)
      return groups;
    // A hybrid machine may have the memory controller in v1 still.
    if (!findHierarchy("memory", mountPoint, root))
      return groups;
  }
  if (!findHierarchy("memory", mountPoint, root) ||
      !ownGroup("memory", group))
    return none("this machine mounts no memory cgroup controller");
  std::string parent = groupDirectory(mountPoint, root, group) +
                       "/executor-server-" + std::to_string(getpid());
  if (mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST)
    return none(failed("cannot make " + parent));
  MemoryCgroups groups;
  groups.kind = MemoryCgroups::Kind::V1;
  groups.parent = parent;
  return groups;
}

uint64_t sessionCgroupLimit(uint64_t sessionMemory) {
  constexpr uint64_t runtimeOwn = uint64_t(512) << 20;
#ifdef EXECUTOR_SANITIZER_SHADOW
  // The sanitizer's shadow and quarantine are the session's pages too.
  return sessionMemory * 3 + 2 * runtimeOwn;
#else
  return sessionMemory + runtimeOwn;
#endif
}

std::string enterSessionMemoryCgroup(const MemoryCgroups &groups,
                                     pid_t session, uint64_t bytes) {
  if (groups.kind == MemoryCgroups::Kind::None || !bytes)
    return "";
  std::string dir = sessionGroup(groups, session);
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return failed("cannot make the session's memory cgroup " + dir);
  std::string limit = std::to_string(bytes);
  bool v2 = groups.kind == MemoryCgroups::Kind::V2;
  if (!writeFile(dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes"), limit))
    return failed("cannot limit the session's memory cgroup " + dir);
  // Swap counted too where the machine accounts it (no file otherwise).
  std::string swap = dir + (v2 ? "/memory.swap.max"
                               : "/memory.memsw.limit_in_bytes");
  if (access(swap.c_str(), F_OK) == 0 &&
      !writeFile(swap, v2 ? "0" : limit))
    return failed("cannot limit the session's swap in " + dir);
  if (!writeFile(dir + "/cgroup.procs", "0"))
    return failed("cannot enter the session's memory cgroup " + dir);
  return "";
}

void removeSessionMemoryCgroup(const MemoryCgroups &groups, pid_t session) {
  if (groups.kind != MemoryCgroups::Kind::None)
    rmdir(sessionGroup(groups, session).c_str());
}

void removeMemoryCgroups(const MemoryCgroups &groups) {
  if (groups.kind != MemoryCgroups::Kind::None)
    rmdir(groups.parent.c_str());
}

std::string enterLimitedIpcNamespace(uint64_t bytes) {
  if (unshare(CLONE_NEWIPC) != 0)
    return failed("unshare(CLONE_NEWIPC)");
  long page = sysconf(_SC_PAGESIZE);
  uint64_t pages = bytes ? (bytes + page - 1) / page : 0;
  // No limit asked: the namespace's own (and it dies with the session).
  if (!bytes)
    return "";
  const std::pair<const char *, std::string> limits[] = {
      {"shmmax", std::to_string(bytes)},
      {"shmall", std::to_string(pages)},
      {"shmmni", "64"},
      {"msgmni", "16"},
      {"msgmnb", "65536"},
      // semmsl semmns semopm semmni
      {"sem", "250 4096 32 64"}};
  for (const auto &[name, value] : limits)
    if (!writeFile(std::string("/proc/sys/kernel/") + name, value))
      return failed(std::string("cannot set the session's SysV limit ") +
                    name);
  return "";
}

bool ipcLimitsWork(uint64_t bytes, std::string &why) {
  return worksInChild([&] { return enterLimitedIpcNamespace(bytes); }, why);
}

} // namespace executor_studio::runtime
