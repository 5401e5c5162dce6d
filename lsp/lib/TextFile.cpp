//===- TextFile.cpp - one open .mlir document -------------------*- C++ -*-===//
#include "ExecutorLsp/TextFile.h"

#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/Kernels.h"
#include "ExecutorLsp/OpDocumentation.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/SplitFile.h"

#include "Catalyst/IR/CatalystAttributes.h"
#include "Catalyst/IR/CatalystOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/AsmParser/CodeComplete.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;
namespace proto = llvm::lsp;

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

bool ParsedChunk::isDefOrUse(const AsmParserState::SMDefinition &def,
                             SMLoc loc, SMRange *overlapped) {
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

namespace {

/// The result a `%name#N` location points at within its group.
std::optional<unsigned> getResultNumber(SMRange range, SMLoc loc) {
  StringRef text = ParsedChunk::getText(range);
  size_t hash = text.find('#');
  if (hash == StringRef::npos)
    return std::nullopt;
  unsigned number = 0;
  if (text.drop_front(hash + 1).getAsInteger(10, number))
    return std::nullopt;
  return number;
}

unsigned getBlockNumber(Block *block) {
  return std::distance(block->getParent()->begin(), block->getIterator());
}

void printBlockName(raw_ostream &os, Block *block, SMRange loc = {}) {
  StringRef text = ParsedChunk::getText(loc);
  if (text.starts_with("^")) {
    os << text;
    return;
  }
  os << "<block #" << getBlockNumber(block) << ">";
}

/// `func.func @name` for a symbol op, else the op name.
std::string describeOp(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto name =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    text += " @" + name.getValue().str();
  return text;
}

/// The target module a catalyst.launch_kernel calls into, if it resolves.
ModuleOp getLaunchTarget(catalyst::LaunchKernelOp launch) {
  if (!launch.getCalleeFunction())
    return nullptr;
  ModuleOp module = launch.getCalleeModule();
  return module && catalyst::isTarget(module) ? module : nullptr;
}

/// What the pipeline does with a target module.
void describeTarget(raw_ostream &os, ModuleOp module) {
  std::string name = catalyst::getTargetName(module);
  os << "**Target** `@" << name << "`: `cross-compile-targets` compiles it to `"
     << "{workspace}/" << name << "/" << name << ".o`";
  if (auto info = catalyst::getTarget(module))
    if (info->triple)
      os << " for `" << *info->triple << "`";
  if (std::optional<std::string> address =
          catalyst::getDispatchAddress(module)) {
    os << "; `dispatch-executor-targets` ships it to the executor at `"
       << *address << "` and runs its kernels there.";
  } else {
    os << "; it is linked into the host (no `catalyst.dispatch`).";
  }
}

/// What a launch becomes, and in which pass.
void describeLaunch(raw_ostream &os, catalyst::LaunchKernelOp launch) {
  ModuleOp target = getLaunchTarget(launch);
  if (!target) {
    os << "**Callee** `" << launch.getCalleeAttr()
       << "` does not resolve to a function of a `catalyst.target` module.";
    return;
  }
  if (catalyst::hasDispatch(target)) {
    if (catalyst::isNonblocking(launch))
      os << "Becomes `executor.launch_async` + `executor.await` in "
            "`dispatch-executor-targets`.";
    else
      os << "Becomes `executor.launch` in `dispatch-executor-targets`.";
  } else {
    os << "Becomes a `func.call` of the linked object in "
          "`cross-compile-targets`.";
  }
  os << "\n\n";
  describeTarget(os, target);
}
} // namespace

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

  // Queries on one chunk.
  void getLocationsOf(Chunk &chunk, SMLoc loc,
                      std::vector<proto::Location> &locations);
  void findReferencesOf(Chunk &chunk, SMLoc loc, bool includeDeclaration,
                        std::vector<proto::Location> &references);
  std::optional<proto::Hover> findHover(Chunk &chunk, SMLoc loc);
  proto::Hover buildOpHover(Chunk &chunk, SMRange range, Operation *op);
  proto::Hover buildResultHover(Chunk &chunk, SMRange range, Operation *op,
                                unsigned start, unsigned end, SMLoc loc);
  proto::Hover buildBlockHover(Chunk &chunk, SMRange range,
                               const AsmParserState::BlockDefinition &block);
  proto::Hover buildArgumentHover(Chunk &chunk, SMRange range,
                                  BlockArgument arg,
                                  const AsmParserState::BlockDefinition &block);
  void findDocumentSymbols(Chunk &chunk, Operation *op,
                           std::vector<proto::DocumentSymbol> &symbols);
  proto::CompletionList getCodeCompletion(Chunk &chunk, SMLoc loc);

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
    addDiagnostic(chunk, *deep, proto::DiagnosticSeverity::Error,
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
  addKernelSuggestions(chunk, diagnostics);
  if (diagnostics.size() != firstDiag &&
      llvm::any_of(llvm::drop_begin(diagnostics, firstDiag),
                   [](const proto::Diagnostic &diag) {
                     return diag.severity == proto::DiagnosticSeverity::Error;
                   }))
    chunk.valid = valid = false;
}

//===----------------------------------------------------------------------===//
// Definitions and references
//===----------------------------------------------------------------------===//

void TextFile::Impl::getLocationsOf(Chunk &chunk, SMLoc loc,
                                    std::vector<proto::Location> &locations) {
  auto addDef = [&](const AsmParserState::SMDefinition &def) {
    if (!ParsedChunk::isDefOrUse(def, loc))
      return false;
    locations.push_back(chunk.getLocation(uri, def.loc));
    return true;
  };
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs()) {
    if (rangeContains(op.loc, loc)) {
      locations.push_back(chunk.getLocation(uri, op.loc));
      return;
    }
    for (const auto &result : op.resultGroups)
      if (addDef(result.definition))
        return;
    for (const SMRange &use : op.symbolUses) {
      if (rangeContains(use, loc)) {
        locations.push_back(chunk.getLocation(uri, op.loc));
        return;
      }
    }
  }
  for (const AsmParserState::BlockDefinition &block :
       chunk.asmState.getBlockDefs()) {
    if (addDef(block.definition))
      return;
    for (const AsmParserState::SMDefinition &arg : block.arguments)
      if (addDef(arg))
        return;
  }
}

void TextFile::Impl::findReferencesOf(
    Chunk &chunk, SMLoc loc, bool includeDeclaration,
    std::vector<proto::Location> &references) {
  auto addDefAndUses = [&](const AsmParserState::SMDefinition &def) {
    if (includeDeclaration)
      references.push_back(chunk.getLocation(uri, def.loc));
    for (const SMRange &use : def.uses)
      references.push_back(chunk.getLocation(uri, use));
  };
  auto addSymbol = [&](const AsmParserState::OperationDefinition &op) {
    // The symbol's own name in its definition is recorded as a use: it is
    // the declaration.
    auto isDeclaration = [&](SMRange use) {
      auto name =
          op.op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      return name && ParsedChunk::getText(use) == ("@" + name.getValue()).str() &&
             chunk.getPosition(use.Start).line ==
                 chunk.getPosition(op.loc.Start).line;
    };
    bool declared = false;
    for (const SMRange &use : op.symbolUses) {
      bool declaration = isDeclaration(use);
      declared |= declaration;
      if (!declaration || includeDeclaration)
        references.push_back(chunk.getLocation(uri, use));
    }
    if (includeDeclaration && !declared)
      references.insert(references.begin(), chunk.getLocation(uri, op.loc));
  };
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs()) {
    if (rangeContains(op.loc, loc)) {
      if (!op.symbolUses.empty() || isa<SymbolOpInterface>(op.op))
        return addSymbol(op);
      for (const auto &result : op.resultGroups)
        addDefAndUses(result.definition);
      return;
    }
    for (const auto &result : op.resultGroups)
      if (ParsedChunk::isDefOrUse(result.definition, loc))
        return addDefAndUses(result.definition);
    for (const SMRange &use : op.symbolUses)
      if (rangeContains(use, loc))
        return addSymbol(op);
  }
  for (const AsmParserState::BlockDefinition &block :
       chunk.asmState.getBlockDefs()) {
    if (ParsedChunk::isDefOrUse(block.definition, loc))
      return addDefAndUses(block.definition);
    for (const AsmParserState::SMDefinition &arg : block.arguments)
      if (ParsedChunk::isDefOrUse(arg, loc))
        return addDefAndUses(arg);
  }
}

//===----------------------------------------------------------------------===//
// Hover
//===----------------------------------------------------------------------===//

std::optional<proto::Hover> TextFile::Impl::findHover(Chunk &chunk, SMLoc loc) {
  SMRange range;
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs()) {
    if (rangeContains(op.loc, loc))
      return buildOpHover(chunk, op.loc, op.op);
    for (const SMRange &use : op.symbolUses)
      if (rangeContains(use, loc))
        return buildOpHover(chunk, use, op.op);
    for (unsigned i = 0, e = op.resultGroups.size(); i < e; ++i) {
      const auto &group = op.resultGroups[i];
      if (!ParsedChunk::isDefOrUse(group.definition, loc, &range))
        continue;
      unsigned end = i == e - 1 ? op.op->getNumResults()
                                : op.resultGroups[i + 1].startIndex;
      return buildResultHover(chunk, range, op.op, group.startIndex, end, loc);
    }
  }
  for (const AsmParserState::BlockDefinition &block :
       chunk.asmState.getBlockDefs()) {
    if (ParsedChunk::isDefOrUse(block.definition, loc, &range))
      return buildBlockHover(chunk, range, block);
    for (const auto &arg : llvm::enumerate(block.arguments))
      if (ParsedChunk::isDefOrUse(arg.value(), loc, &range))
        return buildArgumentHover(chunk, range,
                                  block.block->getArgument(arg.index()), block);
  }
  return std::nullopt;
}

proto::Hover TextFile::Impl::buildOpHover(Chunk &chunk, SMRange range,
                                          Operation *op) {
  proto::Hover hover(chunk.getRange(range));
  llvm::raw_string_ostream os(hover.contents.value);
  // A kernel: its signature and where it runs, not its generic form.
  if (describeKernel(os, op))
    return hover;
  StringRef name = op->getName().getStringRef();
  const OpDocumentation *doc = lookupOpDocumentation(name);

  os << "**`" << name << "`**";
  if (auto symbol = dyn_cast<SymbolOpInterface>(op))
    os << " `" << symbol.getVisibility() << " @" << symbol.getName() << "`";
  if (doc && !doc->summary.empty())
    os << ": " << doc->summary;
  if (!op->isRegistered())
    os << " (unregistered)";
  os << "\n\n";

  if (auto launch = dyn_cast<catalyst::LaunchKernelOp>(op)) {
    describeLaunch(os, launch);
    os << "\n\n";
  } else if (auto module = dyn_cast<ModuleOp>(op);
             module && catalyst::isTarget(module)) {
    describeTarget(os, module);
    os << "\n\n";
  }
  if (const std::string *lowering = lookupRuntimeLowering(name))
    os << "**Lowers to** (`" << kRuntimeLoweringPass << "`): " << *lowering
       << "\n\n";
  if (doc && !doc->description.empty())
    os << doc->description << "\n\n";

  // The generic form, without regions, as mlir-lsp-server shows it.
  os << "Generic form:\n\n```mlir\n";
  SmallVector<std::unique_ptr<Region>> regions;
  for (Region &region : op->getRegions()) {
    regions.push_back(std::make_unique<Region>());
    regions.back()->takeBody(region);
  }
  op->print(os,
            OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs());
  for (auto [region, saved] : llvm::zip(op->getRegions(), regions))
    region.takeBody(*saved);
  os << "\n```\n";
  return hover;
}

proto::Hover TextFile::Impl::buildResultHover(Chunk &chunk, SMRange range,
                                              Operation *op, unsigned start,
                                              unsigned end, SMLoc loc) {
  proto::Hover hover(chunk.getRange(range));
  llvm::raw_string_ostream os(hover.contents.value);
  if (std::optional<unsigned> number = getResultNumber(range, loc)) {
    if (start + *number < end) {
      start += *number;
      end = start + 1;
    }
  }
  StringRef valueName = ParsedChunk::getText(range);
  if (start + 1 == end) {
    os << "`" << valueName << "`: `" << op->getResult(start).getType()
       << "`\n\n";
    os << "Result #" << start << " of `" << describeOp(op) << "`";
  } else {
    os << "`" << valueName << "`: ";
    llvm::interleaveComma(op->getResults().slice(start, end - start), os,
                          [&](Value v) { os << "`" << v.getType() << "`"; });
    os << "\n\nResults #" << start << " to #" << (end - 1) << " of `"
       << describeOp(op) << "`";
  }
  if (const OpDocumentation *doc =
          lookupOpDocumentation(op->getName().getStringRef()))
    if (!doc->summary.empty())
      os << ": " << doc->summary;
  os << "\n\n";
  if (auto launch = dyn_cast<catalyst::LaunchKernelOp>(op)) {
    describeLaunch(os, launch);
    os << "\n\n";
  }
  return hover;
}

proto::Hover
TextFile::Impl::buildBlockHover(Chunk &chunk, SMRange range,
                                const AsmParserState::BlockDefinition &block) {
  proto::Hover hover(chunk.getRange(range));
  llvm::raw_string_ostream os(hover.contents.value);
  auto printBlock = [&](Block *other) {
    if (const auto *def = chunk.asmState.getBlockDef(other))
      printBlockName(os, other, def->definition.loc);
    else
      printBlockName(os, other);
  };
  os << "Block #" << getBlockNumber(block.block) << " in `"
     << describeOp(block.block->getParentOp()) << "`\n\n";
  if (!block.block->hasNoPredecessors()) {
    os << "Predecessors: ";
    llvm::interleaveComma(block.block->getPredecessors(), os, printBlock);
    os << "\n\n";
  }
  if (!block.block->hasNoSuccessors()) {
    os << "Successors: ";
    llvm::interleaveComma(block.block->getSuccessors(), os, printBlock);
    os << "\n\n";
  }
  return hover;
}

proto::Hover TextFile::Impl::buildArgumentHover(
    Chunk &chunk, SMRange range, BlockArgument arg,
    const AsmParserState::BlockDefinition &block) {
  proto::Hover hover(chunk.getRange(range));
  llvm::raw_string_ostream os(hover.contents.value);
  os << "`" << ParsedChunk::getText(range) << "`: `" << arg.getType() << "`\n\n"
     << "Argument #" << arg.getArgNumber() << " of block ";
  printBlockName(os, block.block, block.definition.loc);
  os << " in `" << describeOp(block.block->getParentOp()) << "`\n\n";
  return hover;
}

//===----------------------------------------------------------------------===//
// Document symbols
//===----------------------------------------------------------------------===//

void TextFile::Impl::findDocumentSymbols(
    Chunk &chunk, Operation *op, std::vector<proto::DocumentSymbol> &symbols) {
  std::vector<proto::DocumentSymbol> *children = &symbols;
  if (const AsmParserState::OperationDefinition *def =
          chunk.asmState.getOpDef(op)) {
    auto symbolName =
        op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    proto::DocumentSymbol symbol;
    bool add = true;
    if (auto module = dyn_cast<ModuleOp>(op)) {
      symbol.name = symbolName ? ("@" + symbolName.getValue()).str()
                               : std::string("<module>");
      symbol.kind = proto::SymbolKind::Module;
      if (catalyst::isTarget(module)) {
        if (std::optional<std::string> address =
                catalyst::getDispatchAddress(module))
          symbol.detail = "catalyst.target, dispatched to " + *address;
        else
          symbol.detail = "catalyst.target, linked into the host";
      } else {
        symbol.detail = "builtin.module";
      }
    } else if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      symbol.name = ("@" + function.getName()).str();
      symbol.kind = proto::SymbolKind::Function;
      llvm::raw_string_ostream os(symbol.detail);
      os << function.getFunctionType();
    } else if (symbolName) {
      symbol.name = ("@" + symbolName.getValue()).str();
      symbol.kind = proto::SymbolKind::Variable;
      symbol.detail = op->getName().getStringRef().str();
    } else if (op->hasTrait<OpTrait::SymbolTable>()) {
      symbol.name = ("<" + op->getName().getStringRef() + ">").str();
      symbol.kind = proto::SymbolKind::Namespace;
    } else {
      add = false;
    }
    if (add) {
      symbol.range = chunk.getRange(def->scopeLoc);
      symbol.selectionRange = chunk.getRange(def->loc);
      symbols.push_back(std::move(symbol));
      children = &symbols.back().children;
    }
  }
  for (Region &region : op->getRegions())
    for (Operation &child : region.getOps())
      findDocumentSymbols(chunk, &child, *children);
}

//===----------------------------------------------------------------------===//
// Completion
//===----------------------------------------------------------------------===//

namespace {
/// The discardable attributes of the catalyst dialect that the passes read.
struct CatalystAttribute {
  StringRef name;
  StringRef snippet;
  StringRef documentation;
};
constexpr CatalystAttribute kCatalystAttributes[] = {
    {"catalyst.target", "catalyst.target = {$1}",
     "On a nested `builtin.module`: `cross-compile-targets` compiles it on its "
     "own to `{workspace}/{name}/{name}.o`. Optional fields: `triple = "
     "\"...\"` (default: the host's) and `pipeline = \"...\"` (default: "
     "bufferization and the lowering to LLVM)."},
    {"catalyst.dispatch", "catalyst.dispatch = {address = \"${1:host:port}\"}",
     "On a `catalyst.target` module: `dispatch-executor-targets` ships its "
     "object to the executor at `address` and turns the launches into it "
     "into `executor.launch`."},
    {"catalyst.nonblocking", "catalyst.nonblocking",
     "On a `catalyst.launch_kernel` into a dispatched target: dispatch it "
     "with `executor.launch_async` + `executor.await` (the entry must be "
     "`() -> ()`)."},
    {"catalyst.object_file", "catalyst.object_file = \"$1\"",
     "Written by `cross-compile-targets` on a target module: the path of "
     "its object."},
    {"catalyst.object_files", "catalyst.object_files = [$1]",
     "Written by `cross-compile-targets` on the root module: the objects of "
     "local targets, for the linker."},
};

class CompletionContext : public AsmParserCodeCompleteContext {
public:
  CompletionContext(SMLoc loc, proto::CompletionList &list, MLIRContext *ctx)
      : AsmParserCodeCompleteContext(loc), list(list), ctx(ctx) {}

  void completeDialectName(StringRef prefix) final {
    for (StringRef dialect : ctx->getAvailableDialects()) {
      proto::CompletionItem item(prefix + dialect,
                                 proto::CompletionItemKind::Module, "3");
      item.detail = "dialect";
      list.items.push_back(std::move(item));
    }
  }
  using AsmParserCodeCompleteContext::completeDialectName;

  void completeOperationName(StringRef dialectName) final {
    Dialect *dialect = ctx->getOrLoadDialect(dialectName);
    if (!dialect)
      return;
    for (RegisteredOperationName op : ctx->getRegisteredOperations()) {
      if (&op.getDialect() != dialect)
        continue;
      proto::CompletionItem item(
          op.getStringRef().drop_front(dialectName.size() + 1),
          proto::CompletionItemKind::Field, "1");
      item.detail = "operation";
      if (const OpDocumentation *doc =
              lookupOpDocumentation(op.getStringRef())) {
        if (!doc->summary.empty())
          item.detail = doc->summary;
        proto::MarkupContent content;
        content.kind = proto::MarkupKind::Markdown;
        content.value = "**`" + doc->name + "`**\n\n" + doc->description;
        if (const std::string *lowering =
                lookupRuntimeLowering(op.getStringRef()))
          content.value += "\n\n**Lowers to**: " + *lowering;
        item.documentation = std::move(content);
      }
      list.items.push_back(std::move(item));
    }
  }

  void appendSSAValueCompletion(StringRef name, std::string typeData) final {
    bool stripPrefix = getCodeCompleteLoc().getPointer()[-1] == '%';
    proto::CompletionItem item(name, proto::CompletionItemKind::Variable);
    if (stripPrefix)
      item.insertText = name.drop_front().str();
    item.detail = std::move(typeData);
    list.items.push_back(std::move(item));
  }

  void appendBlockCompletion(StringRef name) final {
    bool stripPrefix = getCodeCompleteLoc().getPointer()[-1] == '^';
    proto::CompletionItem item(name, proto::CompletionItemKind::Field);
    if (stripPrefix)
      item.insertText = name.drop_front().str();
    list.items.push_back(std::move(item));
  }

  void completeExpectedTokens(ArrayRef<StringRef> tokens, bool optional) final {
    for (StringRef token : tokens) {
      proto::CompletionItem item(token, proto::CompletionItemKind::Keyword,
                                 "0");
      item.detail = optional ? "optional" : "";
      list.items.push_back(std::move(item));
    }
  }

  void completeAttribute(const llvm::StringMap<Attribute> &aliases) final {
    for (StringRef name :
         {"affine_map", "affine_set", "dense", "dense_resource", "false", "loc",
          "sparse", "true", "unit"})
      list.items.emplace_back(name, proto::CompletionItemKind::Field, "1");
    completeDialectName("#");
    completeAliases(aliases, "#");
  }
  void completeDialectAttributeOrAlias(
      const llvm::StringMap<Attribute> &aliases) final {
    completeDialectName();
    completeAliases(aliases);
  }

  void completeType(const llvm::StringMap<Type> &aliases) final {
    for (StringRef name :
         {"memref", "tensor", "complex", "tuple", "vector", "bf16", "f16",
          "f32", "f64", "f80", "f128", "index", "none"})
      list.items.emplace_back(name, proto::CompletionItemKind::Field, "1");
    for (StringRef prefix : {"i", "si", "ui"}) {
      proto::CompletionItem item(prefix + "<N>",
                                 proto::CompletionItemKind::Field, "1");
      item.insertText = prefix.str();
      list.items.push_back(std::move(item));
    }
    // The executor dialect's handles.
    for (StringRef name : {"!executor.session", "!executor.token"}) {
      proto::CompletionItem item(name, proto::CompletionItemKind::Class, "0");
      item.detail = "executor type";
      list.items.push_back(std::move(item));
    }
    completeDialectName("!");
    completeAliases(aliases, "!");
  }
  void completeDialectTypeOrAlias(const llvm::StringMap<Type> &aliases) final {
    // After `!`.
    for (StringRef name : {"executor.session", "executor.token"}) {
      proto::CompletionItem item(name, proto::CompletionItemKind::Class, "0");
      item.detail = "executor type";
      list.items.push_back(std::move(item));
    }
    completeDialectName();
    completeAliases(aliases);
  }

private:
  template <typename T>
  void completeAliases(const llvm::StringMap<T> &aliases,
                       StringRef prefix = "") {
    for (const auto &alias : aliases) {
      proto::CompletionItem item(prefix + alias.getKey(),
                                 proto::CompletionItemKind::Field, "2");
      llvm::raw_string_ostream(item.detail) << "alias: " << alias.getValue();
      list.items.push_back(std::move(item));
    }
  }

  proto::CompletionList &list;
  MLIRContext *ctx;
};

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}

/// Whether the word that ends at `loc` names a discardable attribute: it
/// follows `,` or a `{` on the same line (a region's `{` ends its line).
bool isAttributeNamePosition(StringRef buffer, const char *wordStart) {
  const char *p = wordStart;
  bool sawNewline = false;
  while (p > buffer.begin()) {
    char c = p[-1];
    if (c == '\n')
      sawNewline = true;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      return c == ',' || (c == '{' && !sawNewline);
    --p;
  }
  return false;
}
} // namespace

proto::CompletionList TextFile::Impl::getCodeCompletion(Chunk &chunk,
                                                        SMLoc loc) {
  proto::CompletionList list;
  if (!loc.isValid() || !chunk.reparsable)
    return list;

  // The parser reports what it expects at `loc`; parse again with that hook.
  {
    MLIRContext tmpContext(context.getDialectRegistry(),
                           MLIRContext::Threading::DISABLED);
    tmpContext.allowUnregisteredDialects();
    tmpContext.printOpOnDiagnostic(false);
    ScopedDiagnosticHandler silence(&tmpContext,
                                    [](Diagnostic &) { return success(); });
    CompletionContext completion(loc, list, &tmpContext);
    Block tmpIR;
    AsmParserState tmpState;
    ParserConfig config(&tmpContext, /*verifyAfterParse=*/false);
    (void)parseAsmSourceFile(chunk.sourceMgr, &tmpIR, config, &tmpState,
                             &completion);
  }

  // The entries of the module in a callee `@module::@` being typed.
  completeKernelEntries(chunk, loc, context.getDialectRegistry(), list);

  // Attribute names are no tokens of the grammar: find them by their place.
  StringRef buffer = chunk.getBuffer();
  const char *end = loc.getPointer();
  const char *start = end;
  while (start > buffer.begin() && isIdentifierChar(start[-1]))
    --start;
  StringRef word(start, end - start);
  if (StringRef("catalyst.").starts_with(word) ||
      word.starts_with("catalyst.")) {
    if (isAttributeNamePosition(buffer, start)) {
      proto::Range replace(chunk.getPosition(SMLoc::getFromPointer(start)),
                           chunk.getPosition(loc));
      for (const CatalystAttribute &attr : kCatalystAttributes) {
        if (!attr.name.starts_with(word))
          continue;
        proto::CompletionItem item(attr.name,
                                   proto::CompletionItemKind::Property, "0");
        item.detail = "catalyst attribute";
        item.documentation = proto::MarkupContent{proto::MarkupKind::Markdown,
                                                  attr.documentation.str()};
        item.insertTextFormat = proto::InsertTextFormat::Snippet;
        item.textEdit = proto::TextEdit{replace, attr.snippet.str()};
        item.filterText = attr.name.str();
        list.items.push_back(std::move(item));
      }
    }
  }
  return list;
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

void TextFile::getLocationsOf(const proto::Position &pos,
                              std::vector<proto::Location> &locations) {
  Chunk &chunk = impl->getChunkFor(pos);
  SMLoc loc = chunk.getLoc(pos);
  if (loc.isValid())
    impl->getLocationsOf(chunk, loc, locations);
}

void TextFile::findReferencesOf(const proto::Position &pos,
                                bool includeDeclaration,
                                std::vector<proto::Location> &references) {
  Chunk &chunk = impl->getChunkFor(pos);
  SMLoc loc = chunk.getLoc(pos);
  if (loc.isValid())
    impl->findReferencesOf(chunk, loc, includeDeclaration, references);
}

std::optional<proto::Hover> TextFile::findHover(const proto::Position &pos) {
  Chunk &chunk = impl->getChunkFor(pos);
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid())
    return std::nullopt;
  return impl->findHover(chunk, loc);
}

void TextFile::findDocumentSymbols(
    std::vector<proto::DocumentSymbol> &symbols) {
  auto collect = [&](Chunk &chunk, std::vector<proto::DocumentSymbol> &out) {
    for (Operation &op : chunk.parsedIR)
      impl->findDocumentSymbols(chunk, &op, out);
  };
  if (impl->chunks.size() == 1)
    return collect(*impl->chunks.front(), symbols);
  // One namespace per chunk of a split file, as mlir-lsp-server does.
  unsigned totalLines = StringRef(impl->contents).count('\n');
  for (unsigned i = 0, e = impl->chunks.size(); i < e; ++i) {
    Chunk &chunk = *impl->chunks[i];
    proto::Position start(chunk.lineOffset);
    proto::Position end(i + 1 == e ? totalLines
                                   : impl->chunks[i + 1]->lineOffset - 1);
    proto::DocumentSymbol symbol("<file-split-" + llvm::Twine(i) + ">",
                                 proto::SymbolKind::Namespace,
                                 proto::Range(start, end), proto::Range(start));
    collect(chunk, symbol.children);
    symbols.push_back(std::move(symbol));
  }
}

proto::CompletionList TextFile::getCodeCompletion(const proto::Position &pos) {
  Chunk &chunk = impl->getChunkFor(pos);
  return impl->getCodeCompletion(chunk, chunk.getLoc(pos));
}

void TextFile::getPreviewLenses(std::vector<PreviewLens> &lenses) {
  for (auto &chunkPtr : impl->chunks) {
    Chunk &chunk = *chunkPtr;
    auto addLens = [&](const AsmParserState::OperationDefinition *def,
                       std::string title, StringRef pass) {
      if (!def)
        return;
      PreviewLens lens;
      proto::Range range = chunk.getRange(def->loc);
      lens.line = range.start.line;
      lens.startColumn = range.start.character;
      lens.endColumn = range.end.line == range.start.line
                           ? range.end.character
                           : range.start.character;
      lens.title = std::move(title);
      lens.chunk = chunk.index;
      lens.pass = pass.str();
      lenses.push_back(std::move(lens));
    };
    for (Operation &top : chunk.parsedIR) {
      top.walk([&](Operation *op) {
        if (auto module = dyn_cast<ModuleOp>(op)) {
          if (!catalyst::isTarget(module))
            return;
          const auto *def = chunk.asmState.getOpDef(op);
          std::string name = catalyst::getTargetName(module);
          addLens(def,
                  "Preview pipeline: @" + name + " at cross-compile-targets",
                  "cross-compile-targets");
          if (catalyst::hasDispatch(module))
            addLens(def,
                    "Preview pipeline: @" + name +
                        " at dispatch-executor-targets",
                    "dispatch-executor-targets");
          return;
        }
        auto launch = dyn_cast<catalyst::LaunchKernelOp>(op);
        if (!launch)
          return;
        ModuleOp target = getLaunchTarget(launch);
        if (!target)
          return;
        const auto *def = chunk.asmState.getOpDef(op);
        if (catalyst::hasDispatch(target)) {
          addLens(def,
                  catalyst::isNonblocking(launch)
                      ? "Preview: becomes executor.launch_async + "
                        "executor.await (dispatch-executor-targets)"
                      : "Preview: becomes executor.launch "
                        "(dispatch-executor-targets)",
                  "dispatch-executor-targets");
        } else {
          addLens(def, "Preview: becomes func.call (cross-compile-targets)",
                  "cross-compile-targets");
        }
      });
    }
  }
}
