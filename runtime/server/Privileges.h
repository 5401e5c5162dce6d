//===- Privileges.h - what a session may reach ------------------*- C++ -*-===//
//
// A server started as root runs its sessions as an unprivileged user
// (--run-as, default nobody): no supplementary groups, no capabilities,
// no_new_privs (nothing it executes gains privileges). Every session dies
// with the listener (PR_SET_PDEATHSIG), so none is left serving.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_PRIVILEGES_H
#define EXECUTORSERVER_PRIVILEGES_H

#include <string>
#include <sys/types.h>

namespace executor_studio::runtime {

struct RunAs {
  bool drop = false; // only when started as root
  std::string user;
  uid_t uid = 0;
  gid_t gid = 0;
};

/// Resolves `user` (a name or a number). Not root: nothing to drop, and a
/// user named explicitly is an error. Returns "" or the problem.
std::string resolveRunAs(const std::string &user, bool named, RunAs &runAs);

/// "" when `runAs` can reach (search) the directory `path` and every
/// directory above it, else which one it cannot.
std::string reachableBy(const std::string &path, const RunAs &runAs);

/// In a session process: becomes `runAs` (when it says to drop), sets
/// no_new_privs, and dies with the listener `listener`. "" or the problem.
std::string enterSessionPrivileges(const RunAs &runAs, pid_t listener);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_PRIVILEGES_H
