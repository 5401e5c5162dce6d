//===- Privileges.cpp - what a session may reach --------------------------===//
#include "Privileges.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace executor_studio::runtime {

std::string resolveRunAs(const std::string &user, bool named, RunAs &runAs) {
  runAs = RunAs();
  runAs.user = user;
  if (geteuid() != 0) {
    if (named)
      return "--run-as " + user + " needs a server started as root (this one "
             "runs as uid " + std::to_string(geteuid()) + ", and so do its "
             "sessions)";
    return "";
  }
  const passwd *entry = getpwnam(user.c_str());
  if (!entry && !user.empty() &&
      user.find_first_not_of("0123456789") == std::string::npos)
    entry = getpwuid(static_cast<uid_t>(std::strtoul(user.c_str(), nullptr, 10)));
  if (!entry)
    return "--run-as: there is no user '" + user + "' on this host";
  if (entry->pw_uid == 0)
    return "--run-as " + user + " is root: sessions must not run as root";
  runAs.drop = true;
  runAs.uid = entry->pw_uid;
  runAs.gid = entry->pw_gid;
  return "";
}

std::string reachableBy(const std::string &path, const RunAs &runAs) {
  if (!runAs.drop)
    return "";
  char *real = realpath(path.c_str(), nullptr);
  if (!real)
    return path + ": " + std::strerror(errno);
  std::string full = real;
  std::free(real);
  size_t end = 0;
  while (end != std::string::npos) {
    end = full.find('/', end + 1);
    std::string dir = end == std::string::npos ? full : full.substr(0, end);
    struct stat st{};
    if (stat(dir.empty() ? "/" : dir.c_str(), &st) != 0)
      return dir + ": " + std::strerror(errno);
    mode_t bit = st.st_uid == runAs.uid   ? S_IXUSR
                 : st.st_gid == runAs.gid ? S_IXGRP
                                          : S_IXOTH;
    if (!(st.st_mode & bit))
      return dir + " is not searchable by " + runAs.user;
  }
  return "";
}

std::string enterSessionPrivileges(const RunAs &runAs, pid_t listener) {
  if (runAs.drop) {
    if (setgroups(0, nullptr) != 0 || setgid(runAs.gid) != 0 ||
        setuid(runAs.uid) != 0)
      return "cannot become " + runAs.user + ": " + std::strerror(errno);
    if (setuid(0) == 0)
      return "dropped to " + runAs.user + " but could become root again";
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return std::string("cannot set no_new_privs: ") + std::strerror(errno);
  // After the change of user (which clears it): the listener's death ends
  // the session. A listener that died before this line is caught below.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
    return std::string("cannot tie the session to the listener: ") +
           std::strerror(errno);
  if (getppid() != listener)
    _exit(0);
  return "";
}

} // namespace executor_studio::runtime
