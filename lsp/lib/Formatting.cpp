//===- Formatting.cpp - textDocument/formatting -----------------*- C++ -*-===//
#include "ExecutorLsp/Formatting.h"

#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SplitFile.h"
#include "ExecutorLsp/TextFile.h"
#include "ExecutorStudio/Support/MlirLexer.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace executor_studio;
using namespace executor_studio::lsp;
using llvm::StringRef;

namespace {
llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<proto::LSPError>(message.str(),
                                           proto::ErrorCode::RequestFailed);
}

/// Whether `comment` is one that MLIR's printer writes itself (after a
/// block's label): it comes back on every format.
bool isPrinterComment(StringRef comment) {
  comment = comment.drop_front(2).ltrim();
  if (comment.starts_with("pred: ") || comment == "no predecessors")
    return true;
  StringRef count = comment.take_while(llvm::isDigit);
  return !count.empty() &&
         comment.drop_front(count.size()).starts_with(" preds: ");
}

/// The name of a value as written (`%x` -> `x`), unless it is a number
/// (the printer numbers those itself).
StringAttr getWrittenName(MLIRContext *context, SMRange range) {
  StringRef text = ParsedChunk::getText(range);
  text = text.take_front(text.find_first_of("#:"));
  if (!text.consume_front("%") || text.empty() ||
      llvm::all_of(text, llvm::isDigit))
    return nullptr;
  return StringAttr::get(context, text);
}

/// Prints `text` (a chunk) as MLIR's printer does; `header` is the comment
/// block before its first op, kept as it is.
llvm::Error printChunk(MLIRContext &context, StringRef text, StringRef header,
                       std::string &out) {
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (errors.empty())
      errors = diag.str();
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                               SMLoc());
  Block block;
  AsmParserState state;
  FallbackAsmResourceMap resources;
  ParserConfig config(&context, /*verifyAfterParse=*/false, &resources);
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return makeError("the text does not parse: " + errors);
  // Keep the names as written: the printer takes them from NameLocs.
  for (const AsmParserState::OperationDefinition &def : state.getOpDefs())
    if (!def.resultGroups.empty())
      if (StringAttr name =
              getWrittenName(&context, def.resultGroups.front().definition.loc))
        def.op->setLoc(NameLoc::get(name, def.op->getLoc()));
  for (const AsmParserState::BlockDefinition &def : state.getBlockDefs())
    for (auto [arg, argDef] :
         llvm::zip(def.block->getArguments(), def.arguments))
      if (StringAttr name = getWrittenName(&context, argDef.loc))
        arg.setLoc(NameLoc::get(name, arg.getLoc()));

  llvm::raw_string_ostream os(out);
  os << header;
  while (!block.empty()) {
    // Each top-level op on its own, so that its aliases are printed too.
    OwningOpRef<Operation *> op = &block.front();
    op.get()->remove();
    AsmState asmState(op.get(), OpPrintingFlags().printNameLocAsPrefix(),
                      /*locationMap=*/nullptr, &resources);
    op.get()->print(os, asmState);
    if (!StringRef(out).ends_with("\n"))
      os << "\n";
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<proto::TextEdit>>
formatOnThisStack(const TextFile &file, const FormatOptions &options) {
  if (!file.hasFullService())
    return makeError("the document is past the size for formatting "
                     "(lsp/README.md, \"Limits\")");
  StringRef contents = file.getContents();
  llvm::ArrayRef<std::unique_ptr<ParsedChunk>> chunks = file.getChunks();
  for (const std::unique_ptr<ParsedChunk> &chunk : chunks)
    if (!chunk->valid || !chunk->reparsable)
      return makeError(llvm::formatv(
          "the document has errors (the first chunk with them starts on line "
          "{0}); fix them before formatting",
          chunk->lineOffset + 1));

  // The comments the printer would drop: all but each chunk's header.
  llvm::SmallVector<size_t> headerEnds;
  unsigned lostComments = 0, firstLostLine = 0;
  for (const std::unique_ptr<ParsedChunk> &chunk : chunks) {
    StringRef buffer = chunk->getBuffer();
    size_t headerEnd = StringRef::npos;
    scanTokens(buffer, [&](const ScannedToken &token) {
      if (token.kind != ScannedToken::Kind::Comment) {
        if (headerEnd == StringRef::npos)
          headerEnd = token.text.data() - buffer.data() - token.column;
        return;
      }
      if (headerEnd == StringRef::npos || isPrinterComment(token.text))
        return;
      if (lostComments++ == 0)
        firstLostLine = chunk->lineOffset + token.line;
    });
    headerEnds.push_back(headerEnd == StringRef::npos ? buffer.size()
                                                      : headerEnd);
  }
  if (lostComments && !options.dropComments)
    return makeError(llvm::formatv(
        "formatting would drop {0} comment{1} (the first on line {2}): "
        "MLIR's printer keeps none but those before a chunk's first op. Ask "
        "for it with the formatting option \"dropComments\": true (or "
        "initializationOptions.formatDropsComments)",
        lostComments, lostComments == 1 ? "" : "s", firstLostLine + 1));

  std::string formatted;
  llvm::SmallVector<FileChunk, 1> pieces = splitFileChunks(contents);
  for (size_t i = 0, e = pieces.size(); i < e; ++i) {
    if (i) {
      // The marker line as it was.
      StringRef before =
          contents.take_front(pieces[i].text.data() - contents.data());
      before = before.drop_back(before.ends_with("\n") ? 1 : 0);
      StringRef marker = before.substr(before.rfind('\n') + 1);
      formatted += marker.trim().str() + "\n";
    }
    StringRef header = pieces[i].text.take_front(headerEnds[i]);
    if (llvm::Error error =
            printChunk(file.getContext(), pieces[i].text, header, formatted))
      return std::move(error);
  }
  std::vector<proto::TextEdit> edits;
  if (formatted == contents)
    return edits;
  // One edit of the whole text.
  unsigned lines = contents.count('\n');
  StringRef lastLine = contents.substr(contents.rfind('\n') + 1);
  proto::TextEdit edit;
  edit.range = proto::Range(proto::Position(0, 0),
                            proto::Position(lines, lastLine.size()));
  edit.newText = std::move(formatted);
  edits.push_back(std::move(edit));
  return edits;
}
} // namespace

llvm::Expected<std::vector<proto::TextEdit>>
executor_studio::lsp::formatDocument(const TextFile &file,
                                     const FormatOptions &options) {
  // The parser and the printer recurse once per nesting level.
  std::optional<llvm::Expected<std::vector<proto::TextEdit>>> edits;
  runOnParserStack([&] { edits.emplace(formatOnThisStack(file, options)); });
  return std::move(*edits);
}
