//===- executor-lsp-client.cpp - a scripted LSP client for lit tests ------===//
//
// Runs a language server with Content-Length framing and plays a script in
// the format of mlir-lsp-server's tests: JSON messages separated by
// `// -----` lines, other `//` lines being comments. Unlike piping the script
// into `-lit-test`, it waits for the answer to each request before it sends
// the next message, so tests of asynchronous behaviour (previews, the
// pipeline's diagnostics, cancellation, shutdown) are deterministic.
// Directives, as comments in a message's block:
//
//   // CLIENT-NOWAIT              send the request without waiting for it
//   // CLIENT-WAIT: method [text]  then wait for a message of `method` whose
//                                 JSON contains `text`
//   // CLIENT-SLEEP: ms           then sleep
//   // CLIENT-TEXT: path          replace the document text in the message
//                                 (didOpen, didChange's first change, or
//                                 the "text" of a request's params, as
//                                 executor/rerunFrom has) by the file's
//                                 (relative to the script)
//   // CLIENT-CAPTURE: NAME = PATH  keep the member at PATH of the answer
//                                 (`result.snapshots.2.ir`: members and
//                                 array positions); later blocks have
//                                 `${NAME}` replaced by it (a string as is,
//                                 other values as JSON)
//   // CLIENT-SAME: A B            then print `same: A B` when the values
//                                 captured as A and B are byte-identical,
//                                 else `differ: A B` and their sizes
//   // CLIENT-RAW                 send the block as is (malformed JSON)
//   // CLIENT-BYTES               send the block's lines, joined without line
//                                 breaks, as raw bytes with no framing added;
//                                 `\r`, `\n`, `\0`, `\\` and `\xNN` are
//                                 decoded (malformed headers)
//
// --text-dir=DIR resolves relative CLIENT-TEXT paths against DIR (for
// documents a RUN line generates); --max-rss-mb=N checks at the end that the
// server's peak resident memory (VmHWM) stayed within N MiB.
//
// Every message the server sends is printed, indented, in the order it
// arrives; at the end the client closes the server's input and prints
// `exit code: N`.
//
//===----------------------------------------------------------------------===//
#include "LspTestClient.h"
#include "SanitizerSlowdown.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace llvm;
using namespace executor_studio::lsp_test;

namespace {
cl::opt<std::string> scriptPath(cl::Positional, cl::desc("<script>"),
                                cl::Required);
cl::list<std::string> serverCommand(cl::ConsumeAfter,
                                    cl::desc("<server> [server options]"));
// A minute (ten under TSan: the server's pipeline runs that much slower).
cl::opt<unsigned> timeoutMs("timeout-ms",
                            cl::desc("How long to wait for one answer"),
                            cl::init(60000 * executor_test::kSanitizerSlowdown));
cl::opt<std::string>
    textDir("text-dir",
            cl::desc("Where relative CLIENT-TEXT paths are (default: the "
                     "script's folder)"));
cl::opt<unsigned>
    maxRssMb("max-rss-mb",
             cl::desc("Fail when the server's peak RSS passes this (MiB)"),
             cl::init(0));

struct Step {
  std::string body;
  bool nowait = false;
  bool raw = false;
  bool bytes = false;
  std::string waitMethod;
  std::string waitText;
  unsigned sleepMs = 0;
  std::string textFile;
  /// CLIENT-CAPTURE: (name, path).
  std::vector<std::pair<std::string, std::string>> captures;
  /// CLIENT-SAME: the two names.
  std::optional<std::pair<std::string, std::string>> same;
};

std::vector<Step> parseScript(StringRef text) {
  std::vector<Step> steps;
  Step current;
  bool any = false;
  auto flush = [&] {
    if (any)
      steps.push_back(std::move(current));
    current = Step();
    any = false;
  };
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef rawLine : lines) {
    StringRef line = rawLine.trim();
    if (line == "// -----") {
      flush();
      continue;
    }
    if (line.starts_with("//")) {
      StringRef comment = line.drop_front(2).trim();
      if (comment == "CLIENT-NOWAIT") {
        current.nowait = any = true;
      } else if (comment == "CLIENT-RAW") {
        current.raw = any = true;
      } else if (comment == "CLIENT-BYTES") {
        current.bytes = any = true;
      } else if (comment.consume_front("CLIENT-WAIT:")) {
        auto [method, rest] = comment.trim().split(' ');
        current.waitMethod = method.str();
        current.waitText = rest.trim().str();
        any = true;
      } else if (comment.consume_front("CLIENT-SLEEP:")) {
        comment.trim().getAsInteger(10, current.sleepMs);
        any = true;
      } else if (comment.consume_front("CLIENT-CAPTURE:")) {
        auto [name, path] = comment.split('=');
        current.captures.emplace_back(name.trim().str(), path.trim().str());
        any = true;
      } else if (comment.consume_front("CLIENT-SAME:")) {
        auto [a, b] = comment.trim().split(' ');
        current.same.emplace(a.trim().str(), b.trim().str());
        any = true;
      } else if (comment.consume_front("CLIENT-TEXT:")) {
        current.textFile = comment.trim().str();
        any = true;
      }
      continue;
    }
    if (line.empty())
      continue;
    current.body += rawLine.str();
    if (!current.bytes)
      current.body += "\n";
    any = true;
  }
  flush();
  return steps;
}

/// `text` with the escapes of CLIENT-BYTES decoded.
std::string decodeBytes(StringRef text) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      result += text[i];
      continue;
    }
    char c = text[++i];
    if (c == 'r')
      result += '\r';
    else if (c == 'n')
      result += '\n';
    else if (c == '0')
      result += '\0';
    else if (c == 'x' && i + 2 < text.size() && isHexDigit(text[i + 1]) &&
             isHexDigit(text[i + 2])) {
      result += static_cast<char>(hexFromNibbles(text[i + 1], text[i + 2]));
      i += 2;
    } else
      result += c;
  }
  return result;
}

/// The peak resident memory of process `pid` in KiB (VmHWM), or none.
std::optional<uint64_t> getPeakRssKiB(int pid) {
  auto status =
      MemoryBuffer::getFileAsStream(formatv("/proc/{0}/status", pid).str());
  if (!status)
    return std::nullopt;
  SmallVector<StringRef> lines;
  (*status)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    if (!line.consume_front("VmHWM:"))
      continue;
    uint64_t kib = 0;
    if (!line.trim().consume_back(" kB") ||
        line.trim().drop_back(3).trim().getAsInteger(10, kib))
      return std::nullopt;
    return kib;
  }
  return std::nullopt;
}

/// The member of `value` at `path` (`result.snapshots.2.ir`), or null.
const json::Value *findPath(const json::Value &value, StringRef path) {
  const json::Value *current = &value;
  SmallVector<StringRef> parts;
  path.split(parts, '.');
  for (StringRef part : parts) {
    unsigned index = 0;
    if (const json::Object *object = current->getAsObject())
      current = object->get(part);
    else if (const json::Array *array = current->getAsArray();
             array && !part.getAsInteger(10, index) && index < array->size())
      current = &(*array)[index];
    else
      current = nullptr;
    if (!current)
      return nullptr;
  }
  return current;
}

/// `body` with each `${NAME}` replaced by its captured value.
std::string substitute(StringRef body, const StringMap<std::string> &values) {
  std::string result;
  while (!body.empty()) {
    size_t start = body.find("${");
    size_t end = start == StringRef::npos ? StringRef::npos
                                          : body.find('}', start);
    if (end == StringRef::npos) {
      result += body;
      break;
    }
    result += body.take_front(start);
    StringRef name = body.slice(start + 2, end);
    auto it = values.find(name);
    result += it == values.end() ? body.slice(start, end + 1).str()
                                 : it->second;
    body = body.drop_front(end + 1);
  }
  return result;
}

void print(const json::Value &message) {
  outs() << formatv("{0:2}", message) << "\n";
  outs().flush();
}

/// Replaces the document text of a didOpen or didChange.
bool setText(json::Value &message, StringRef text) {
  json::Object *params = message.getAsObject()
                             ? message.getAsObject()->getObject("params")
                             : nullptr;
  if (!params)
    return false;
  if (json::Object *document = params->getObject("textDocument")) {
    if (document->get("text")) {
      (*document)["text"] = text.str();
      return true;
    }
  }
  if (json::Array *changes = params->getArray("contentChanges")) {
    if (!changes->empty() && changes->front().getAsObject()) {
      (*changes->front().getAsObject())["text"] = text.str();
      return true;
    }
  }
  if (params->get("text")) {
    (*params)["text"] = text.str();
    return true;
  }
  return false;
}
} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "scripted LSP client for tests\n");
  if (serverCommand.empty()) {
    errs() << "no server command (after --)\n";
    return 2;
  }
  auto script = MemoryBuffer::getFile(scriptPath);
  if (!script) {
    errs() << "cannot read " << scriptPath << "\n";
    return 2;
  }
  std::vector<Step> steps = parseScript((*script)->getBuffer());
  SmallString<256> scriptDir(scriptPath.getValue());
  sys::path::remove_filename(scriptDir);

  LspProcess server;
  std::string error;
  std::vector<std::string> command(serverCommand.begin(), serverCommand.end());
  if (!command.empty() && command.front() == "--")
    command.erase(command.begin());
  if (!server.start(command, error)) {
    errs() << error << "\n";
    return 2;
  }
  auto timeout = std::chrono::milliseconds(timeoutMs);
  int status = 0;
  StringMap<std::string> captured;
  for (Step &step : steps) {
    std::optional<json::Value> id;
    if (!step.body.empty()) {
      if (step.bytes) {
        server.sendRaw(decodeBytes(step.body));
      } else if (step.raw) {
        server.sendBody(StringRef(step.body).rtrim("\n"));
      } else {
        Expected<json::Value> message =
            json::parse(substitute(step.body, captured));
        if (!message) {
          errs() << "invalid JSON in the script: "
                 << toString(message.takeError()) << "\n"
                 << step.body;
          return 2;
        }
        if (!step.textFile.empty()) {
          SmallString<256> path(step.textFile);
          if (!sys::path::is_absolute(path)) {
            path = textDir.empty() ? StringRef(scriptDir) : StringRef(textDir);
            sys::path::append(path, step.textFile);
          }
          auto text = MemoryBuffer::getFile(path);
          if (!text || !setText(*message, (*text)->getBuffer())) {
            errs() << "cannot use " << path << " as the document text\n";
            return 2;
          }
        }
        const json::Object *object = message->getAsObject();
        if (object && object->get("method") && object->get("id"))
          id = *object->get("id");
        server.send(*message);
      }
    }
    if (id && !step.nowait) {
      std::vector<json::Value> others;
      std::optional<json::Value> response =
          server.waitForResponse(*id, timeout, &others);
      for (const json::Value &other : others)
        print(other);
      if (!response) {
        outs() << formatv("timeout: no answer to request {0}\n", *id);
        status = 1;
        break;
      }
      print(*response);
      for (const auto &[name, path] : step.captures) {
        const json::Value *value = findPath(*response, path);
        if (!value) {
          outs() << "capture: the answer has no " << path << "\n";
          status = 1;
          continue;
        }
        std::optional<StringRef> text = value->getAsString();
        captured[name] = text ? text->str() : formatv("{0}", *value).str();
      }
    }
    if (step.same) {
      auto a = captured.find(step.same->first);
      auto b = captured.find(step.same->second);
      bool same = a != captured.end() && b != captured.end() &&
                  a->second == b->second;
      outs() << (same ? "same: " : "differ: ") << step.same->first << " "
             << step.same->second;
      if (!same)
        outs() << formatv(" ({0} and {1} bytes)",
                          a == captured.end() ? 0 : a->second.size(),
                          b == captured.end() ? 0 : b->second.size());
      outs() << "\n";
    }
    if (!step.waitMethod.empty()) {
      bool found = false;
      while (!found) {
        std::optional<json::Value> message = server.read(timeout);
        if (!message)
          break;
        print(*message);
        const json::Object *object = message->getAsObject();
        std::optional<StringRef> method =
            object ? object->getString("method") : std::nullopt;
        found =
            method && *method == step.waitMethod &&
            (step.waitText.empty() ||
             StringRef(formatv("{0}", *message).str()).contains(step.waitText));
      }
      if (!found) {
        outs() << "timeout: no " << step.waitMethod << " " << step.waitText
               << "\n";
        status = 1;
        break;
      }
    }
    if (step.sleepMs)
      std::this_thread::sleep_for(std::chrono::milliseconds(step.sleepMs));
  }
  // Whatever else the server says before it exits.
  while (std::optional<json::Value> message =
             server.read(std::chrono::milliseconds(200)))
    print(*message);
  if (maxRssMb) {
    std::optional<uint64_t> peak = getPeakRssKiB(server.getPid());
    if (!peak) {
      outs() << "cannot read the server's peak RSS\n";
      status = 1;
    } else if (*peak > uint64_t(maxRssMb) * 1024) {
      outs() << formatv("peak RSS {0} MiB is over the limit of {1} MiB\n",
                        *peak / 1024, maxRssMb.getValue());
      status = 1;
    } else {
      outs() << formatv("peak RSS within {0} MiB\n", maxRssMb.getValue());
    }
  }
  int exitCode = server.finish(timeout);
  outs() << "exit code: " << exitCode << "\n";
  return status;
}
