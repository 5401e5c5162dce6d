//===- CatalystDialect.cpp - the catalyst subset ----------------*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystDialect.h"
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace catalyst;

#include "ExecutorStudio/Catalyst/IR/CatalystDialect.cpp.inc"

void CatalystDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ExecutorStudio/Catalyst/IR/CatalystOps.cpp.inc"
      >();
}

static LogicalResult verifyTargetAttr(Operation *op, Attribute value) {
  if (!isa<ModuleOp>(op) || !op->getParentOp())
    return op->emitOpError("carries '")
           << attrs::kTarget
           << "', which belongs on a nested builtin.module only";
  if (isa<UnitAttr>(value))
    return success();
  auto dict = dyn_cast<DictionaryAttr>(value);
  if (!dict)
    return op->emitOpError("'")
           << attrs::kTarget
           << "' must be a dictionary {triple = \"...\", pipeline = \"...\", "
              "debug = true} (all optional) or a unit attribute";
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    if (key != "triple" && key != "pipeline" && key != "debug")
      return op->emitOpError("'")
             << attrs::kTarget << "' has unknown key '" << key
             << "'; the keys are 'triple', 'pipeline' and 'debug'";
    if (key == "debug") {
      if (!isa<BoolAttr>(entry.getValue()))
        return op->emitOpError("'")
               << attrs::kTarget
               << "' key 'debug' must be true or false (true compiles the "
                  "target with debug info)";
      continue;
    }
    auto str = dyn_cast<StringAttr>(entry.getValue());
    if (!str)
      return op->emitOpError("'")
             << attrs::kTarget << "' key '" << key << "' must be a string";
    if (str.getValue().empty())
      return op->emitOpError("'")
             << attrs::kTarget << "' key '" << key
             << "' is empty; leave it out to use the default";
  }
  return success();
}

static LogicalResult verifyDispatchAttr(Operation *op, Attribute value) {
  // (Whether the module is nested cannot be told here: the parser verifies
  // the top-level module while it still has a parent.)
  if (!isa<ModuleOp>(op))
    return op->emitOpError("carries '")
           << attrs::kDispatch
           << "', which belongs on a nested builtin.module only";
  auto dict = dyn_cast<DictionaryAttr>(value);
  auto address =
      dict ? dict.getAs<StringAttr>("address") : StringAttr();
  if (!address)
    return op->emitOpError("'")
           << attrs::kDispatch
           << "' must be a dictionary with a string 'address', e.g. "
              "{address = \"127.0.0.1:4711\"}";
  for (NamedAttribute entry : dict)
    if (entry.getName() != "address")
      return op->emitOpError("'")
             << attrs::kDispatch << "' has unknown key '"
             << entry.getName().getValue() << "'; the only key is 'address'";
  std::string problem = executor::validateAddress(address.getValue());
  if (!problem.empty())
    return op->emitOpError("'")
           << attrs::kDispatch << "' address \"" << address.getValue()
           << "\" " << problem;
  // A dispatched module need not carry catalyst.target: Catalyst's
  // cross-compile-targets drops it once the object is written, leaving
  // catalyst.dispatch and catalyst.object_file.
  return success();
}

LogicalResult
CatalystDialect::verifyOperationAttribute(Operation *op,
                                          NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  if (name == attrs::kTarget)
    return verifyTargetAttr(op, value);
  if (name == attrs::kDispatch)
    return verifyDispatchAttr(op, value);
  if (name == attrs::kObjectFile) {
    if (!isa<StringAttr>(value))
      return op->emitOpError("'")
             << attrs::kObjectFile << "' must be a string (the object's path)";
    if (!isa<ModuleOp>(op))
      return op->emitOpError("carries '")
             << attrs::kObjectFile
             << "', which belongs on a nested builtin.module only";
    return success();
  }
  if (name == attrs::kObjectFiles) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array || !llvm::all_of(array, llvm::IsaPred<StringAttr>))
      return op->emitOpError("'")
             << attrs::kObjectFiles << "' must be an array of strings";
    return success();
  }
  if (name == attrs::kNonblocking) {
    if (!isa<UnitAttr>(value))
      return op->emitOpError("'")
             << attrs::kNonblocking << "' must be a unit attribute";
    if (!isa<LaunchKernelOp>(op))
      return op->emitOpError("carries '")
             << attrs::kNonblocking
             << "', which belongs on a catalyst.launch_kernel only";
    return success();
  }
  // Other catalyst.* attributes belong to parts of Catalyst this subset does
  // not model; they pass through untouched.
  return success();
}
