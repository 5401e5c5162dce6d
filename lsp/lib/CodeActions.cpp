//===- CodeActions.cpp - textDocument/codeAction ----------------*- C++ -*-===//
#include "ExecutorLsp/CodeActions.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/SourceRanges.h"
#include "ExecutorLsp/TargetTripleActions.h"
#include "ExecutorLsp/TextFile.h"
#include "ExecutorLsp/VerifierFixIts.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;
using llvm::StringRef;

namespace {
/// The op a diagnostic is attached to: the one whose name starts where the
/// diagnostic does (the parser gives an op the location of its name).
Operation *findDiagnosedOp(const ParsedChunk &chunk,
                           const proto::Diagnostic &diag) {
  SMLoc loc = chunk.getLoc(diag.range.start);
  if (!loc.isValid() || !chunk.hasParserState())
    return nullptr;
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs())
    if (op.loc.Start == loc)
      return op.op;
  // The server's own notes on an op are on a part of it: the innermost op
  // that holds them.
  if (diag.source != "executor-lsp")
    return nullptr;
  Operation *innermost = nullptr;
  for (const AsmParserState::OperationDefinition &op :
       chunk.asmState.getOpDefs())
    if (rangeContains(op.scopeLoc, loc) &&
        (!innermost || innermost->isProperAncestor(op.op)))
      innermost = op.op;
  return innermost;
}

/// `// expected-<severity> @below {{message}}` on the line before `pos`,
/// indented as that line.
void addExpectedLine(const ParsedChunk &chunk, const proto::Position &pos,
                     StringRef severity, StringRef message,
                     std::vector<proto::TextEdit> &edits) {
  SMLoc lineStart = chunk.getLoc(proto::Position(pos.line, 0));
  if (!lineStart.isValid())
    return;
  StringRef rest(lineStart.getPointer(),
                 chunk.getBuffer().end() - lineStart.getPointer());
  StringRef line = rest.take_until([](char c) { return c == '\n'; });
  size_t indent = line.find_first_not_of(" \t");
  if (indent == StringRef::npos)
    indent = line.size();
  proto::TextEdit edit;
  edit.range = proto::Range(proto::Position(pos.line, 0));
  llvm::raw_string_ostream os(edit.newText);
  os << line.take_front(indent) << "// expected-" << severity << " @below {{"
     << message << "}}\n";
  edits.push_back(std::move(edit));
}
} // namespace

void executor_studio::lsp::getCodeActions(
    const TextFile &file, llvm::ArrayRef<proto::Diagnostic> diagnostics,
    std::vector<proto::CodeAction> &actions) {
  const proto::URIForFile &uri = file.getURI();
  for (const proto::Diagnostic &diag : diagnostics) {
    const ParsedChunk &chunk = file.getChunkFor(diag.range.start);

    // The verifier's (or the pass's) fix for what it reports.
    if (Operation *op = findDiagnosedOp(chunk, diag)) {
      std::vector<FixIt> fixes;
      getVerifierFixIts(chunk, op, fixes);
      for (FixIt &fix : fixes) {
        proto::CodeAction action;
        action.title = std::move(fix.title);
        action.kind = proto::CodeAction::kQuickFix.str();
        action.isPreferred = fix.preferred;
        action.diagnostics = {diag};
        action.edit.emplace();
        action.edit->changes[uri.uri().str()] = std::move(fix.edits);
        actions.push_back(std::move(action));
      }
    }

    // The expected-* lines of a -verify-diagnostics test: for the parser's
    // and the verifier's diagnostics, as mlir-lsp-server.
    if (diag.source != "mlir")
      continue;
    StringRef severity;
    switch (diag.severity) {
    case proto::DiagnosticSeverity::Error:
      severity = "error";
      break;
    case proto::DiagnosticSeverity::Warning:
      severity = "warning";
      break;
    case proto::DiagnosticSeverity::Information:
      severity = "remark";
      break;
    default:
      continue;
    }
    std::vector<proto::TextEdit> edits;
    addExpectedLine(chunk, diag.range.start, severity, diag.message, edits);
    if (diag.relatedInformation)
      for (const proto::DiagnosticRelatedInformation &note :
           *diag.relatedInformation)
        if (note.location.uri == uri &&
            &file.getChunkFor(note.location.range.start) == &chunk)
          addExpectedLine(chunk, note.location.range.start, "note",
                          note.message, edits);
    if (edits.empty())
      continue;
    proto::CodeAction action;
    action.title = "Add expected-* diagnostic checks";
    action.kind = proto::CodeAction::kQuickFix.str();
    action.diagnostics = {diag};
    action.edit.emplace();
    action.edit->changes[uri.uri().str()] = std::move(edits);
    actions.push_back(std::move(action));
  }
}

void executor_studio::lsp::getCodeActions(
    const TextFile &file, const proto::CodeActionParams &params,
    std::vector<proto::CodeAction> &actions) {
  auto wanted = [&](StringRef kind) {
    if (params.context.only.empty())
      return true;
    return llvm::any_of(params.context.only, [&](StringRef base) {
      return kind == base || kind.starts_with((base + ".").str());
    });
  };
  if (wanted(proto::CodeAction::kQuickFix))
    getCodeActions(file, params.context.diagnostics, actions);
  // Refactorings where no quick fix is asked about (or when asked for).
  if (wanted(kTargetTripleActionKind) &&
      (!params.context.only.empty() || params.context.diagnostics.empty()))
    getTargetTripleActions(file, params.range, actions);
}
