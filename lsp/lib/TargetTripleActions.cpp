//===- TargetTripleActions.cpp - set catalyst.target.triple ---------------===//
#include "ExecutorLsp/TargetTripleActions.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace executor_studio::lsp;

void executor_studio::lsp::getTargetTripleActions(
    const TextFile &file, const proto::Range &range,
    std::vector<proto::CodeAction> &actions) {
  const ParsedChunk &chunk = file.getChunkFor(range.start);
  llvm::SMLoc loc = chunk.getLoc(range.start);
  if (!loc.isValid() || !chunk.hasParserState())
    return;
  // The innermost target module whose text holds the position.
  const AsmParserState::OperationDefinition *innermost = nullptr;
  for (const AsmParserState::OperationDefinition &def :
       chunk.asmState.getOpDefs()) {
    auto module = dyn_cast<ModuleOp>(def.op);
    if (!module || !catalyst::isTarget(module))
      continue;
    const char *at = loc.getPointer();
    if (at < def.scopeLoc.Start.getPointer() || at > def.scopeLoc.End.getPointer())
      continue;
    if (!innermost || def.scopeLoc.Start.getPointer() >
                          innermost->scopeLoc.Start.getPointer())
      innermost = &def;
  }
  if (!innermost)
    return;
  auto module = cast<ModuleOp>(innermost->op);
  std::string current = catalyst::getEffectiveTargetTriple(module);
  bool explicitTriple =
      catalyst::getTarget(module) && catalyst::getTarget(module)->triple;
  llvm::StringRef buffer = chunk.getBuffer();
  size_t moduleOffset = innermost->loc.Start.getPointer() - buffer.data();
  std::string name = "@" + catalyst::getTargetName(module);

  std::vector<std::string> triples = {llvm::sys::getProcessTriple(),
                                      "aarch64-unknown-linux-gnu"};
  for (size_t i = 0; i < triples.size(); ++i) {
    const std::string &triple = triples[i];
    if (std::find(triples.begin(), triples.begin() + i, triple) !=
        triples.begin() + i)
      continue;
    // An explicit triple already there needs no action; the host's is
    // still worth writing down when it is only the default.
    if (triple == current && explicitTriple)
      continue;
    auto edit =
        catalyst::getSetTargetTripleEdit(buffer, moduleOffset, module, triple);
    if (!edit) {
      llvm::consumeError(edit.takeError());
      return;
    }
    proto::TextEdit change;
    const char *start = buffer.data() + edit->offset;
    change.range = chunk.getRange(
        llvm::SMRange(llvm::SMLoc::getFromPointer(start),
                      llvm::SMLoc::getFromPointer(start + edit->length)));
    change.newText = edit->text;
    proto::CodeAction action;
    action.title = "Compile " + name + " for " + triple +
                   " (catalyst.target.triple)";
    action.kind = kTargetTripleActionKind;
    action.edit.emplace();
    action.edit->changes[file.getURI().uri().str()] = {std::move(change)};
    actions.push_back(std::move(action));
  }
}
