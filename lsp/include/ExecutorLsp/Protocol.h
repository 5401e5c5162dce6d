//===- Protocol.h - the requests executor-lsp-server adds -------*- C++ -*-===//
//
// The parameters of the methods the server takes beyond what
// llvm/Support/LSP/Protocol.h declares: `executor/pipelinePreview`,
// `executor/rerunFrom`, `$/cancelRequest`, rename, semantic tokens, folding,
// formatting (with `dropComments`) and mlir-lsp-server's bytecode
// conversions; and the errors the server answers with.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_PROTOCOL_H
#define EXECUTORLSP_PROTOCOL_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <optional>
#include <string>

namespace executor_studio {
namespace lsp {

/// `executor/launch` parameters: launch `kernel` (`@module::@entry`) of
/// the document at `uri`, compiled with debug info, on the executor at
/// `address` (the target's `catalyst.dispatch` address when absent; mapped
/// through the server's EXECUTOR_ADDRESS_MAP).
struct LaunchParams {
  llvm::lsp::URIForFile uri;
  std::string kernel;
  std::optional<std::string> address;
  /// One value per argument: a memref's elements (a flat or nested array,
  /// row-major), a scalar's number; 1, 2, 3, ... when absent.
  std::optional<llvm::json::Array> inputs;
};

bool fromJSON(const llvm::json::Value &value, LaunchParams &result,
              llvm::json::Path path);

/// Parameters taken as they come (`initialize`, `$/cancelRequest`, the
/// answer to an invalid message).
struct RawParams {
  llvm::json::Value value = nullptr;
};

bool fromJSON(const llvm::json::Value &value, RawParams &result,
              llvm::json::Path path);

/// `executor/pipelinePreview` parameters.
struct PipelinePreviewParams {
  llvm::lsp::URIForFile uri;
  /// A textual pipeline; the default pipeline when absent.
  std::optional<std::string> pipeline;
  /// The `// -----` chunk of a split file.
  std::optional<int64_t> chunk;
  /// Which texts the reply carries: "none" (the default: the steps'
  /// summaries only, each text on demand by `executor/stepText`), snapshot
  /// indices (-1: the input; a snapshot's nested steps come with it), or
  /// "changes" (every snapshot whose IR differs from the one before).
  /// Named `withText` (an array of indices) or `ir`.
  std::string ir = "none";
};

bool fromJSON(const llvm::json::Value &value, PipelinePreviewParams &result,
              llvm::json::Path path);

/// `executor/rerunFrom` parameters: the preview's, and the edited IR after
/// one snapshot.
struct RerunFromParams {
  PipelinePreviewParams preview;
  /// The snapshot whose IR `text` replaces (its "index"; -1: the input).
  int64_t pass = -1;
  std::string text;
  /// The URI of the document that holds `text` in the client (the
  /// diagnostics' related locations); `uri` when absent.
  std::optional<std::string> textUri;
};

bool fromJSON(const llvm::json::Value &value, RerunFromParams &result,
              llvm::json::Path path);

/// `executor/opHistory` parameters: the preview's, and the op to follow:
/// at `position` of the document, or at `line` of snapshot `snapshot` (its
/// index, -1 for the input, or a nested step's name) as the history prints
/// it.
struct OpHistoryParams {
  PipelinePreviewParams preview;
  std::optional<llvm::lsp::Position> position;
  /// A snapshot index (-1: the input) or a name (`compute/asm`).
  std::optional<std::string> snapshot;
  /// 0-based.
  std::optional<int64_t> line;
  /// Whether each step where the op is has its text (`withIR`: "ir").
  bool ir = false;
  /// Whether `line` counts the lines of the snapshot as the preview prints
  /// it (without locations) rather than as the history does.
  bool previewLine = false;
};

bool fromJSON(const llvm::json::Value &value, OpHistoryParams &result,
              llvm::json::Path path);

/// `executor/alignedSnapshots` parameters: the preview's, and the two
/// snapshots to compare (indices, -1 for the input, or nested names).
struct AlignedSnapshotsParams {
  PipelinePreviewParams preview;
  std::string left, right;
  /// The plain texts, for a line diff.
  bool lineDiff = false;
};

bool fromJSON(const llvm::json::Value &value, AlignedSnapshotsParams &result,
              llvm::json::Path path);

/// `executor/graph` parameters: the preview's, the step (an index, -1 for
/// the input, or a name) and the function: by name, or the one at a
/// 0-based line of the document (the cursor's).
struct GraphParams {
  PipelinePreviewParams preview;
  std::string step;
  std::optional<std::string> function;
  std::optional<int64_t> line;
};

bool fromJSON(const llvm::json::Value &value, GraphParams &result,
              llvm::json::Path path);

/// `executor/stepText` parameters: the text of one step of a recording
/// that a preview or re-run answered with (its "recording" id).
struct StepTextParams {
  std::string recording;
  /// The snapshot's "index"; -1: the input.
  int64_t step = -1;
  /// A target's own step: its position in the snapshot's "nested".
  std::optional<int64_t> nested;
};

bool fromJSON(const llvm::json::Value &value, StepTextParams &result,
              llvm::json::Path path);

/// `executor/sourceLines` parameters: the step whose lines are linked to
/// the document's (an index, -1 the input, or a name: `compute/asm`).
struct SourceLinesParams {
  PipelinePreviewParams preview;
  std::string snapshot;
};

bool fromJSON(const llvm::json::Value &value, SourceLinesParams &result,
              llvm::json::Path path);

/// `textDocument/rename` parameters.
struct RenameParams {
  llvm::lsp::TextDocumentIdentifier textDocument;
  llvm::lsp::Position position;
  std::string newName;
};

bool fromJSON(const llvm::json::Value &value, RenameParams &result,
              llvm::json::Path path);

/// Parameters that name a document only (`codeLens`,
/// `semanticTokens/full`, `foldingRange`).
struct DocumentParams {
  llvm::lsp::TextDocumentIdentifier textDocument;
};

bool fromJSON(const llvm::json::Value &value, DocumentParams &result,
              llvm::json::Path path);

/// `textDocument/semanticTokens/range` parameters.
struct DocumentRangeParams {
  llvm::lsp::TextDocumentIdentifier textDocument;
  llvm::lsp::Range range;
};

bool fromJSON(const llvm::json::Value &value, DocumentRangeParams &result,
              llvm::json::Path path);

/// `textDocument/formatting` parameters: of the options, only ours.
struct FormattingParams {
  llvm::lsp::TextDocumentIdentifier textDocument;
  std::optional<bool> dropComments;
};

bool fromJSON(const llvm::json::Value &value, FormattingParams &result,
              llvm::json::Path path);

/// `mlir/convertFromBytecode` and `mlir/convertToBytecode` parameters, as
/// mlir-lsp-server takes them.
struct ConvertBytecodeParams {
  llvm::lsp::URIForFile uri;
};

bool fromJSON(const llvm::json::Value &value, ConvertBytecodeParams &result,
              llvm::json::Path path);

/// The command a preview lens runs in the client.
constexpr llvm::StringRef kShowPreviewCommand = "executor.showPipelinePreview";
/// The client's command behind the "Launch" lens (`executor/launch`).
constexpr llvm::StringRef kLaunchCommand = "executor.launchKernel";

/// An LSP error answer.
llvm::Error makeError(llvm::lsp::ErrorCode code, const llvm::Twine &message);

/// The key of a request id in the table of running previews.
std::string getRequestKey(const llvm::json::Value &id);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_PROTOCOL_H
