//===- MessageOutput.h - the server's output, one message at a time -*- C++ -*-=//
//
// llvm::lsp::JSONTransport writes every message it sends as a json::Value,
// serialized again each time. A preview's reply carries the summaries of
// every step (some MiB for 512 targets) that the server keeps serialized
// (PipelineResults.h, ChunkReply): this output lets it write such a reply
// directly. It sits between the transport and the stream: it passes on the
// transport's messages whole (it reads their Content-Length framing), and
// writes a direct reply whole between two of them, so that the two never
// interleave whatever thread each comes from.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_MESSAGEOUTPUT_H
#define EXECUTORLSP_MESSAGEOUTPUT_H

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <string>

namespace executor_studio {
namespace lsp {

/// Answers a request with a result that the caller writes as JSON.
using RawReply =
    llvm::unique_function<void(llvm::function_ref<void(llvm::raw_ostream &)>)>;

class MessageOutput final : public llvm::raw_ostream {
public:
  explicit MessageOutput(llvm::raw_ostream &out);
  ~MessageOutput() override;

  /// Writes the reply to request `id` whose result `writeResult` writes
  /// (compact JSON): `{"id":ID,"jsonrpc":"2.0","result":RESULT}`, as the
  /// transport writes a reply.
  void reply(const llvm::json::Value &id,
             llvm::function_ref<void(llvm::raw_ostream &)> writeResult);

  /// A RawReply to request `id` through this output.
  RawReply replyTo(llvm::json::Value id);

private:
  void write_impl(const char *data, size_t size) override;
  uint64_t current_pos() const override { return written; }

  llvm::raw_ostream &out;
  std::mutex mutex;
  /// The transport's bytes of a message not yet whole.
  std::string pending;
  uint64_t written = 0;
};

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_MESSAGEOUTPUT_H
