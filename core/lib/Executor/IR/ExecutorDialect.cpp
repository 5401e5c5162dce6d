//===- ExecutorDialect.cpp - executor dialect -------------------*- C++ -*-===//
#include "ExecutorStudio/Executor/IR/ExecutorDialect.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace catalyst::executor;

#include "ExecutorStudio/Executor/IR/ExecutorDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ExecutorStudio/Executor/IR/ExecutorTypes.cpp.inc"

void ExecutorDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ExecutorStudio/Executor/IR/ExecutorTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ExecutorStudio/Executor/IR/ExecutorOps.cpp.inc"
      >();
}
