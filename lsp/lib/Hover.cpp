//===- Hover.cpp - textDocument/hover ---------------------------*- C++ -*-===//
#include "ExecutorLsp/Hover.h"

#include "ExecutorLsp/Aliases.h"
#include "ExecutorLsp/Kernels.h"
#include "ExecutorLsp/OpDocumentation.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;

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

proto::Hover buildOpHover(const ParsedChunk &chunk, SMRange range,
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

proto::Hover buildResultHover(const ParsedChunk &chunk, SMRange range,
                              Operation *op, unsigned start, unsigned end,
                              SMLoc loc) {
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

proto::Hover buildBlockHover(const ParsedChunk &chunk, SMRange range,
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

proto::Hover buildArgumentHover(const ParsedChunk &chunk, SMRange range,
                                BlockArgument arg,
                                const AsmParserState::BlockDefinition &block) {
  proto::Hover hover(chunk.getRange(range));
  llvm::raw_string_ostream os(hover.contents.value);
  os << "`" << ParsedChunk::getText(range) << "`: `" << arg.getType() << "`\n\n"
     << "Argument #" << arg.getArgNumber() << " of block ";
  printBlockName(os, block.block, block.definition.loc);
  os << " in `" << describeOp(block.block->getParentOp()) << "`\n\n";
  return hover;
}

std::optional<proto::Hover> findHoverAt(const ParsedChunk &chunk, SMLoc loc) {
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
} // namespace

std::optional<proto::Hover>
executor_studio::lsp::findHover(const TextFile &file,
                                const proto::Position &pos) {
  const ParsedChunk &chunk = file.getChunkFor(pos);
  if (std::optional<proto::Hover> hover = findAliasHover(chunk, pos))
    return hover;
  SMLoc loc = chunk.getLoc(pos);
  if (!loc.isValid())
    return std::nullopt;
  return findHoverAt(chunk, loc);
}
