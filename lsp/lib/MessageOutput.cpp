//===- MessageOutput.cpp - the server's output, one message at a time -----===//
#include "ExecutorLsp/MessageOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/LSP/Logging.h"

using namespace executor_studio::lsp;
namespace json = llvm::json;

MessageOutput::MessageOutput(llvm::raw_ostream &out) : out(out) {
  SetUnbuffered();
}

MessageOutput::~MessageOutput() {
  // Whatever the transport left unfinished (nothing, unless it stopped
  // mid-message) goes out as it is.
  std::lock_guard<std::mutex> lock(mutex);
  if (!pending.empty()) {
    out << pending;
    out.flush();
  }
}

void MessageOutput::write_impl(const char *data, size_t size) {
  std::lock_guard<std::mutex> lock(mutex);
  written += size;
  pending.append(data, size);
  // Pass on each whole message: "Content-Length: N\r\n\r\n" and N bytes.
  while (true) {
    size_t headerEnd = pending.find("\r\n\r\n");
    if (headerEnd == std::string::npos)
      return;
    size_t bodyStart = headerEnd + 4;
    llvm::StringRef header(pending.data(), headerEnd);
    uint64_t length = 0;
    size_t at = header.find("Content-Length:");
    if (at == llvm::StringRef::npos ||
        header.drop_front(at + 15).trim().getAsInteger(10, length)) {
      // Not the transport's framing: pass the bytes on as they are.
      out << pending;
      out.flush();
      pending.clear();
      return;
    }
    if (pending.size() - bodyStart < length)
      return;
    out.write(pending.data(), bodyStart + length);
    out.flush();
    pending.erase(0, bodyStart + length);
  }
}

void MessageOutput::reply(
    const json::Value &id,
    llvm::function_ref<void(llvm::raw_ostream &)> writeResult) {
  std::string body;
  {
    llvm::raw_string_ostream os(body);
    os << R"({"id":)" << id << R"(,"jsonrpc":"2.0","result":)";
    writeResult(os);
    os << '}';
  }
  llvm::lsp::Logger::info("--> reply({0}): {1} bytes, written directly", id,
                          body.size());
  std::lock_guard<std::mutex> lock(mutex);
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

RawReply MessageOutput::replyTo(json::Value id) {
  return [this, id = std::move(id)](
             llvm::function_ref<void(llvm::raw_ostream &)> writeResult) {
    reply(id, writeResult);
  };
}
