//===- ParseDocument.h - a document's text as IR, for the model -*- C++ -*-===//
#ifndef STUDIOMODEL_LIB_PARSEDOCUMENT_H
#define STUDIOMODEL_LIB_PARSEDOCUMENT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <string_view>

namespace executor_studio::gui {
/// `source` (named `bufferName`) parsed in `ctx`; null with the first error
/// (or "the document does not parse") in `error` when it does not parse.
mlir::OwningOpRef<mlir::ModuleOp> parseDocument(mlir::MLIRContext &ctx,
                                                std::string_view source,
                                                std::string_view bufferName,
                                                std::string &error);
} // namespace executor_studio::gui

#endif // STUDIOMODEL_LIB_PARSEDOCUMENT_H
