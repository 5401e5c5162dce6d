//===- SourceLocations.cpp - go to the source an op came from --*- C++ -*-===//
#include "ExecutorLsp/SourceLocations.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SourceRanges.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/Path.h"

#include <limits>

using namespace mlir;
using namespace executor_studio::lsp;

namespace {
/// A 1-based line or column as a 0-based LSP one (0 stays 0); none when it
/// does not fit.
std::optional<int> toPositionPart(unsigned oneBased) {
  unsigned zeroBased = oneBased ? oneBased - 1 : 0;
  if (zeroBased > static_cast<unsigned>(std::numeric_limits<int>::max()))
    return std::nullopt;
  return static_cast<int>(zeroBased);
}

std::optional<proto::Location> toLocation(FileLineColRange fileLoc,
                                          const proto::URIForFile &uri,
                                          StringRef rootDirectory) {
  StringRef file = fileLoc.getFilename().getValue();
  std::optional<int> line = toPositionPart(fileLoc.getStartLine());
  std::optional<int> column = toPositionPart(fileLoc.getStartColumn());
  if (file.empty() || !line || !column)
    return std::nullopt;
  llvm::SmallString<256> path;
  if (llvm::sys::path::is_absolute(file)) {
    path = file;
  } else {
    path = rootDirectory.empty() ? llvm::sys::path::parent_path(uri.file())
                                 : rootDirectory;
    llvm::sys::path::append(path, file);
  }
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  llvm::Expected<proto::URIForFile> source =
      proto::URIForFile::fromFile(path, uri.scheme());
  if (!source) {
    proto::Logger::info("no URI for the source file `{0}`: {1}", path,
                        llvm::toString(source.takeError()));
    return std::nullopt;
  }
  return proto::Location(*source, proto::Range(proto::Position(*line, *column)));
}
} // namespace

void executor_studio::lsp::findSourceLocations(
    const ParsedChunk &chunk, const proto::URIForFile &uri,
    const proto::Position &pos, StringRef rootDirectory,
    std::vector<proto::Location> &locations) {
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid())
    return;
  Operation *op = nullptr;
  for (const AsmParserState::OperationDefinition &def :
       chunk.asmState.getOpDefs()) {
    if (rangeContains(def.loc, loc)) {
      op = def.op;
      break;
    }
  }
  if (!op)
    return;
  llvm::SetVector<Location> seen;
  op->getLoc()->walk([&](Location nested) {
    auto fileLoc = dyn_cast<FileLineColRange>(nested);
    // The document's own name: the parser's location of the op, which the
    // definition already gives (at chunk lines).
    if (!fileLoc || fileLoc.getFilename() == uri.file() ||
        !seen.insert(nested))
      return WalkResult::advance();
    if (std::optional<proto::Location> where =
            toLocation(fileLoc, uri, rootDirectory))
      if (!llvm::is_contained(locations, *where))
        locations.push_back(std::move(*where));
    return WalkResult::advance();
  });
}

std::string executor_studio::lsp::findOpPlaces(const ParsedChunk &chunk,
                                               const proto::Position &pos,
                                               llvm::json::Array &places) {
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid() || !chunk.hasParserState())
    return {};
  const llvm::SourceMgr &sourceMgr = chunk.sourceMgr;
  unsigned line = sourceMgr.getLineAndColumn(loc).first;
  Operation *best = nullptr;
  size_t bestSize = 0;
  bool bestContains = false;
  for (const AsmParserState::OperationDefinition &def :
       chunk.asmState.getOpDefs()) {
    SMRange range = def.scopeLoc;
    if (!range.isValid())
      continue;
    bool contains = rangeContains(range, loc);
    bool startsOnLine =
        sourceMgr.getLineAndColumn(range.Start).first == line;
    if (!contains && !startsOnLine)
      continue;
    size_t size = range.End.getPointer() - range.Start.getPointer();
    // An op that holds the position wins over one that only starts on its
    // line; among those, the innermost (the smallest).
    if (!best || (contains && !bestContains) ||
        (contains == bestContains && size < bestSize)) {
      best = def.op;
      bestSize = size;
      bestContains = contains;
    }
  }
  if (!best)
    return {};
  llvm::SetVector<Location> seen;
  best->getLoc()->walk([&](Location nested) {
    auto fileLoc = dyn_cast<FileLineColRange>(nested);
    if (!fileLoc || !seen.insert(nested))
      return WalkResult::advance();
    places.push_back(llvm::json::Object{
        {"file", fileLoc.getFilename().getValue()},
        {"line", static_cast<int64_t>(fileLoc.getStartLine())},
        {"column", static_cast<int64_t>(fileLoc.getStartColumn())}});
    return WalkResult::advance();
  });
  return best->getName().getStringRef().str();
}
