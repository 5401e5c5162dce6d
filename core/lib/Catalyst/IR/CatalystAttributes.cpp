//===- CatalystAttributes.cpp - typed access to catalyst.* attrs -*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace catalyst {

bool isTarget(Operation *op) { return op->hasAttr(attrs::kTarget); }

std::optional<TargetInfo> getTarget(Operation *op) {
  Attribute attr = op->getAttr(attrs::kTarget);
  if (!attr)
    return std::nullopt;
  TargetInfo info;
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    if (auto triple = dict.getAs<StringAttr>("triple"))
      info.triple = triple.getValue().str();
    if (auto pipeline = dict.getAs<StringAttr>("pipeline"))
      info.pipeline = pipeline.getValue().str();
    if (auto debug = dict.getAs<BoolAttr>("debug"))
      info.debug = debug.getValue();
  }
  return info;
}

bool hasDispatch(Operation *op) { return op->hasAttr(attrs::kDispatch); }

std::optional<std::string> getDispatchAddress(Operation *op) {
  auto dict = op->getAttrOfType<DictionaryAttr>(attrs::kDispatch);
  if (!dict)
    return std::nullopt;
  auto address = dict.getAs<StringAttr>("address");
  if (!address)
    return std::nullopt;
  return address.getValue().str();
}

void setDispatchAddress(Operation *op, StringRef address) {
  Builder b(op->getContext());
  op->setAttr(attrs::kDispatch,
              b.getDictionaryAttr(b.getNamedAttr(
                  "address", b.getStringAttr(address))));
}

std::optional<std::string> getObjectFile(Operation *op) {
  auto path = op->getAttrOfType<StringAttr>(attrs::kObjectFile);
  if (!path)
    return std::nullopt;
  return path.getValue().str();
}

void setObjectFile(Operation *op, StringRef path) {
  op->setAttr(attrs::kObjectFile, StringAttr::get(op->getContext(), path));
}

SmallVector<std::string> getObjectFiles(Operation *op) {
  SmallVector<std::string> files;
  if (auto array = op->getAttrOfType<ArrayAttr>(attrs::kObjectFiles))
    for (auto path : array.getAsValueRange<StringAttr>())
      files.push_back(path.str());
  return files;
}

void appendObjectFile(Operation *op, StringRef path) {
  SmallVector<Attribute> files;
  if (auto array = op->getAttrOfType<ArrayAttr>(attrs::kObjectFiles))
    llvm::append_range(files, array.getValue());
  auto entry = StringAttr::get(op->getContext(), path);
  if (llvm::is_contained(files, entry))
    return;
  files.push_back(entry);
  op->setAttr(attrs::kObjectFiles, ArrayAttr::get(op->getContext(), files));
}

bool isNonblocking(Operation *op) { return op->hasAttr(attrs::kNonblocking); }

std::string getTargetName(ModuleOp module) {
  if (std::optional<StringRef> name = module.getSymName())
    return name->str();
  return "unnamed";
}

std::string getTargetObjectPath(StringRef workspace, StringRef name) {
  SmallString<256> path(workspace);
  llvm::sys::path::append(path, name, name + ".o");
  return std::string(path);
}

SmallVector<std::string> collectExecutorAddresses(Operation *root) {
  SmallVector<std::string> addresses;
  root->walk([&](ModuleOp module) {
    if (module == root)
      return;
    if (std::optional<std::string> address = getDispatchAddress(module))
      if (!address->empty() && !llvm::is_contained(addresses, *address))
        addresses.push_back(*address);
  });
  return addresses;
}

FailureOr<std::string> resolveDispatch(Operation *op, StringRef dispatch,
                                       ArrayRef<std::string> executors,
                                       StringRef attrName) {
  if (!dispatch.empty())
    return dispatch.str();
  if (executors.empty()) {
    op->emitOpError("has an empty ")
        << attrName
        << " but the program has no executor address: write " << attrName
        << " = \"host:port\", or give a dispatched module "
           "catalyst.dispatch = {address = \"host:port\"}";
    return failure();
  }
  if (executors.size() > 1) {
    auto diag = op->emitOpError("has an empty ")
                << attrName << ", an ambiguous executor: the program has "
                << executors.size() << " executors (";
    llvm::interleaveComma(executors, diag,
                          [&](const std::string &a) { diag << a; });
    diag << "); write the address in " << attrName;
    return failure();
  }
  return executors.front();
}

} // namespace catalyst
