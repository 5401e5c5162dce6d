//===- executor-opt.cpp - mlir-opt with the executor dialects ---*- C++ -*-===//
#include "Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  executor_studio::registerAllDialects(registry);
  executor_studio::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Executor Studio optimizer driver\n", registry));
}
