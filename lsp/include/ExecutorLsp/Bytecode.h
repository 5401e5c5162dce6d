//===- Bytecode.h - mlir/convertFromBytecode, convertToBytecode -*- C++ -*-===//
//
// MLIR bytecode files (.mlirbc) in the editor, as vscode-mlir shows them: the
// client asks for a file's text to edit, and for the bytecode of an open
// document to save (base64, as mlir-lsp-server answers).
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_BYTECODE_H
#define EXECUTORLSP_BYTECODE_H

#include "ExecutorLsp/Forward.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace executor_studio {
namespace lsp {

/// The text of the bytecode (or textual) file at `path`, printed with its
/// locations (`loc(...)`) so that saving it again loses nothing. It must
/// hold one top-level op. Runs on the parser's stack (DocumentLimits.h).
llvm::Expected<std::string>
convertFromBytecode(llvm::StringRef path, const mlir::DialectRegistry &registry,
                    bool allowUnregisteredDialects);

/// The bytecode of the open document, base64-encoded. It must be one chunk
/// (no `// -----`) of one top-level op, without errors.
llvm::Expected<std::string> convertToBytecode(const TextFile &file);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_BYTECODE_H
