//===- Kernels.cpp - the entries a catalyst.launch_kernel calls -*- C++ -*-===//
#include "ExecutorLsp/Kernels.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorStudio/Support/MlirLexer.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace executor_studio;
using namespace executor_studio::lsp;

namespace {
/// Whether `module` is where launches go: a target, or dispatched.
bool isKernelModule(ModuleOp module) {
  return module && (catalyst::isTarget(module) || catalyst::hasDispatch(module));
}

/// Where the kernels of `module` run, in a sentence.
void describePlacement(llvm::raw_ostream &os, ModuleOp module) {
  os << "Runs on target `@" << catalyst::getTargetName(module) << "`";
  if (catalyst::isTarget(module)) {
    std::optional<catalyst::TargetInfo> info = catalyst::getTarget(module);
    if (info && info->triple)
      os << ", compiled for `" << *info->triple << "`";
    else
      os << ", compiled for the host's triple (`"
         << llvm::sys::getDefaultTargetTriple() << "` here)";
    os << " by `cross-compile-targets`";
  } else if (std::optional<std::string> object =
                 catalyst::getObjectFile(module)) {
    os << ", from the object `" << *object << "` (compiled elsewhere)";
  }
  if (std::optional<std::string> address =
          catalyst::getDispatchAddress(module)) {
    os << "; `dispatch-executor-targets` ships it to the executor at `"
       << *address << "`, where each launch runs";
    StringRef port = StringRef(*address).rsplit(':').second;
    if (!port.empty() && !llvm::all_of(port, llvm::isDigit))
      os << " (a placeholder: `EXECUTOR_ADDRESS_MAP` names the real address "
            "when the program runs)";
    os << ".";
  } else if (catalyst::hasDispatch(module)) {
    os << "; its `catalyst.dispatch` has no valid address.";
  } else {
    os << "; linked into the host program (no `catalyst.dispatch`): a launch "
          "is a local call.";
  }
}

/// The text of `module @name ... { ... }` in `buffer` (comments and
/// strings skipped by the scanner).
std::optional<StringRef> findModuleText(StringRef buffer, StringRef name) {
  std::vector<ScannedToken> tokens;
  scanTokens(buffer, [&](const ScannedToken &token) {
    if (token.kind != ScannedToken::Kind::Comment)
      tokens.push_back(token);
  });
  /// The index past the bracket that closes the `{` at `open`.
  auto closing = [&](size_t open) -> std::optional<size_t> {
    int depth = 0;
    for (size_t i = open; i < tokens.size(); ++i) {
      if (tokens[i].kind == ScannedToken::Kind::Open && tokens[i].text == "{")
        ++depth;
      if (tokens[i].kind == ScannedToken::Kind::Close &&
          tokens[i].text == "}" && --depth == 0)
        return i + 1;
    }
    return std::nullopt;
  };
  auto isOpenBrace = [&](size_t i) {
    return i < tokens.size() && tokens[i].kind == ScannedToken::Kind::Open &&
           tokens[i].text == "{";
  };
  std::string symbol = ("@" + name).str();
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != ScannedToken::Kind::BareWord ||
        (tokens[i].text != "module" && tokens[i].text != "builtin.module") ||
        tokens[i + 1].text != symbol)
      continue;
    size_t body = i + 2;
    if (body < tokens.size() && tokens[body].text == "attributes") {
      std::optional<size_t> after =
          isOpenBrace(body + 1) ? closing(body + 1) : std::nullopt;
      if (!after)
        continue;
      body = *after;
    }
    std::optional<size_t> end = isOpenBrace(body) ? closing(body) : std::nullopt;
    if (!end)
      continue;
    const char *begin = tokens[i].text.data();
    StringRef last = tokens[*end - 1].text;
    return StringRef(begin, last.data() + last.size() - begin);
  }
  return std::nullopt;
}

std::string spell(SymbolRefAttr callee) {
  return ("@" + callee.getRootReference().getValue() + "::@" +
          callee.getLeafReference().getValue())
      .str();
}

/// Where the callee `@root::@leaf` of the launch is written.
std::optional<SMRange> findCalleeText(const ParsedChunk &chunk,
                                      catalyst::LaunchKernelOp launch) {
  const AsmParserState::OperationDefinition *def =
      chunk.asmState.getOpDef(launch);
  if (!def)
    return std::nullopt;
  std::string written = spell(launch.getCallee());
  StringRef text = ParsedChunk::getText(def->scopeLoc);
  size_t at = text.find(written);
  if (at == StringRef::npos)
    return std::nullopt;
  const char *start = text.data() + at;
  return SMRange(SMLoc::getFromPointer(start),
                 SMLoc::getFromPointer(start + written.size()));
}
} // namespace

ModuleOp
executor_studio::lsp::getLaunchTarget(catalyst::LaunchKernelOp launch) {
  if (!launch.getCalleeFunction())
    return nullptr;
  ModuleOp module = launch.getCalleeModule();
  return module && catalyst::isTarget(module) ? module : nullptr;
}

bool executor_studio::lsp::describeKernel(llvm::raw_ostream &os,
                                          Operation *op) {
  auto function = dyn_cast<FunctionOpInterface>(op);
  auto module = dyn_cast_or_null<ModuleOp>(op->getParentOp());
  if (!function || !isKernelModule(module))
    return false;
  os << "**Kernel** `@" << catalyst::getTargetName(module) << "::@"
     << function.getName() << "`: `" << function.getFunctionType()
     << "`\n\n";
  describePlacement(os, module);
  os << "\n";
  return true;
}

void executor_studio::lsp::completeKernelEntries(
    const ParsedChunk &chunk, SMLoc loc, const DialectRegistry &registry,
    proto::CompletionList &list) {
  StringRef buffer = chunk.getBuffer();
  const char *end = loc.getPointer();
  if (!end || end < buffer.begin() || end > buffer.end())
    return;
  const char *start = end;
  while (start > buffer.begin() && isIdentifierChar(start[-1]))
    --start;
  StringRef before(buffer.begin(), start - buffer.begin());
  if (!before.consume_back("::@"))
    return;
  size_t nameStart = before.size();
  while (nameStart > 0 && isIdentifierChar(before[nameStart - 1]))
    --nameStart;
  if (nameStart == 0 || nameStart == before.size() ||
      before[nameStart - 1] != '@')
    return;
  std::optional<StringRef> text =
      findModuleText(buffer, before.drop_front(nameStart));
  if (!text)
    return;

  // Parse the module on its own: the text being typed does not parse.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  Block block;
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  // A slice of the document: copied, so that the lexer ends at its NUL
  // instead of reading on into the rest of the document.
  std::string moduleText = text->str();
  if (failed(parseSourceString(moduleText, &block, config)) || block.empty())
    return;
  auto module = dyn_cast<ModuleOp>(block.front());
  if (!module)
    return;
  proto::Range replace(chunk.getPosition(SMLoc::getFromPointer(start)),
                       chunk.getPosition(loc));
  for (auto function : module.getBody()->getOps<FunctionOpInterface>()) {
    proto::CompletionItem item(function.getName(),
                               proto::CompletionItemKind::Function, "0");
    llvm::raw_string_ostream(item.detail) << function.getFunctionType();
    proto::MarkupContent doc;
    doc.kind = proto::MarkupKind::Markdown;
    llvm::raw_string_ostream os(doc.value);
    describeKernel(os, function);
    item.documentation = std::move(doc);
    item.textEdit = proto::TextEdit{replace, function.getName().str()};
    item.filterText = function.getName().str();
    list.items.push_back(std::move(item));
  }
}

void executor_studio::lsp::getKernelSpellingFixes(const ParsedChunk &chunk,
                                                  Operation *op,
                                                  std::vector<FixIt> &fixes) {
  auto launch = dyn_cast<catalyst::LaunchKernelOp>(op);
  if (!launch)
    return;
  // The verifier's "did you mean" (CatalystOps.h), as edits.
  SmallVector<SymbolRefAttr> suggestions = catalyst::suggestCallees(launch);
  std::optional<SMRange> range = findCalleeText(chunk, launch);
  if (!range)
    return;
  for (SymbolRefAttr s : suggestions)
    fixes.push_back({"Change the callee to " + spell(s),
                     {proto::TextEdit{chunk.getRange(*range), spell(s)}},
                     suggestions.size() == 1});
}
