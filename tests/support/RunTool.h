//===- RunTool.h - run a tool from a test, without a shell -----*- C++ -*-===//
//
// Tests and benchmarks run a script or a binary and wait for it with
// llvm::sys::ExecuteAndWait (no shell, no quoting): the certificates
// scripts/make-executor-certs.sh makes, a tool's --help into a file.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_RUNTOOL_H
#define TESTS_SUPPORT_RUNTOOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace executor_test {

/// Runs `program` with `args` (argv[0] is `program`), its standard output
/// to `out` (replaced; "" for /dev/null, std::nullopt to inherit), its standard error
/// inherited, and waits at most `seconds`. Its exit code, or -1 with
/// `*error` set when it could not run, was killed or timed out.
inline int runTool(const std::string &program, const std::vector<std::string> &args,
                   std::optional<std::string> out = std::nullopt,
                   std::string *error = nullptr, unsigned seconds = 120) {
  std::vector<llvm::StringRef> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt, std::nullopt};
  if (out) {
    // ExecuteAndWait opens the file without truncating it.
    if (!out->empty())
      llvm::sys::fs::remove(*out);
    redirects[1] = llvm::StringRef(*out);
  }
  std::string message;
  int code = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, seconds,
                                       /*MemoryLimit=*/0, &message);
  if (code < 0 && error)
    *error = program + ": " + message;
  return code;
}

/// scripts/make-executor-certs.sh DIR NAME...: a CA and a server
/// certificate for NAMEs in `dir`. Whether it succeeded.
inline bool makeExecutorCerts(const std::string &dir, const std::vector<std::string> &names) {
  std::vector<std::string> args = {dir};
  args.insert(args.end(), names.begin(), names.end());
  return runTool(MAKE_EXECUTOR_CERTS, args, /*out=*/"") == 0;
}

} // namespace executor_test

#endif // TESTS_SUPPORT_RUNTOOL_H
