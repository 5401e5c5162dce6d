//===- InlayHints.cpp - textDocument/inlayHint ------------------*- C++ -*-===//
#include "ExecutorLsp/InlayHints.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/LSP/Protocol.h"

using namespace mlir;
using namespace executor_studio::lsp;

void executor_studio::lsp::getLaunchHints(const TextFile &file,
                                          unsigned firstLine, unsigned lastLine,
                                          std::vector<LaunchHint> &hints) {
  if (!file.hasFullService())
    return;
  for (const std::unique_ptr<ParsedChunk> &chunkPtr : file.getChunks()) {
    const ParsedChunk &chunk = *chunkPtr;
    if (!chunk.hasParserState())
      continue;
    unsigned chunkLines = chunk.getBuffer().count('\n');
    if (chunk.lineOffset > lastLine ||
        chunk.lineOffset + chunkLines < firstLine)
      continue;
    // Symbol tables are built once per chunk, not once per launch.
    SymbolTableCollection symbolTables;
    for (const AsmParserState::OperationDefinition &def :
         chunk.asmState.getOpDefs()) {
      auto launch = dyn_cast<catalyst::LaunchKernelOp>(def.op);
      if (!launch)
        continue;
      llvm::lsp::Position end = chunk.getPosition(def.scopeLoc.End);
      if (end.line < static_cast<int64_t>(firstLine) ||
          end.line > static_cast<int64_t>(lastLine))
        continue;
      ModuleOp module =
          launch.getCalleeFunction() ? launch.getCalleeModule() : nullptr;
      if (!module ||
          (!catalyst::isTarget(module) && !catalyst::hasDispatch(module)))
        continue;
      std::string name = catalyst::getTargetName(module);
      std::string object = catalyst::getTargetObjectPath("{workspace}", name);
      if (std::optional<std::string> recorded = catalyst::getObjectFile(module);
          recorded && !recorded->empty())
        object = *recorded;
      LaunchHint hint;
      hint.line = end.line;
      hint.column = end.character;
      if (catalyst::hasDispatch(module)) {
        std::string address =
            catalyst::getDispatchAddress(module).value_or("?");
        hint.label = "-> dispatch " + address +
                     (catalyst::isNonblocking(launch) ? " (async)" : "") +
                     ", ships " + object;
        hint.tooltip = "dispatch-executor-targets ships " + object +
                       " to the executor at " + address + " once and runs @" +
                       launch.getCalleeAttr().getLeafReference().str() +
                       " there";
      } else {
        hint.label = "-> local, links " + object;
        hint.tooltip = "cross-compile-targets compiles @" + name + " to " +
                       object +
                       ", which is linked into the host; the "
                       "launch becomes a func.call";
      }
      hints.push_back(std::move(hint));
    }
  }
}

llvm::json::Value executor_studio::lsp::toJSON(const LaunchHint &hint) {
  return llvm::json::Object{
      {"position", proto::Position(hint.line, hint.column)},
      {"label", hint.label},
      {"tooltip", hint.tooltip},
      {"paddingLeft", true},
  };
}
