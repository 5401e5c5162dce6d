//===- ExecutorDialect.h - executor dialect and types -----------*- C++ -*-===//
#ifndef EXECUTORSTUDIO_EXECUTOR_IR_EXECUTORDIALECT_H
#define EXECUTORSTUDIO_EXECUTOR_IR_EXECUTORDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Types.h"

#include "ExecutorStudio/Executor/IR/ExecutorDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ExecutorStudio/Executor/IR/ExecutorTypes.h.inc"

#endif // EXECUTORSTUDIO_EXECUTOR_IR_EXECUTORDIALECT_H
