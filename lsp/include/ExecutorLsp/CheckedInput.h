//===- CheckedInput.h - JSON-RPC messages checked before dispatch -*- C++ -*-=//
//
// llvm::lsp::JSONTransport stops its loop on a message that is valid JSON but
// no JSON-RPC object, and its parser recurses without limit. This input sits
// between the stream and the transport: it checks each message in one pass
// without building it, repairs invalid UTF-8, and replaces what cannot be
// served by a request for `kInvalidMessageMethod` that the server answers with
// the JSON-RPC error (-32700 parse error, -32600 invalid request), so the
// client always gets an answer and the server keeps running.
//
// It also reads the Content-Length framing itself: the transport's reader
// loses the stream for good after a malformed header (a length that is no
// number, too large or missing, NUL bytes), as it then takes the next body
// for headers. This one answers such a header with a -32700 error (id null)
// and picks the stream up again at the next `Content-Length:` header.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_CHECKEDINPUT_H
#define EXECUTORLSP_CHECKEDINPUT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Transport.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace executor_studio {
namespace lsp {

/// The method of the stand-in request; its params are `{code, message}`.
inline constexpr llvm::StringLiteral kInvalidMessageMethod =
    "$/executor/invalidMessage";

/// The deepest nesting of arrays and objects a message may have.
inline constexpr unsigned kMaxMessageDepth = 256;

/// The largest Content-Length taken; a larger message is skipped (with an
/// error) without being held in memory.
inline constexpr uint64_t kMaxMessageBytes = uint64_t(64) << 20;

class CheckedInput : public llvm::lsp::JSONTransportInput {
public:
  CheckedInput(std::FILE *in, llvm::lsp::JSONStreamStyle style);

  bool hasError() const final { return std::ferror(in); }
  bool isEndOfInput() const final {
    return pendingPos >= pending.size() && std::feof(in);
  }
  llvm::LogicalResult readDelimitedMessage(std::string &json) final;
  llvm::LogicalResult readStandardMessage(std::string &json) final;

  /// The id of the last message read when it was a request, for
  /// `$/cancelRequest`: the transport dispatches each message right after
  /// reading it, on the same thread.
  const std::optional<llvm::json::Value> &getLastRequestId() const {
    return lastRequestId;
  }

  /// Checks `json` as one message and rewrites it when it cannot be served
  /// as is. Fails for a message with nothing in it (ignored).
  llvm::LogicalResult check(std::string &json);

private:
  /// Reads one header line (without its line break) into `line`; keeps at
  /// most a bounded number of bytes of an overlong line, whose start is
  /// then dropped (`truncated`). Fails at the end of the input.
  llvm::LogicalResult readHeaderLine(std::string &line, bool &truncated);
  /// The next byte (or EOF), from `pending` first.
  int readByte();
  /// Reads `size` bytes into `out`; fails at the end of the input.
  llvm::LogicalResult readBytes(char *out, size_t size);
  /// Replaces `json` by the error answer to a malformed header.
  void replaceByFramingError(std::string &json, const std::string &message);

  std::FILE *in;
  llvm::lsp::JSONTransportInputOverFile inner;
  /// Bytes read ahead that belong to the next message (a body whose length
  /// was too large took the next header with it).
  std::string pending;
  size_t pendingPos = 0;
  std::optional<llvm::json::Value> lastRequestId;
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_CHECKEDINPUT_H
