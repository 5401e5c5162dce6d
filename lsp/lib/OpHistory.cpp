//===- OpHistory.cpp - questions about a chunk's recording ----------------===//
#include "ExecutorLsp/OpHistory.h"

#include "ExecutorLsp/Forward.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/PipelineResults.h"
#include "ExecutorLsp/SourceLocations.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Graph/IrGraph.h"
#include "ExecutorStudio/Pipeline/OpHistory.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Protocol.h"

#include <optional>

using namespace executor_studio;
using namespace executor_studio::lsp;
namespace json = llvm::json;

namespace {
/// A snapshot of `recording` by reference: `-1` the input, a number the
/// snapshot with that index, else a name (findSnapshot).
struct SnapshotRef {
  IRText ir;
  SnapshotKind kind = SnapshotKind::MLIR;
  std::string name;
};
std::optional<SnapshotRef> resolveSnapshot(const Recording &recording,
                                           llvm::StringRef ref) {
  int index;
  if (!ref.getAsInteger(10, index)) {
    if (index == -1)
      return SnapshotRef{recording.inputIR, SnapshotKind::MLIR, "input"};
    for (const Snapshot &snapshot : recording.snapshots)
      if (static_cast<int>(snapshot.index) == index)
        return SnapshotRef{snapshot.ir, snapshot.kind, snapshot.pass};
    return std::nullopt;
  }
  const Snapshot *found = findSnapshot(recording, ref);
  if (!found)
    return std::nullopt;
  std::string name = found->pass;
  for (const Snapshot &parent : recording.snapshots)
    for (const Snapshot &nested : parent.nested)
      if (&nested == found)
        name = parent.pass + "/" + nested.pass;
  return SnapshotRef{found->ir, found->kind, name};
}

/// The snapshots a recording has, for an error that names a wrong one.
std::string describeSnapshots(const Recording &recording) {
  return llvm::formatv("the pipeline has {0} steps, numbered from 0 (-1 is "
                       "the input; a target's own steps by name, as "
                       "`cross-compile-targets/TARGET/STEP`)",
                       recording.snapshots.size())
      .str();
}

json::Object errorResult(json::Object result, std::string error,
                         bool invalidParams) {
  result["error"] = std::move(error);
  result["invalidParams"] = invalidParams;
  return result;
}

/// `executor/opHistory`: the recording's steps where the op is. A chunk
/// after `// -----` is recorded on its own, its ops' places at lines of the
/// chunk: the places in and out are lines of the file (`bufferName`'s are
/// moved by `lineOffset`).
json::Object historyToJSON(const Recording &recording,
                           const json::Object &query, json::Object result,
                           json::Array diagnostics, llvm::StringRef bufferName,
                           unsigned lineOffset) {
  auto ofDocument = [&](const SourcePlace &place) {
    return !bufferName.empty() && place.file == bufferName;
  };
  std::vector<SourcePlace> places;
  std::string error;
  if (const json::Array *list = query.getArray("places")) {
    for (const json::Value &value : *list) {
      const json::Object *place = value.getAsObject();
      if (!place)
        continue;
      SourcePlace p;
      p.file = place->getString("file").value_or("").str();
      p.line = static_cast<unsigned>(place->getInteger("line").value_or(0));
      p.column = static_cast<unsigned>(place->getInteger("column").value_or(0));
      if (ofDocument(p) && p.line > lineOffset)
        p.line -= lineOffset;
      places.push_back(std::move(p));
    }
  } else {
    std::string ref = query.getString("snapshot").value_or("").str();
    int64_t line = query.getInteger("line").value_or(-1);
    const int64_t asked = line;
    std::optional<SnapshotRef> snapshot = resolveSnapshot(recording, ref);
    if (!recording.inputIR) {
      error = "the document did not parse: no snapshot to follow an op in";
    } else if (!snapshot || !snapshot->ir) {
      error = "there is no snapshot " + ref + ": " + describeSnapshots(recording);
    } else {
      SnapshotPlaces text(*snapshot->ir, snapshot->kind);
      // A line of the snapshot as the preview prints it: the same lines
      // but for the location aliases (`#loc3 = loc(...)`) this one has.
      if (query.getBoolean("previewLine").value_or(false) &&
          snapshot->kind == SnapshotKind::MLIR && line >= 0) {
        int64_t shown = -1;
        size_t at = 0;
        for (; at < text.size(); ++at) {
          llvm::StringRef t = text.line(at);
          if (t.starts_with("#") && t.contains(" = loc("))
            continue;
          if (++shown == line)
            break;
        }
        line = static_cast<int64_t>(at);
      }
      if (line < 0 || static_cast<size_t>(line) >= text.size())
        error = llvm::formatv("line {0} is past the end of {1} ({2} lines)",
                              asked, snapshot->name, text.size())
                    .str();
      else if ((places = text.placesOfLine(static_cast<size_t>(line))).empty())
        error = llvm::formatv("line {0} of {1} names no location: `{2}`", asked,
                              snapshot->name,
                              text.line(static_cast<size_t>(line)).trim())
                    .str();
    }
  }
  if (!error.empty())
    return errorResult(std::move(result), std::move(error),
                       static_cast<bool>(recording.inputIR));
  bool withIR = query.getBoolean("withIR").value_or(false);
  result["diagnostics"] = std::move(diagnostics);
  json::Array placesJSON;
  for (const SourcePlace &place : places)
    placesJSON.push_back(json::Object{
        {"file", place.file},
        {"line", static_cast<int64_t>(place.line) +
                     (ofDocument(place) ? lineOffset : 0)},
        {"column", static_cast<int64_t>(place.column)}});
  result["places"] = std::move(placesJSON);
  json::Array steps;
  for (const OpHistoryStep &step : opHistory(recording, places)) {
    const Snapshot *snapshot = step.snapshot;
    const IRText &ir = snapshot ? snapshot->ir : recording.inputIR;
    SnapshotKind kind = snapshot ? snapshot->kind : SnapshotKind::MLIR;
    json::Object out;
    if (!snapshot) {
      out["name"] = "input";
      out["index"] = -1;
      out["number"] = 0;
    } else if (step.parent) {
      out["name"] = step.parent->pass + "/" + snapshot->pass;
      out["pass"] = snapshot->pass;
      out["target"] = snapshot->target;
      out["parent"] = static_cast<int64_t>(step.parent->index);
      out["number"] = static_cast<int64_t>(snapshot->index);
    } else {
      out["name"] = snapshot->pass;
      out["pass"] = snapshot->pass;
      out["index"] = static_cast<int64_t>(snapshot->index);
      out["number"] = static_cast<int64_t>(snapshot->index + 1);
    }
    out["kind"] = snapshotKindName(kind);
    if (snapshot)
      out["changed"] = snapshot->changed;
    SnapshotPlaces text(*ir, kind);
    json::Array lines, ranges, texts;
    for (unsigned line : step.lines) {
      lines.push_back(static_cast<int64_t>(line));
      // LSP ranges of the lines, from their first non-blank character.
      llvm::StringRef t = text.line(line);
      size_t start = t.size() - t.ltrim().size();
      ranges.push_back(json::Value(proto::Range(
          proto::Position(line, static_cast<int>(start)),
          proto::Position(line, static_cast<int>(t.rtrim().size())))));
      texts.push_back(t.trim().str()); // a copy: `text` ends with this step
    }
    out["lines"] = std::move(lines);
    out["ranges"] = std::move(ranges);
    out["texts"] = std::move(texts);
    if (withIR && !step.lines.empty())
      out["ir"] = *ir;
    steps.push_back(std::move(out));
  }
  result["steps"] = std::move(steps);
  return result;
}

/// `executor/sourceLines`: which lines of the document each line of a
/// step came from (core's mapSourceLines, as the studio's linked view):
/// for each source line (0-based, a line of the file) the step lines it
/// became, and the step's text. Every number is 0-based, as LSP's.
json::Object sourceLinesToJSON(const Recording &recording,
                               const json::Object &query, json::Object result,
                               json::Array diagnostics,
                               llvm::StringRef bufferName,
                               unsigned lineOffset) {
  std::string ref = query.getString("snapshot").value_or("").str();
  if (!recording.inputIR)
    return errorResult(std::move(result),
                       "the document did not parse: no step to link", false);
  std::optional<SnapshotRef> snapshot = resolveSnapshot(recording, ref);
  if (!snapshot || !snapshot->ir)
    return errorResult(std::move(result),
                       "there is no snapshot " + ref + ": " +
                           describeSnapshots(recording),
                       /*invalidParams=*/true);
  SourceLineMap map = mapSourceLines(*snapshot->ir, snapshot->kind, bufferName);
  json::Array links;
  for (size_t i = 0; i < map.sourceLines.size(); ++i) {
    json::Array steps;
    for (unsigned line : map.stepLinesOf[i])
      steps.push_back(static_cast<int64_t>(line));
    links.push_back(json::Object{
        {"sourceLine",
         static_cast<int64_t>(map.sourceLines[i]) - 1 + lineOffset},
        {"stepLines", std::move(steps)}});
  }
  result["name"] = snapshot->name;
  result["kind"] = snapshotKindName(snapshot->kind);
  result["text"] = *snapshot->ir;
  result["links"] = std::move(links);
  result["diagnostics"] = std::move(diagnostics);
  return result;
}

/// `executor/alignedSnapshots`: two snapshots' texts, aligned by the
/// structural diff when both are MLIR (and a line diff was not asked for).
json::Object alignedToJSON(const Recording &recording,
                           const json::Object &query, json::Object result,
                           json::Array diagnostics, SnapshotAligner align) {
  std::string leftRef = query.getString("left").value_or("").str();
  std::string rightRef = query.getString("right").value_or("").str();
  bool lineDiff = query.getBoolean("lineDiff").value_or(false);
  if (!recording.inputIR) {
    result["error"] = "the document did not parse: no snapshots to compare";
    return result;
  }
  std::optional<SnapshotRef> left = resolveSnapshot(recording, leftRef);
  std::optional<SnapshotRef> right = resolveSnapshot(recording, rightRef);
  for (auto [ref, found] : {std::make_pair(&leftRef, &left),
                            std::make_pair(&rightRef, &right)})
    if (!*found || !(*found)->ir)
      return errorResult(std::move(result),
                         "there is no snapshot " + *ref + ": " +
                             describeSnapshots(recording),
                         /*invalidParams=*/true);
  std::string leftText = *left->ir, rightText = *right->ir;
  std::string mode = "line";
  std::string why;
  std::optional<AlignedSnapshots> aligned;
  if (lineDiff) {
    why = "a line diff was asked for";
  } else if (left->kind != SnapshotKind::MLIR ||
             right->kind != SnapshotKind::MLIR) {
    why = "LLVM IR and assembly are compared line by line";
  } else if (llvm::Expected<AlignedSnapshots> found =
                 align(leftText, rightText)) {
    aligned = std::move(*found);
    mode = "structural";
  } else {
    why = llvm::toString(found.takeError());
  }
  result["mode"] = mode;
  if (!why.empty())
    result["why"] = why;
  auto side = [&](const SnapshotRef &ref, const std::string &text) {
    return json::Object{{"name", ref.name},
                        {"kind", snapshotKindName(ref.kind)},
                        {"text", text}};
  };
  result["left"] = side(*left, aligned ? aligned->left : leftText);
  result["right"] = side(*right, aligned ? aligned->right : rightText);
  if (aligned) {
    result["leftOps"] = static_cast<int64_t>(aligned->leftOps);
    result["rightOps"] = static_cast<int64_t>(aligned->rightOps);
    result["matchedOps"] = static_cast<int64_t>(aligned->matchedOps);
    result["renamed"] = static_cast<int64_t>(aligned->renamed);
    result["moved"] = static_cast<int64_t>(aligned->moved);
  }
  result["diagnostics"] = std::move(diagnostics);
  return result;
}
/// `executor/graph`: the graph of one function at one step, as SVG, with
/// each node's range (the input's: in the document; a step's: in its text).
json::Object graphToJSON(const Recording &recording, const json::Object &query,
                         llvm::StringRef text, unsigned lineOffset, json::Object result,
                         json::Array diagnostics) {
  result["diagnostics"] = std::move(diagnostics);
  if (!recording.inputIR)
    return errorResult(std::move(result), "the document did not parse: no graph to draw",
                       /*invalidParams=*/false);
  std::string stepRef = query.getString("step").value_or("").str();
  std::optional<SnapshotRef> step = resolveSnapshot(recording, stepRef);
  if (!step || !step->ir)
    return errorResult(std::move(result),
                       "there is no step " + stepRef + ": " + describeSnapshots(recording),
                       /*invalidParams=*/true);
  if (step->kind != SnapshotKind::MLIR)
    return errorResult(std::move(result),
                       "step " + step->name + " is " + snapshotKindName(step->kind) +
                           ", not MLIR: a graph is drawn of MLIR steps",
                       /*invalidParams=*/true);
  bool input = step->name == "input";
  // The input is the chunk as written: its lines are the document's.
  auto stepText = std::make_shared<const std::string>(input ? text.str() : *step->ir);
  std::string function = query.getString("function").value_or("").str();
  if (function.empty()) {
    // The function at the cursor, in the chunk as written.
    int64_t line = query.getInteger("line").value_or(0) - lineOffset;
    llvm::Expected<FunctionList> functions = listFunctions(text);
    if (!functions)
      return errorResult(std::move(result), llvm::toString(functions.takeError()),
                         /*invalidParams=*/false);
    std::optional<std::string> at =
        functions->functionAtLine(static_cast<unsigned>(std::max<int64_t>(line, 0) + 1));
    if (!at)
      return errorResult(std::move(result),
                         llvm::formatv("line {0} is in no function",
                                       query.getInteger("line").value_or(0) + 1)
                             .str(),
                         /*invalidParams=*/true);
    function = *at;
  }
  static IrGraphCache graphs;
  llvm::Expected<std::shared_ptr<const LaidOutGraph>> graph = graphs.get(stepText, function);
  if (!graph)
    return errorResult(std::move(result), llvm::toString(graph.takeError()),
                       /*invalidParams=*/true);
  const IrGraph &g = (*graph)->graph;
  unsigned offset = input ? lineOffset : 0;
  json::Array nodes;
  for (const IrGraphNode &node : g.nodes) {
    json::Object out{{"id", node.id}, {"label", node.label}, {"op", node.opName}};
    if (node.line) {
      int line = static_cast<int>(node.line - 1 + offset);
      int column = static_cast<int>(node.column ? node.column - 1 : 0);
      out["range"] = json::Value(proto::Range(proto::Position(line, column),
                                              proto::Position(line, column)));
    }
    if (!node.sourceLocation.empty())
      out["location"] = node.sourceLocation;
    nodes.push_back(std::move(out));
  }
  result["step"] = step->name;
  result["function"] = g.function;
  result["inDocument"] = input;
  result["ops"] = static_cast<int64_t>(g.opCount);
  result["collapsed"] = g.collapsed;
  result["edges"] = static_cast<int64_t>(g.edges.size());
  result["clusters"] = static_cast<int64_t>(g.clusters.size());
  result["nodes"] = std::move(nodes);
  result["svg"] = renderSvg(g, (*graph)->layout);
  return result;
}
} // namespace

void executor_studio::lsp::setQueryRecordOptions(const json::Object &query,
                                                 RecordOptions &options) {
  options.recordIR = true;
  options.recordNested = true;
  if (query.getString("kind") == "history" ||
      query.getString("kind") == "lines") {
    // Ops are followed by their locations, into each target's line table;
    // every text is searched.
    options.printDebugInfo = true;
    options.deferText = false;
  }
}

json::Object executor_studio::lsp::chunkQueryToJSON(
    const Recording &recording, const json::Object &query, llvm::StringRef text,
    unsigned lineOffset, unsigned index, const PipelineResultOptions &options,
    SnapshotAligner align) {
  json::Object result{
      {"chunk", static_cast<int64_t>(index)},
      {"lineOffset", static_cast<int64_t>(lineOffset)},
      {"pipeline", options.pipeline},
      {"succeeded", recording.succeeded},
  };
  json::Array diagnostics =
      diagnosticsToJSON(recording, text, lineOffset, options);
  if (query.getString("kind") == "lines")
    return sourceLinesToJSON(recording, query, std::move(result),
                             std::move(diagnostics), options.bufferName,
                             lineOffset);
  if (query.getString("kind") == "history")
    return historyToJSON(recording, query, std::move(result),
                         std::move(diagnostics), options.bufferName,
                         lineOffset);
  if (query.getString("kind") == "graph")
    return graphToJSON(recording, query, text, lineOffset, std::move(result),
                       std::move(diagnostics));
  return alignedToJSON(recording, query, std::move(result),
                       std::move(diagnostics), align);
}

//===----------------------------------------------------------------------===//
// The requests' queries
//===----------------------------------------------------------------------===//

llvm::Expected<ChunkQuery>
executor_studio::lsp::getOpHistoryQuery(const TextFile &file,
                                        const OpHistoryParams &params) {
  ChunkQuery result{params.preview,
                    json::Object{{"kind", "history"}, {"withIR", params.ir}}};
  json::Object &query = result.query;
  if (!params.position) {
    query["snapshot"] = *params.snapshot;
    query["line"] = *params.line;
    query["previewLine"] = params.previewLine;
    return std::move(result);
  }
  // The op at the position, in the chunk that holds it.
  const proto::Position &pos = *params.position;
  const ParsedChunk *chunk = nullptr;
  for (const auto &candidate : file.getChunks())
    if (static_cast<int64_t>(candidate->lineOffset) <= pos.line)
      chunk = candidate.get();
  if (!chunk || !chunk->hasParserState())
    return makeError(proto::ErrorCode::RequestFailed,
                     llvm::formatv("line {0} is in a chunk that does not "
                                   "parse: no op to follow",
                                   int64_t(pos.line) + 1));
  json::Array places;
  std::string op = findOpPlaces(*chunk, pos, places);
  if (op.empty())
    return makeError(
        proto::ErrorCode::InvalidParams,
        llvm::formatv("there is no op at line {0}, character {1}",
                      int64_t(pos.line) + 1, int64_t(pos.character) + 1));
  // The chunk's parser numbers its lines from the chunk's start: the places
  // of the query are lines of the file.
  for (json::Value &value : places)
    if (json::Object *place = value.getAsObject())
      if (place->getString("file") == file.getURI().file())
        if (std::optional<int64_t> line = place->getInteger("line"))
          (*place)["line"] = *line + static_cast<int64_t>(chunk->lineOffset);
  query["places"] = std::move(places);
  query["op"] = op;
  result.preview.chunk = chunk->index;
  return std::move(result);
}

ChunkQuery executor_studio::lsp::getAlignedSnapshotsQuery(
    const AlignedSnapshotsParams &params) {
  return {params.preview, json::Object{{"kind", "align"},
                                       {"left", params.left},
                                       {"right", params.right},
                                       {"lineDiff", params.lineDiff}}};
}

ChunkQuery
executor_studio::lsp::getSourceLinesQuery(const SourceLinesParams &params) {
  return {params.preview,
          json::Object{{"kind", "lines"}, {"snapshot", params.snapshot}}};
}

ChunkQuery executor_studio::lsp::getGraphQuery(const TextFile &file,
                                               const GraphParams &params) {
  ChunkQuery result{params.preview,
                    json::Object{{"kind", "graph"}, {"step", params.step}}};
  if (params.function)
    result.query["function"] = *params.function;
  if (params.line) {
    result.query["line"] = *params.line;
    // The chunk that holds the line, unless one is named.
    if (!result.preview.chunk) {
      int64_t index = 0;
      for (const auto &candidate : file.getChunks()) {
        if (static_cast<int64_t>(candidate->lineOffset) > *params.line)
          break;
        result.preview.chunk = index++;
      }
    }
  }
  return result;
}
