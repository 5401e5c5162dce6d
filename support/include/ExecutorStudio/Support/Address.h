//===- Address.h - the one grammar of executor addresses --------*- C++ -*-===//
//
// An executor address, as IR writes it (executor.open, catalyst.dispatch,
// a runtime_call's dispatch), as EXECUTOR_ADDRESS_MAP maps it, and as the
// runtime and executor-server --bind take it:
//   HOST:PORT       a DNS name or IPv4 address, e.g. 127.0.0.1:4711
//   [HOST]:PORT     an IPv6 address in brackets, e.g. [::1]:4711
//   unix:PATH       a Unix socket on this host, e.g. unix:/run/user/1000/executor.sock
//   ssh://[USER@]HOST[:PORT][/PATH]
//                   executor-server --stdio on HOST, started by OpenSSH's ssh
//                   (PATH: where executor-server is there; default: its PATH),
//                   e.g. ssh://me@lab-gpu/opt/executor/bin/executor-server
//   slurm:[NAME=VALUE[,NAME=VALUE...]]
//                   executor-server --stdio as a one-task Slurm step (srun);
//                   NAME: one of srun's options below (--NAME=VALUE), or
//                   server=PATH, where executor-server is on the node,
//                   e.g. slurm:partition=gpu,gres=gpu:1,time=30
// PORT is a decimal number from 0 to 65535, or a placeholder name (letters,
// digits and '_', not starting with a digit: `ADDR:PORT`) that
// EXECUTOR_ADDRESS_MAP maps to a real address before anything connects.
//
// Header-only and dependency-free: the core's verifier (validateAddress)
// and the runtime parse with the same code and report the same problem
// text. Both say `address "..." PROBLEM` / `address '...' PROBLEM`.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_ADDRESS_H
#define EXECUTORSTUDIO_SUPPORT_ADDRESS_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace executor_studio {

/// The prefix of a Unix socket's address.
inline constexpr std::string_view kUnixAddressPrefix = "unix:";
/// The longest path a Unix socket address may have (sockaddr_un).
inline constexpr size_t kMaxUnixPath = 107;
/// The prefix of an address that ssh reaches.
inline constexpr std::string_view kSshAddressPrefix = "ssh://";
/// The prefix of an address that Slurm's srun reaches.
inline constexpr std::string_view kSlurmAddressPrefix = "slurm:";
/// The srun options a slurm: address may give (none that runs a program
/// or names a file: an address in IR must not make anything else run).
inline constexpr const char *kSlurmOptions[] = {
    "partition", "time",    "gres",          "gpus",     "constraint",
    "account",   "qos",     "mem",           "cpus-per-task", "nodelist",
    "reservation", "mem-per-gpu", "gpus-per-task"};

/// An address's parts (parseAddress).
struct AddressParts {
  bool unixSocket = false;
  std::string path;         // of unix:PATH
  std::string host, port;   // of HOST:PORT, [HOST]:PORT
  bool placeholder = false; // PORT is a name EXECUTOR_ADDRESS_MAP maps
  bool ssh = false;         // ssh://: user (may be ""), host, port (may be
                            // ""), path (the remote executor-server, or "")
  std::string user;
  bool slurm = false; // slurm:: slurmOptions (NAME, VALUE), path (server=)
  std::vector<std::pair<std::string, std::string>> slurmOptions;
};

/// Whether `address` is a slurm: address (well-formed or not).
inline bool isSlurmAddress(std::string_view address) {
  return address.substr(0, kSlurmAddressPrefix.size()) == kSlurmAddressPrefix;
}

/// "" when `options` (a slurm: address after the prefix) are NAME=VALUE
/// pairs of kSlurmOptions or server=PATH; otherwise what is wrong.
inline std::string parseSlurmAddress(std::string_view options,
                                     AddressParts &out) {
  auto isValueChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' ||
           c == ':' || c == '+' || c == '@' || c == '%' || c == '[' ||
           c == ']';
  };
  auto isPathChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' ||
           c == '/' || c == '+' || c == '@' || c == '%' || c == ':';
  };
  std::string names;
  for (const char *name : kSlurmOptions)
    names += std::string(names.empty() ? "" : ", ") + name;
  AddressParts parsed;
  parsed.slurm = true;
  size_t start = 0;
  while (start < options.size()) {
    size_t comma = options.find(',', start);
    std::string_view option = options.substr(
        start, comma == std::string_view::npos ? comma : comma - start);
    start = comma == std::string_view::npos ? options.size() : comma + 1;
    size_t eq = option.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == option.size())
      return "has '" + std::string(option) +
             "', not NAME=VALUE; write it as slurm:NAME=VALUE,... (e.g. "
             "slurm:partition=gpu,time=30)";
    std::string name(option.substr(0, eq));
    std::string_view value = option.substr(eq + 1);
    if (name == "server") {
      if (value.front() != '/')
        return "has server='" + std::string(value) +
               "', not an absolute path to executor-server";
      for (char c : value)
        if (!isPathChar(c))
          return "has the character '" + std::string(1, c) +
                 "' in its server path; give a path of letters, digits and "
                 "/ . _ - + @ % :";
      parsed.path = std::string(value);
      continue;
    }
    bool known = false;
    for (const char *allowed : kSlurmOptions)
      known = known || name == allowed;
    if (!known)
      return "has the option '" + name + "', which a slurm: address may not "
             "give srun (it may give " + names + ", and server=PATH)";
    for (char c : value)
      if (!isValueChar(c))
        return "has the character '" + std::string(1, c) + "' in " + name +
               "=" + std::string(value);
    parsed.slurmOptions.emplace_back(name, std::string(value));
  }
  out = std::move(parsed);
  return "";
}

/// Whether `address` is an ssh:// address (well-formed or not).
inline bool isSshAddress(std::string_view address) {
  return address.substr(0, kSshAddressPrefix.size()) == kSshAddressPrefix;
}

/// "" when `remote` is an ssh:// address's part after the prefix
/// (USER@HOST:PORT/PATH) that is safe to give ssh as arguments and the
/// remote shell as a command; otherwise what is wrong with it.
inline std::string parseSshAddress(std::string_view remote,
                                   AddressParts &out) {
  const std::string form =
      "; write it as ssh://[user@]host[:port][/path/to/executor-server]";
  auto isNameChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
  };
  // The remote side runs the path through a shell: only characters no
  // shell gives a meaning to.
  auto isPathChar = [&](char c) {
    return isNameChar(c) || c == '/' || c == '+' || c == ',' || c == '=' ||
           c == '@' || c == '%' || c == ':';
  };
  size_t slash = remote.find('/');
  std::string_view authority = remote.substr(0, slash);
  std::string_view path =
      slash == std::string_view::npos ? std::string_view() : remote.substr(slash);
  std::string_view user, host, port;
  bool hasPort = false;
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    user = authority.substr(0, at);
    authority = authority.substr(at + 1);
    if (user.empty())
      return "has an empty user before '@'" + form;
  }
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos)
      return "opens an IPv6 host with '[' but has no ']'" + form;
    host = authority.substr(1, close - 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':')
      return "has '" + std::string(rest) + "' after the bracketed host" + form;
    hasPort = !rest.empty();
    port = rest.empty() ? rest : rest.substr(1);
    for (char c : host)
      if (!(isNameChar(c) || c == ':'))
        return "has the character '" + std::string(1, c) +
               "' in its IPv6 host" + form;
  } else {
    size_t colon = authority.find(':');
    host = authority.substr(0, colon);
    hasPort = colon != std::string_view::npos;
    if (hasPort)
      port = authority.substr(colon + 1);
  }
  if (host.empty())
    return "has an empty host" + form;
  if (host.front() == '-')
    return "has a host that starts with '-' (ssh would take it for an "
           "option)";
  if (!user.empty() && user.front() == '-')
    return "has a user that starts with '-' (ssh would take it for an "
           "option)";
  for (char c : user)
    if (!isNameChar(c))
      return "has the character '" + std::string(1, c) + "' in its user" + form;
  if (authority.front() != '[')
    for (char c : host)
      if (!isNameChar(c))
        return "has the character '" + std::string(1, c) + "' in its host" +
               form;
  if (hasPort) {
    bool numeric = !port.empty() && port.size() <= 5;
    for (char c : port)
      numeric = numeric && c >= '0' && c <= '9';
    if (!numeric || std::stoul(std::string(port)) == 0 ||
        std::stoul(std::string(port)) > 65535)
      return "has port '" + std::string(port) + "', not a number in [1, 65535]";
  }
  for (char c : path)
    if (!isPathChar(c))
      return "has " +
             (c == ' ' || c == '\t' || c == '\n'
                  ? std::string("white space")
                  : "the character '" + std::string(1, c) + "'") +
             " in its remote path, which the remote shell would interpret; "
             "give a path of letters, digits and / . _ - + , = @ % :";
  if (path == "/")
    return "has the remote path '/', not a program" + form;
  out.ssh = true;
  out.user = std::string(user);
  out.host = std::string(host);
  out.port = std::string(port);
  out.path = std::string(path);
  return "";
}

/// "" when `address` is an executor address (its parts in `parts`, if
/// given); otherwise what is wrong with it, to follow the address, e.g.
/// "has no port; write it as host:port".
inline std::string parseAddress(std::string_view address,
                                AddressParts *parts = nullptr) {
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
  };
  auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  auto isAlpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  AddressParts local;
  AddressParts &out = parts ? *parts : local;
  out = AddressParts();
  if (address.substr(0, kUnixAddressPrefix.size()) == kUnixAddressPrefix) {
    std::string_view path = address.substr(kUnixAddressPrefix.size());
    if (path.empty())
      return "has no socket path; write it as unix:PATH, e.g. "
             "\"unix:/run/user/1000/executor.sock\"";
    if (path.find('\0') != std::string_view::npos)
      return "has a NUL byte in its socket path";
    if (path.size() > kMaxUnixPath)
      return "has a socket path of " + std::to_string(path.size()) +
             " bytes (at most " + std::to_string(kMaxUnixPath) + ")";
    out.unixSocket = true;
    out.path = std::string(path);
    return "";
  }
  if (address.substr(0, kSshAddressPrefix.size()) == kSshAddressPrefix)
    return parseSshAddress(address.substr(kSshAddressPrefix.size()), out);
  if (isSlurmAddress(address))
    return parseSlurmAddress(address.substr(kSlurmAddressPrefix.size()), out);
  if (address.empty())
    return "is empty; write it as host:port, e.g. \"127.0.0.1:4711\"";
  for (char c : address)
    if (isSpace(c))
      return "contains white space; write it as host:port";
  // A URL (http://HOST:PORT): the executor speaks none of their schemes.
  if (size_t scheme = address.find("://");
      scheme != std::string_view::npos && scheme > 0 && isAlpha(address[0])) {
    std::string_view rest = address.substr(scheme + 3);
    rest = rest.substr(0, rest.find('/'));
    return "has the scheme '" + std::string(address.substr(0, scheme + 3)) +
           "', which is not one the executor speaks; write it as HOST:PORT, "
           "[IPv6]:PORT or unix:PATH" +
           (rest.empty() ? std::string()
                         : ", e.g. \"" + std::string(rest) + "\"");
  }
  std::string_view host, port;
  if (address.front() == '[') {
    size_t close = address.find(']');
    if (close == std::string_view::npos)
      return "opens an IPv6 host with '[' but has no ']'; write it as "
             "[::1]:port";
    host = address.substr(1, close - 1);
    std::string_view rest = address.substr(close + 1);
    if (rest.empty() || rest.front() != ':')
      return "has no ':port' after the bracketed IPv6 host";
    port = rest.substr(1);
  } else {
    size_t colon = address.rfind(':');
    if (colon == std::string_view::npos)
      return "has no port; write it as host:port";
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
    if (host.find(':') != std::string_view::npos)
      return "has an IPv6 host without brackets; write it as [host]:port";
  }
  if (host.empty())
    return "has an empty host; write it as host:port";
  if (port.empty())
    return "has an empty port; write it as host:port";
  out.host = std::string(host);
  out.port = std::string(port);
  bool numeric = true;
  for (char c : port)
    numeric = numeric && isDigit(c);
  if (numeric) {
    size_t digits = port.find_first_not_of('0');
    std::string_view significant =
        digits == std::string_view::npos ? "0" : port.substr(digits);
    if (significant.size() > 5 || std::stoul(std::string(significant)) > 65535)
      return "has port " + std::string(port) + " outside [0, 65535]";
    return "";
  }
  bool symbolic = isAlpha(port.front()) || port.front() == '_';
  for (char c : port)
    symbolic = symbolic && (isAlpha(c) || isDigit(c) || c == '_');
  if (!symbolic)
    return "has port '" + std::string(port) +
           "', which is neither a number nor a placeholder name";
  out.placeholder = true;
  return "";
}

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_ADDRESS_H
