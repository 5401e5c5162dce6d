//===- OpHistory.h - questions about a chunk's recording --------*- C++ -*-===//
//
// `executor/opHistory` and `executor/alignedSnapshots` record a chunk as a
// preview does (a recording worker, PipelineJobs), with every text and each
// target's nested steps, and for a history with locations
// (RecordOptions::printDebugInfo, which also gives a target's LLVM IR and
// assembly a line table); the server then answers from the recording:
// an op's steps (core's opHistory, ExecutorStudio/Pipeline/OpHistory.h) or
// two snapshots aligned by the structural diff (alignSnapshots, which
// parses both texts: in a worker too, alignInWorker).
//
// A query is JSON:
//   {"kind": "history", "places": [{"file", "line", "column"}]} or
//   {"kind": "history", "snapshot": "3", "line": 12, "previewLine"?},
//     with "withIR" for the texts;
//   {"kind": "align", "left": "2", "right": "3", "lineDiff": false};
//   {"kind": "graph", "step": "3", "function"?, "line"?}: the graph of a
//     function (core's Graph/IrGraph.h), as SVG with its nodes' ranges.
// Its answer is one chunk's object, or one with "error" (and
// "invalidParams" when the request named what is not there).
//
// The requests' parameters become a query here too (get*Query), so that the
// server only routes them.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_OPHISTORY_H
#define EXECUTORLSP_OPHISTORY_H

#include "ExecutorLsp/Forward.h"
#include "ExecutorLsp/Protocol.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace executor_studio {
struct AlignedSnapshots;
struct Recording;
struct RecordOptions;
namespace lsp {
struct PipelineResultOptions;

/// A question about a chunk's recording: the preview that records the chunk
/// and the query (above).
struct ChunkQuery {
  PipelinePreviewParams preview;
  llvm::json::Object query;
};

/// `executor/opHistory`: the history of the op at the position (in the chunk
/// that holds it), or of the op at a snapshot's line. Fails (an LSP error)
/// when the position is in a chunk that does not parse, or on no op.
llvm::Expected<ChunkQuery> getOpHistoryQuery(const TextFile &file,
                                             const OpHistoryParams &params);
/// `executor/alignedSnapshots`.
ChunkQuery getAlignedSnapshotsQuery(const AlignedSnapshotsParams &params);
/// `executor/sourceLines`.
ChunkQuery getSourceLinesQuery(const SourceLinesParams &params);
/// `executor/graph`: of the chunk that holds the line, unless one is named.
ChunkQuery getGraphQuery(const TextFile &file, const GraphParams &params);

/// Sets what the recording needs for `query` (locations for a history;
/// every text printed; nested steps).
void setQueryRecordOptions(const llvm::json::Object &query,
                           RecordOptions &options);

/// Aligns two snapshots' texts (alignSnapshots, or alignInWorker).
using SnapshotAligner = llvm::function_ref<llvm::Expected<AlignedSnapshots>(
    llvm::StringRef left, llvm::StringRef right)>;

/// The answer to `query` about the recording of chunk `index` (`text`, at
/// line `lineOffset` of the document); `align` aligns two texts.
llvm::json::Object chunkQueryToJSON(const Recording &recording,
                                    const llvm::json::Object &query,
                                    llvm::StringRef text, unsigned lineOffset,
                                    unsigned index,
                                    const PipelineResultOptions &options,
                                    SnapshotAligner align);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_OPHISTORY_H
