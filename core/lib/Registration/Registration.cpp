//===- Registration.cpp - everything the front ends register ----*- C++ -*-===//
#include "ExecutorStudio/Registration/Registration.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Conversion/Passes.h"
#include "ExecutorStudio/Executor/IR/ExecutorDialect.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

void executor_studio::registerAllDialects(mlir::DialectRegistry &registry) {
  using namespace mlir;
  registry.insert<catalyst::executor::ExecutorDialect,
                  catalyst::CatalystDialect, func::FuncDialect,
                  arith::ArithDialect, math::MathDialect,
                  memref::MemRefDialect, tensor::TensorDialect,
                  bufferization::BufferizationDialect, linalg::LinalgDialect,
                  scf::SCFDialect, cf::ControlFlowDialect, index::IndexDialect,
                  LLVM::LLVMDialect, affine::AffineDialect, ub::UBDialect>();
  catalyst::executor::registerBufferizableOpInterfaceExternalModels(registry);
  catalyst::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void executor_studio::registerAllPasses() {
  using namespace mlir;
  catalyst::registerExecutorStudioPasses();
  catalyst::registerExecutorStudioConversionPasses();
  catalyst::registerExecutorStudioPipelines();
  registerTransformsPasses();
  bufferization::registerBufferizationPasses();
  memref::registerMemRefPasses();
  registerConvertLinalgToLoopsPass();
  registerLowerAffinePass();
  registerSCFToControlFlowPass();
  registerArithToLLVMConversionPass();
  registerConvertMathToLLVMPass();
  registerConvertMathToLibmPass();
  registerConvertIndexToLLVMPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerReconcileUnrealizedCastsPass();
}

const char *executor_studio::getVersionString() {
  return "Executor Studio " EXECUTOR_STUDIO_VERSION " (LLVM " LLVM_VERSION_STRING
         ")";
}

void executor_studio::addVersionPrinter() {
  static bool added = [] {
    llvm::cl::AddExtraVersionPrinter(
        [](llvm::raw_ostream &os) { os << getVersionString() << "\n"; });
    return true;
  }();
  (void)added;
}
