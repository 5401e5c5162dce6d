//===- LspTestClient.cpp - drive a language server over pipes -------------===//
#include "LspTestClient.h"

#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

using namespace executor_studio::lsp_test;
using namespace llvm;
using Clock = std::chrono::steady_clock;

LspProcess::~LspProcess() {
  process.kill();
  if (toChild >= 0)
    ::close(toChild);
  if (fromChild >= 0)
    ::close(fromChild);
}

bool LspProcess::start(const std::vector<std::string> &argv, std::string &error,
                       const std::string &stderrPath) {
  // Writing to a server that died must fail, not kill the test.
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  executor_studio::SubprocessOptions options;
  options.in = executor_studio::Redirect::descriptor(in[0]);
  options.out = executor_studio::Redirect::descriptor(out[1]);
  if (!stderrPath.empty())
    options.err = executor_studio::Redirect::file(stderrPath, 0644);
  options.searchPath = true;
  llvm::Error started = process.start(argv, options);
  ::close(in[0]);
  ::close(out[1]);
  if (started) {
    ::close(in[1]);
    ::close(out[0]);
    error = toString(std::move(started));
    return false;
  }
  toChild = in[1];
  fromChild = out[0];
  return true;
}

bool LspProcess::writeAll(StringRef bytes) {
  if (toChild < 0)
    return false;
  while (!bytes.empty()) {
    ssize_t n = ::write(toChild, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    bytes = bytes.drop_front(n);
  }
  return true;
}

bool LspProcess::send(const json::Value &message) {
  return sendBody(formatv("{0}", message).str());
}

bool LspProcess::sendBody(StringRef body) {
  return writeAll(
             ("Content-Length: " + Twine(body.size()) + "\r\n\r\n").str()) &&
         writeAll(body);
}

bool LspProcess::sendRaw(StringRef bytes) { return writeAll(bytes); }

std::optional<json::Value> LspProcess::read(std::chrono::milliseconds timeout,
                                            std::string *body) {
  auto deadline = Clock::now() + timeout;
  while (true) {
    // A complete message in the buffer?
    size_t headerEnd = buffer.find("\r\n\r\n");
    if (headerEnd != std::string::npos) {
      StringRef headers(buffer.data(), headerEnd);
      size_t length = 0;
      bool found = false;
      SmallVector<StringRef> lines;
      headers.split(lines, "\r\n");
      for (StringRef line : lines) {
        if (line.consume_front("Content-Length: ")) {
          found = !line.trim().getAsInteger(10, length);
        }
      }
      if (!found) {
        // Not LSP framing: drop it to resynchronise.
        buffer.erase(0, headerEnd + 4);
        continue;
      }
      if (buffer.size() >= headerEnd + 4 + length) {
        lastArrival = Clock::now();
        std::string text = buffer.substr(headerEnd + 4, length);
        buffer.erase(0, headerEnd + 4 + length);
        if (body)
          *body = text;
        Expected<json::Value> parsed = json::parse(text);
        if (!parsed) {
          consumeError(parsed.takeError());
          return json::Value(json::Object{{"unparsable", text}});
        }
        return std::move(*parsed);
      }
    }
    if (fromChild < 0)
      return std::nullopt;
    auto now = Clock::now();
    if (now >= deadline)
      return std::nullopt;
    struct pollfd fd = {fromChild, POLLIN, 0};
    int wait =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
            .count();
    int ready = ::poll(&fd, 1, std::max(wait, 1));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue;
    char chunk[65536];
    ssize_t n = ::read(fromChild, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ::close(fromChild);
      fromChild = -1;
      continue;
    }
    buffer.append(chunk, n);
  }
}

std::optional<json::Value>
LspProcess::waitForResponse(const json::Value &id,
                            std::chrono::milliseconds timeout,
                            std::vector<json::Value> *others) {
  auto deadline = Clock::now() + timeout;
  while (true) {
    auto now = Clock::now();
    if (now >= deadline)
      return std::nullopt;
    std::optional<json::Value> message = read(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
    if (!message)
      return std::nullopt;
    const json::Object *object = message->getAsObject();
    if (object && !object->get("method")) {
      const json::Value *messageId = object->get("id");
      if (messageId && *messageId == id)
        return message;
    }
    if (others)
      others->push_back(std::move(*message));
  }
}

bool LspProcess::isRunning() {
  if (!process.running())
    return false;
  if (!process.poll())
    return true;
  exitCode = process.exitCode() < 0 ? -1 : process.exitCode();
  return false;
}

int LspProcess::finish(std::chrono::milliseconds timeout) {
  if (toChild >= 0) {
    ::close(toChild);
    toChild = -1;
  }
  auto deadline = Clock::now() + timeout;
  while (isRunning()) {
    if (Clock::now() >= deadline) {
      process.kill();
      exitCode = -1;
      break;
    }
    // Keep draining its output so it never blocks on a full pipe.
    read(std::chrono::milliseconds(5));
  }
  return exitCode;
}

std::string executor_studio::lsp_test::quoteRawJSONString(StringRef bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20)
        out += formatv("\\u{0:x-4}", static_cast<unsigned>(c)).str();
      else
        out += static_cast<char>(c);
    }
  }
  out += "\"";
  return out;
}

json::Value executor_studio::lsp_test::makeRequest(int64_t id, StringRef method,
                                                   json::Value params) {
  return json::Object{{"jsonrpc", "2.0"},
                      {"id", id},
                      {"method", method},
                      {"params", std::move(params)}};
}

json::Value executor_studio::lsp_test::makeNotification(StringRef method,
                                                        json::Value params) {
  return json::Object{
      {"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}
