//===- PyfaceWrappers.cpp - _catalyst_pyface_<entry> generation -*- C++ -*-===//
#include "PyfaceWrappers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

LogicalResult catalyst::addPyfaceWrappers(ModuleOp module,
                                          ArrayRef<EntryPoint> entries) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  for (const EntryPoint &entry : entries) {
    std::string ciface = "_mlir_ciface_" + entry.name;
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(ciface);
    if (!callee)
      return module.emitError("entry @")
             << entry.name << " has no " << ciface
             << " after lowering; the target pipeline must lower func.func "
                "with convert-func-to-llvm so llvm.emit_c_interface applies";
    LLVM::LLVMFunctionType calleeType = callee.getFunctionType();
    unsigned numArgs = entry.type.getNumInputs();
    // Results come back through a leading pointer unless the function
    // returns a scalar directly.
    bool resultByPointer = calleeType.getNumParams() == numArgs + 1;
    if (!resultByPointer && calleeType.getNumParams() != numArgs)
      return module.emitError("entry @")
             << entry.name << ": " << ciface << " has "
             << calleeType.getNumParams() << " parameters for " << numArgs
             << " arguments";
    Location loc = callee.getLoc();
    auto wrapper = LLVM::LLVMFuncOp::create(
        b, loc, "_catalyst_pyface_" + entry.name,
        LLVM::LLVMFunctionType::get(voidType, {ptr, ptr}));
    Block *body = wrapper.addEntryBlock(b);
    OpBuilder wb = OpBuilder::atBlockEnd(body);
    Value results = body->getArgument(0);
    Value args = body->getArgument(1);
    SmallVector<Value> operands;
    if (resultByPointer)
      operands.push_back(results);
    unsigned firstParam = resultByPointer ? 1 : 0;
    for (unsigned i = 0; i < numArgs; ++i) {
      Value slot = LLVM::GEPOp::create(wb, loc, ptr, ptr, args,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value argPtr = LLVM::LoadOp::create(wb, loc, ptr, slot);
      Type paramType = calleeType.getParamType(firstParam + i);
      // A memref (or a tensor, which the target bufferizes to one) is
      // passed as its descriptor, which the ciface takes by pointer.
      if (isa<MemRefType, RankedTensorType>(entry.type.getInput(i)))
        operands.push_back(argPtr);
      else
        operands.push_back(LLVM::LoadOp::create(wb, loc, paramType, argPtr));
    }
    auto call = LLVM::CallOp::create(wb, loc, callee, operands);
    if (!resultByPointer && call.getNumResults() == 1)
      LLVM::StoreOp::create(wb, loc, call.getResult(), results);
    LLVM::ReturnOp::create(wb, loc, ValueRange{});
  }
  return success();
}
