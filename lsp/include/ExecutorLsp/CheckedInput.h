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
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_CHECKEDINPUT_H
#define EXECUTORLSP_CHECKEDINPUT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Transport.h"

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

class CheckedInput : public llvm::lsp::JSONTransportInput {
public:
  CheckedInput(std::FILE *in, llvm::lsp::JSONStreamStyle style);

  bool hasError() const final { return inner.hasError(); }
  bool isEndOfInput() const final { return inner.isEndOfInput(); }
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
  llvm::lsp::JSONTransportInputOverFile inner;
  std::optional<llvm::json::Value> lastRequestId;
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_CHECKEDINPUT_H
