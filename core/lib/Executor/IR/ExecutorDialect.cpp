//===- ExecutorDialect.cpp - executor dialect -------------------*- C++ -*-===//
#include "Executor/IR/ExecutorDialect.h"
#include "Executor/IR/ExecutorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace catalyst::executor;

#include "Executor/IR/ExecutorDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Executor/IR/ExecutorTypes.cpp.inc"

void ExecutorDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Executor/IR/ExecutorTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Executor/IR/ExecutorOps.cpp.inc"
      >();
}
