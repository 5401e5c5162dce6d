//===- CodeLens.cpp - textDocument/codeLens ---------------------*- C++ -*-===//
#include "ExecutorLsp/CodeLens.h"

#include "ExecutorLsp/Kernels.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/Protocol.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;
namespace json = llvm::json;

void executor_studio::lsp::getPreviewLenses(const TextFile &file,
                                            std::vector<PreviewLens> &lenses) {
  for (const auto &chunkPtr : file.getChunks()) {
    const ParsedChunk &chunk = *chunkPtr;
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

llvm::StringMap<unsigned> executor_studio::lsp::getDefaultPassIndices() {
  llvm::StringMap<unsigned> indices;
  mlir::OpPassManager pm("builtin.module");
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::string text = catalyst::getDefaultPipelineText({"workspace", ""});
  llvm::StringRef body =
      llvm::StringRef(text)
          .drop_front(llvm::StringRef("builtin.module(").size())
          .drop_back();
  if (failed(mlir::parsePassPipeline(body, pm, errorStream))) {
    proto::Logger::error("cannot parse the default pipeline: {0}", errors);
    return indices;
  }
  unsigned index = 0;
  for (mlir::Pass &pass : pm.getPasses()) {
    if (pass.getArgument().empty())
      break;
    indices.try_emplace(pass.getArgument(), index++);
  }
  return indices;
}

json::Array executor_studio::lsp::getCodeLenses(
    const TextFile &file, const llvm::StringMap<unsigned> &defaultPassIndices) {
  json::Array lenses;
  std::vector<PreviewLens> previews;
  getPreviewLenses(file, previews);
  for (const PreviewLens &lens : previews) {
    json::Object argument{{"uri", file.getURI().uri()},
                          {"chunk", static_cast<int64_t>(lens.chunk)},
                          {"pass", lens.pass}};
    auto index = defaultPassIndices.find(lens.pass);
    if (index != defaultPassIndices.end())
      argument["passIndex"] = static_cast<int64_t>(index->second);
    proto::Range range(proto::Position(lens.line, lens.startColumn),
                       proto::Position(lens.line, lens.endColumn));
    lenses.push_back(json::Object{
        {"range", range},
        {"command",
         json::Object{{"title", lens.title},
                      {"command", kShowPreviewCommand},
                      {"arguments", json::Array{std::move(argument)}}}},
    });
  }
  // Launch each kernel of a dispatched target from the editor.
  for (const auto &chunkPtr : file.getChunks()) {
    const ParsedChunk &chunk = *chunkPtr;
    if (!chunk.valid)
      continue;
    for (Operation &top : chunk.parsedIR)
      top.walk([&](ModuleOp module) {
        if (!catalyst::hasDispatch(module))
          return;
        std::string target = catalyst::getTargetName(module);
        for (auto func : module.getOps<func::FuncOp>()) {
          const auto *def = chunk.asmState.getOpDef(func);
          if (func.isExternal() || !def)
            continue;
          std::string kernel = "@" + target + "::@" + func.getSymName().str();
          proto::Range range = chunk.getRange(def->loc);
          range.end = range.end.line == range.start.line ? range.end
                                                         : range.start;
          lenses.push_back(json::Object{
              {"range", range},
              {"command",
               json::Object{
                   {"title", "Launch " + kernel + " (debug build)"},
                   {"command", kLaunchCommand},
                   {"arguments",
                    json::Array{json::Object{{"uri", file.getURI().uri()},
                                             {"kernel", kernel}}}}}},
          });
        }
      });
  }
  return lenses;
}
