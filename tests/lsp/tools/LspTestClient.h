//===- LspTestClient.h - drive a language server over pipes -----*- C++ -*-===//
//
// The test driver, the fuzz test and the benchmark talk to the real server
// binaries through this: Content-Length framing on the child's stdin and
// stdout, reads with time-outs, raw bytes when a test needs malformed input.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_TESTS_LSPTESTCLIENT_H
#define EXECUTORLSP_TESTS_LSPTESTCLIENT_H

#include "ExecutorStudio/Support/Subprocess.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio {
namespace lsp_test {

class LspProcess {
public:
  LspProcess() = default;
  LspProcess(const LspProcess &) = delete;
  LspProcess &operator=(const LspProcess &) = delete;
  ~LspProcess();

  /// Starts `argv` with pipes for stdin and stdout; stderr goes to
  /// `stderrPath` (inherited when empty).
  bool start(const std::vector<std::string> &argv, std::string &error,
             const std::string &stderrPath = "");

  /// Sends `message` with its Content-Length header.
  bool send(const llvm::json::Value &message);
  /// Sends `body` as one message, unchanged (it need not be JSON).
  bool sendBody(llvm::StringRef body);
  /// Sends raw bytes (framing included).
  bool sendRaw(llvm::StringRef bytes);

  /// The next message, or none when `timeout` passes or the output ends.
  /// `body` receives its text.
  std::optional<llvm::json::Value> read(std::chrono::milliseconds timeout,
                                        std::string *body = nullptr);

  /// Waits for the response to request `id`, keeping the other messages in
  /// `others` (when given).
  std::optional<llvm::json::Value>
  waitForResponse(const llvm::json::Value &id,
                  std::chrono::milliseconds timeout,
                  std::vector<llvm::json::Value> *others = nullptr);

  /// Closes stdin and waits for the exit; kills it after `timeout`.
  /// Returns the exit code (-1 if killed or crashed).
  int finish(std::chrono::milliseconds timeout);

  /// Whether the process is still running.
  bool isRunning();

  int getPid() const { return process.processId(); }

  /// When the last message read had fully arrived (before it was parsed).
  std::chrono::steady_clock::time_point getLastArrival() const {
    return lastArrival;
  }

private:
  bool writeAll(llvm::StringRef bytes);
  executor_studio::Subprocess process;
  int toChild = -1;
  int fromChild = -1;
  std::string buffer;
  int exitCode = -1;
  std::chrono::steady_clock::time_point lastArrival;
};

/// A JSON string literal of `bytes` that keeps bytes >= 0x80 as they are
/// (so a test can send invalid UTF-8, which llvm::json would repair).
std::string quoteRawJSONString(llvm::StringRef bytes);

/// `{"jsonrpc":"2.0","id":id,"method":method,"params":params}`.
llvm::json::Value makeRequest(int64_t id, llvm::StringRef method,
                              llvm::json::Value params);
llvm::json::Value makeNotification(llvm::StringRef method,
                                   llvm::json::Value params);

} // namespace lsp_test
} // namespace executor_studio

#endif // EXECUTORLSP_TESTS_LSPTESTCLIENT_H
