//===- ExecutorDialect.h - executor dialect and types -----------*- C++ -*-===//
#ifndef EXECUTOR_IR_EXECUTORDIALECT_H
#define EXECUTOR_IR_EXECUTORDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "Executor/IR/ExecutorDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Executor/IR/ExecutorTypes.h.inc"

#endif // EXECUTOR_IR_EXECUTORDIALECT_H
