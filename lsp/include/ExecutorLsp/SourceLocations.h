//===- SourceLocations.h - go to the source an op came from ----*- C++ -*-===//
//
// The places in source files that an op's location names: Catalyst's IR
// carries the Python line of every op as `loc("kernel.py":12:4)` (also
// inside fused, named and call-site locations); go-to-definition on the op
// offers them, as mlir-lsp-server does.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_SOURCELOCATIONS_H
#define EXECUTORLSP_SOURCELOCATIONS_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace executor_studio {
namespace lsp {

/// The op at `pos` for `executor/opHistory`: the innermost op whose text
/// holds `pos`, else the first that starts on its line. Appends each file,
/// line and column its location names, the parser's place of the op in the
/// document included (at chunk lines, as the pipeline worker parses the
/// chunk), as `{"file", "line", "column"}` (1-based); returns the op's name,
/// or an empty string when no op is there.
std::string findOpPlaces(const ParsedChunk &chunk, const proto::Position &pos,
                         llvm::json::Array &places);

/// When `pos` is on an op's name: appends each file, line and column its
/// location names (each once, in the order of the location), with the
/// scheme of `uri`. A relative file name is resolved against
/// `rootDirectory` (the workspace root), or against the document's
/// directory when that is empty. A line or column that does not fit an LSP
/// position is left out, and so is a location in the document itself (the
/// parser's location of the op).
void findSourceLocations(const ParsedChunk &chunk, const proto::URIForFile &uri,
                         const proto::Position &pos,
                         llvm::StringRef rootDirectory,
                         std::vector<proto::Location> &locations);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_SOURCELOCATIONS_H
