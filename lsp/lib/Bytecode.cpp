//===- Bytecode.cpp - mlir/convertFromBytecode, convertToBytecode ---------===//
#include "ExecutorLsp/Bytecode.h"

#include "ExecutorLsp/DocumentLimits.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace executor_studio::lsp;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<proto::LSPError>(message.str(),
                                           proto::ErrorCode::RequestFailed);
}

static llvm::Expected<std::string>
convertFromBytecodeOnThisStack(llvm::StringRef path,
                               const DialectRegistry &registry,
                               bool allowUnregisteredDialects) {
  uint64_t size = 0;
  if (std::error_code ec = llvm::sys::fs::file_size(path, size))
    return makeError("cannot read " + path + ": " + ec.message());
  if (size > kParseLimitBytes)
    return makeError(llvm::formatv("{0} is {1} MiB: executor-lsp-server "
                                   "converts files up to {2} MiB; run "
                                   "executor-opt {0} on it",
                                   path, size >> 20, kParseLimitBytes >> 20));
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(allowUnregisteredDialects);
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(errors);
    os << (errors.empty() ? "" : "; ") << diag.getLocation() << ": "
       << diag.str();
    return success();
  });
  FallbackAsmResourceMap resources;
  ParserConfig config(&context, /*verifyAfterParse=*/true, &resources);
  Block block;
  if (failed(parseSourceFile(path, &block, config)))
    return makeError("cannot read " + path + " as MLIR: " + errors);
  if (!llvm::hasSingleElement(block))
    return makeError(path + " holds " +
                     llvm::Twine(block.getOperations().size()) +
                     " top-level ops; a bytecode file in the editor holds one");
  // Print the op on its own, so that its aliases are printed too.
  OwningOpRef<Operation *> top = &block.front();
  top->remove();
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmState state(*top, OpPrintingFlags().enableDebugInfo().assumeVerified(),
                 /*locationMap=*/nullptr, &resources);
  top->print(os, state);
  os << "\n";
  return text;
}

llvm::Expected<std::string>
executor_studio::lsp::convertToBytecode(const TextFile &file) {
  llvm::ArrayRef<std::unique_ptr<ParsedChunk>> chunks = file.getChunks();
  if (chunks.size() != 1)
    return makeError(llvm::formatv("the document has {0} `// -----` chunks; "
                                   "bytecode holds one: remove the markers",
                                   chunks.size()));
  ParsedChunk &chunk = *chunks.front();
  if (!chunk.valid || chunk.parsedIR.empty())
    return makeError("the document has errors (see its diagnostics); fix "
                     "them before saving it as bytecode");
  if (!llvm::hasSingleElement(chunk.parsedIR))
    return makeError(llvm::formatv("the document has {0} top-level ops; "
                                   "bytecode holds one (wrap them in a "
                                   "module)",
                                   chunk.parsedIR.getOperations().size()));
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  BytecodeWriterConfig config(chunk.fallbackResourceMap);
  if (failed(writeBytecodeToFile(&chunk.parsedIR.front(), os, config)))
    return makeError("MLIR's bytecode writer failed on the document");
  return llvm::encodeBase64(bytes);
}

llvm::Expected<std::string>
executor_studio::lsp::convertFromBytecode(llvm::StringRef path,
                                          const DialectRegistry &registry,
                                          bool allowUnregisteredDialects) {
  // Reading and printing recurse once per nesting level.
  std::optional<llvm::Expected<std::string>> text;
  runOnParserStack([&] {
    text.emplace(convertFromBytecodeOnThisStack(path, registry,
                                                allowUnregisteredDialects));
  });
  return std::move(*text);
}
