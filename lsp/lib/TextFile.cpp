//===- TextFile.cpp - one open .mlir document, parsed ------------*- C++
//-*-===//
#include "ExecutorLsp/TextFile.h"

#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/Kernels.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/SplitFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;

//===----------------------------------------------------------------------===//
// Chunk
//===----------------------------------------------------------------------===//

using Chunk = ParsedChunk;

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

namespace {
/// The first file location of `loc` in `file`, else the first one anywhere.
FileLineColRange findFileLocation(Location loc, StringRef file, bool anyFile) {
  FileLineColRange found, other;
  loc->walk([&](Location nested) {
    auto fileLoc = dyn_cast<FileLineColRange>(nested);
    if (!fileLoc)
      return WalkResult::advance();
    if (fileLoc.getFilename() == file) {
      found = fileLoc;
      return WalkResult::interrupt();
    }
    if (!other)
      other = fileLoc;
    return WalkResult::advance();
  });
  if (!found && anyFile)
    return other;
  return found;
}

/// Where `loc` points, as an LSP location: in the chunk when it names the
/// document, in another file when it names one, else at the chunk's start.
proto::Location convertLocation(const Chunk &chunk,
                                const proto::URIForFile &uri, Location loc) {
  FileLineColRange fileLoc = findFileLocation(loc, uri.file(), true);
  if (fileLoc && fileLoc.getFilename() == uri.file()) {
    SMLoc start = findLocForLineAndColumn(
        chunk.sourceMgr, static_cast<int64_t>(fileLoc.getStartLine()) - 1,
        std::max<int64_t>(fileLoc.getStartColumn(), 1) - 1);
    if (start.isValid())
      return chunk.getLocation(uri, getTokenRange(chunk.getBuffer(), start));
  }
  if (fileLoc) {
    if (auto other = proto::URIForFile::fromFile(
            fileLoc.getFilename().getValue(), uri.scheme())) {
      proto::Position pos(
          fileLoc.getStartLine() ? fileLoc.getStartLine() - 1 : 0,
          fileLoc.getStartColumn() ? fileLoc.getStartColumn() - 1 : 0);
      return proto::Location(*other, proto::Range(pos));
    } else {
      llvm::consumeError(other.takeError());
    }
  }
  return proto::Location(uri, proto::Range(proto::Position(chunk.lineOffset)));
}

proto::Diagnostic convertDiagnostic(const Chunk &chunk,
                                    const proto::URIForFile &uri,
                                    Diagnostic &diag) {
  proto::Diagnostic result;
  result.source = "mlir";
  // mlir-lsp-server verifies while parsing: its parser's and verifier's
  // diagnostics all have this category.
  result.category = "Parse Error";
  result.range = convertLocation(chunk, uri, diag.getLocation()).range;
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    result.severity = proto::DiagnosticSeverity::Error;
    break;
  case DiagnosticSeverity::Warning:
    result.severity = proto::DiagnosticSeverity::Warning;
    break;
  case DiagnosticSeverity::Remark:
  case DiagnosticSeverity::Note:
    result.severity = proto::DiagnosticSeverity::Information;
    break;
  }
  result.message = diag.str();
  std::vector<proto::DiagnosticRelatedInformation> related;
  for (Diagnostic &note : diag.getNotes())
    related.emplace_back(convertLocation(chunk, uri, note.getLocation()),
                         note.str());
  if (!related.empty())
    result.relatedInformation = std::move(related);
  return result;
}
} // namespace

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool ParsedChunk::isDefOrUse(const AsmParserState::SMDefinition &def, SMLoc loc,
                             SMRange *overlapped) {
  if (rangeContains(def.loc, loc)) {
    if (overlapped)
      *overlapped = def.loc;
    return true;
  }
  for (const SMRange &use : def.uses) {
    if (rangeContains(use, loc)) {
      if (overlapped)
        *overlapped = use;
      return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// TextFile::Impl
//===----------------------------------------------------------------------===//

struct TextFile::Impl {
  Impl(const proto::URIForFile &uri, std::string contents, int64_t version,
       const DialectRegistry &registry, const TextFileOptions &options)
      : context(registry, MLIRContext::Threading::DISABLED), uri(uri),
        contents(std::move(contents)), version(version), options(options) {
    context.allowUnregisteredDialects(options.allowUnregisteredDialects);
    context.printOpOnDiagnostic(false);
  }

  void parseChunk(Chunk &chunk, StringRef text,
                  std::vector<proto::Diagnostic> &diagnostics);
  /// Adds a diagnostic of the whole file at `offset` of `chunk`.
  void addDiagnostic(Chunk &chunk, size_t offset,
                     proto::DiagnosticSeverity severity,
                     const llvm::Twine &message,
                     std::vector<proto::Diagnostic> &diagnostics);

  Chunk &getChunkFor(const proto::Position &pos) {
    return *chunks[getChunkIndexForLine(pos.line)];
  }
  unsigned getChunkIndexForLine(int64_t line) const {
    auto it = llvm::upper_bound(chunks, line, [](int64_t line, const auto &c) {
      return line < static_cast<int64_t>(c->lineOffset);
    });
    return it == chunks.begin() ? 0 : std::prev(it) - chunks.begin();
  }

  MLIRContext context;
  proto::URIForFile uri;
  std::string contents;
  int64_t version;
  TextFileOptions options;
  std::vector<std::unique_ptr<Chunk>> chunks;
  bool valid = true;
  /// Whether the chunks keep an AsmParserState (the document is small
  /// enough, see DocumentLimits.h).
  bool navigation = true;
};

void TextFile::Impl::addDiagnostic(
    Chunk &chunk, size_t offset, proto::DiagnosticSeverity severity,
    const llvm::Twine &message, std::vector<proto::Diagnostic> &diagnostics) {
  proto::Diagnostic diag;
  diag.source = "executor-lsp";
  diag.severity = severity;
  SMLoc loc = SMLoc::getFromPointer(chunk.getBuffer().data() +
                                    std::min(offset, chunk.getBuffer().size()));
  diag.range = chunk.getRange(SMRange(loc, loc));
  diag.message = message.str();
  diagnostics.push_back(std::move(diag));
}

void TextFile::Impl::parseChunk(Chunk &chunk, StringRef text,
                                std::vector<proto::Diagnostic> &diagnostics) {
  size_t firstDiag = diagnostics.size();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics.push_back(convertDiagnostic(chunk, uri, diag));
    return success();
  });
  chunk.sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, uri.file()), SMLoc());
  chunk.reparsable = navigation;
  // The parser recurses once per level: deeper text is not parsed.
  if (std::optional<size_t> deep = findExcessiveNesting(text)) {
    addDiagnostic(
        chunk, *deep, proto::DiagnosticSeverity::Error,
        nestingRefusal("the text", "executor-lsp-server does not parse it"),
        diagnostics);
    chunk.reparsable = false;
    chunk.valid = valid = false;
    return;
  }
  // Verify separately: a verifier error keeps the IR (and navigation).
  ParserConfig config(&context, /*verifyAfterParse=*/false,
                      &chunk.fallbackResourceMap);
  if (failed(parseAsmSourceFile(chunk.sourceMgr, &chunk.parsedIR, config,
                                navigation ? &chunk.asmState : nullptr))) {
    chunk.parsedIR.clear();
    chunk.asmState = AsmParserState();
    chunk.fallbackResourceMap = FallbackAsmResourceMap();
    chunk.valid = valid = false;
    return;
  }
  // The parser runs on one thread (its uniquing is cheaper without locks);
  // the verifier checks isolated regions in parallel.
  if (options.threadPool)
    context.setThreadPool(*options.threadPool);
  for (Operation &op : chunk.parsedIR)
    if (failed(verify(&op)))
      chunk.valid = valid = false;
  if (options.threadPool)
    context.disableMultithreading();
  if (diagnostics.size() != firstDiag &&
      llvm::any_of(llvm::drop_begin(diagnostics, firstDiag),
                   [](const proto::Diagnostic &diag) {
                     return diag.severity == proto::DiagnosticSeverity::Error;
                   }))
    chunk.valid = valid = false;
}

//===----------------------------------------------------------------------===//
// TextFile
//===----------------------------------------------------------------------===//

TextFile::TextFile(const proto::URIForFile &uri, std::string contents,
                   int64_t version, const DialectRegistry &registry,
                   const TextFileOptions &options,
                   std::vector<proto::Diagnostic> &diagnostics)
    : impl(std::make_unique<Impl>(uri, std::move(contents), version, registry,
                                  options)) {
  uint64_t size = impl->contents.size();
  auto megabytes = [](uint64_t bytes) {
    if (bytes % (1 << 20) == 0)
      return llvm::formatv("{0} MiB", bytes >> 20).str();
    return llvm::formatv("{0:f1} MiB", bytes / double(1 << 20)).str();
  };
  if (size > kParseLimitBytes) {
    // Not parsed at all: one chunk over the text, for positions.
    auto chunk = std::make_unique<Chunk>();
    chunk->sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(impl->contents, uri.file(),
                                         /*RequiresNullTerminator=*/false),
        SMLoc());
    chunk->reparsable = false;
    chunk->valid = false;
    impl->addDiagnostic(
        *chunk, 0, proto::DiagnosticSeverity::Warning,
        llvm::formatv("the document is {0}: executor-lsp-server checks "
                      "documents up to {1} and offers navigation and "
                      "pipeline previews up to {2}; run executor-opt on it",
                      megabytes(size), megabytes(kParseLimitBytes),
                      megabytes(kFullServiceBytes)),
        diagnostics);
    impl->chunks.push_back(std::move(chunk));
    impl->valid = false;
    impl->navigation = false;
    return;
  }
  impl->navigation = size <= kFullServiceBytes;
  llvm::SmallVector<FileChunk, 1> pieces = splitFileChunks(impl->contents);
  size_t analysed = std::min(pieces.size(), kMaxAnalysedChunks);
  for (size_t index = 0; index < analysed; ++index) {
    auto chunk = std::make_unique<Chunk>();
    chunk->index = index;
    chunk->lineOffset = pieces[index].lineOffset;
    impl->parseChunk(*chunk, pieces[index].text, diagnostics);
    impl->chunks.push_back(std::move(chunk));
  }
  if (pieces.size() > analysed) {
    // The rest of the file: one chunk over its text, for positions, not
    // parsed (memory grows with every chunk parsed).
    const FileChunk &first = pieces[analysed];
    auto chunk = std::make_unique<Chunk>();
    chunk->index = analysed;
    chunk->lineOffset = first.lineOffset;
    chunk->sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(
            StringRef(impl->contents)
                .substr(first.text.data() - impl->contents.data()),
            uri.file(), /*RequiresNullTerminator=*/false),
        SMLoc());
    chunk->reparsable = false;
    chunk->valid = false;
    impl->addDiagnostic(
        *chunk, 0, proto::DiagnosticSeverity::Warning,
        llvm::formatv("the document has {0} `// -----` chunks: "
                      "executor-lsp-server checks the first {1}; the rest, "
                      "from line {2} on, is not checked (split the file, or "
                      "run executor-opt --split-input-file on it)",
                      pieces.size(), kMaxAnalysedChunks, first.lineOffset + 1),
        diagnostics);
    impl->chunks.push_back(std::move(chunk));
    impl->valid = false;
  }
  if (!impl->navigation)
    impl->addDiagnostic(
        *impl->chunks.front(), 0, proto::DiagnosticSeverity::Information,
        llvm::formatv("the document is {0}: navigation, hover, code lenses, "
                      "pipeline previews and the pipeline's diagnostics are "
                      "off above {1} (errors are still checked)",
                      megabytes(size), megabytes(kFullServiceBytes)),
        diagnostics);
}

TextFile::~TextFile() = default;

int64_t TextFile::getVersion() const { return impl->version; }
const std::string &TextFile::getContents() const { return impl->contents; }
unsigned TextFile::getNumChunks() const { return impl->chunks.size(); }
bool TextFile::isValid() const { return impl->valid; }
bool TextFile::hasFullService() const { return impl->navigation; }
const proto::URIForFile &TextFile::getURI() const { return impl->uri; }
MLIRContext &TextFile::getContext() const { return impl->context; }
llvm::ArrayRef<std::unique_ptr<ParsedChunk>> TextFile::getChunks() const {
  return impl->chunks;
}
ParsedChunk &TextFile::getChunkFor(const proto::Position &pos) const {
  return impl->getChunkFor(pos);
}
