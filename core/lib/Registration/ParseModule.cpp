//===- ParseModule.cpp - parse a module, keeping argument names -*- C++ -*-===//
//
// The one parse of a source file that executor-compile -g and the studio's
// debug recordings share: the arguments of each func.func keep the names
// they are written with, which the kernels' debug variables take
// (Transforms/DebugVariables.h), so that a debugger shows `x`, not `arg0`.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Registration/TextEntryPoints.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

OwningOpRef<ModuleOp>
executor_studio::parseModule(llvm::SourceMgr &sourceMgr,
                             const ParserConfig &config,
                             bool keepArgumentNames) {
  if (!keepArgumentNames)
    return parseSourceFile<ModuleOp>(sourceMgr, config);
  MLIRContext *ctx = config.getContext();
  AsmParserState state;
  Block block;
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return nullptr;
  for (const AsmParserState::BlockDefinition &def : state.getBlockDefs()) {
    if (!def.block->isEntryBlock() ||
        !isa_and_nonnull<func::FuncOp>(def.block->getParentOp()))
      continue;
    for (auto [arg, argDef] :
         llvm::zip(def.block->getArguments(), def.arguments)) {
      StringRef name(argDef.loc.Start.getPointer(),
                     argDef.loc.End.getPointer() -
                         argDef.loc.Start.getPointer());
      name = name.take_front(name.find_first_of("#:"));
      // `%x` is a name; `%0` is a number the printer would give it anyway.
      if (name.consume_front("%") && !name.empty() &&
          !llvm::all_of(name, llvm::isDigit))
        arg.setLoc(NameLoc::get(StringAttr::get(ctx, name), arg.getLoc()));
    }
  }
  unsigned id = sourceMgr.getMainFileID();
  Location fileLoc = FileLineColLoc::get(
      ctx, sourceMgr.getMemoryBuffer(id)->getBufferIdentifier(), 0, 0);
  return detail::constructContainerOpForParserIfNecessary<ModuleOp>(
      &block, ctx, fileLoc);
}
