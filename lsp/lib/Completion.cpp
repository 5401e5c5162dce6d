//===- Completion.cpp - textDocument/completion -----------------*- C++ -*-===//
#include "ExecutorLsp/Completion.h"

#include "ExecutorLsp/Kernels.h"
#include "ExecutorLsp/OpDocumentation.h"
#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"

#include "ExecutorStudio/Support/MlirLexer.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/AsmParser/CodeComplete.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio;
using namespace executor_studio::lsp;

namespace {
/// The discardable attributes of the catalyst dialect that the passes read.
struct CatalystAttribute {
  StringRef name;
  StringRef snippet;
  StringRef documentation;
};
constexpr CatalystAttribute kCatalystAttributes[] = {
    {"catalyst.target", "catalyst.target = {$1}",
     "On a nested `builtin.module`: `cross-compile-targets` compiles it on its "
     "own to `{workspace}/{name}/{name}.o`. Optional fields: `triple = "
     "\"...\"` (default: the host's) and `pipeline = \"...\"` (default: "
     "bufferization and the lowering to LLVM)."},
    {"catalyst.dispatch", "catalyst.dispatch = {address = \"${1:host:port}\"}",
     "On a `catalyst.target` module: `dispatch-executor-targets` ships its "
     "object to the executor at `address` and turns the launches into it "
     "into `executor.launch`."},
    {"catalyst.nonblocking", "catalyst.nonblocking",
     "On a `catalyst.launch_kernel` into a dispatched target: dispatch it "
     "with `executor.launch_async` + `executor.await` (the entry must be "
     "`() -> ()`)."},
    {"catalyst.object_file", "catalyst.object_file = \"$1\"",
     "Written by `cross-compile-targets` on a target module: the path of "
     "its object."},
    {"catalyst.object_files", "catalyst.object_files = [$1]",
     "Written by `cross-compile-targets` on the root module: the objects of "
     "local targets, for the linker."},
};

class CompletionContext : public AsmParserCodeCompleteContext {
public:
  CompletionContext(SMLoc loc, proto::CompletionList &list, MLIRContext *ctx)
      : AsmParserCodeCompleteContext(loc), list(list), ctx(ctx) {}

  void completeDialectName(StringRef prefix) final {
    for (StringRef dialect : ctx->getAvailableDialects()) {
      proto::CompletionItem item(prefix + dialect,
                                 proto::CompletionItemKind::Module, "3");
      item.detail = "dialect";
      list.items.push_back(std::move(item));
    }
  }
  using AsmParserCodeCompleteContext::completeDialectName;

  void completeOperationName(StringRef dialectName) final {
    Dialect *dialect = ctx->getOrLoadDialect(dialectName);
    if (!dialect)
      return;
    for (RegisteredOperationName op : ctx->getRegisteredOperations()) {
      if (&op.getDialect() != dialect)
        continue;
      proto::CompletionItem item(
          op.getStringRef().drop_front(dialectName.size() + 1),
          proto::CompletionItemKind::Field, "1");
      item.detail = "operation";
      if (const OpDocumentation *doc =
              lookupOpDocumentation(op.getStringRef())) {
        if (!doc->summary.empty())
          item.detail = doc->summary;
        proto::MarkupContent content;
        content.kind = proto::MarkupKind::Markdown;
        content.value = "**`" + doc->name + "`**\n\n" + doc->description;
        if (const std::string *lowering =
                lookupRuntimeLowering(op.getStringRef()))
          content.value += "\n\n**Lowers to**: " + *lowering;
        item.documentation = std::move(content);
      }
      list.items.push_back(std::move(item));
    }
  }

  void appendSSAValueCompletion(StringRef name, std::string typeData) final {
    bool stripPrefix = getCodeCompleteLoc().getPointer()[-1] == '%';
    proto::CompletionItem item(name, proto::CompletionItemKind::Variable);
    if (stripPrefix)
      item.insertText = name.drop_front().str();
    item.detail = std::move(typeData);
    list.items.push_back(std::move(item));
  }

  void appendBlockCompletion(StringRef name) final {
    bool stripPrefix = getCodeCompleteLoc().getPointer()[-1] == '^';
    proto::CompletionItem item(name, proto::CompletionItemKind::Field);
    if (stripPrefix)
      item.insertText = name.drop_front().str();
    list.items.push_back(std::move(item));
  }

  void completeExpectedTokens(ArrayRef<StringRef> tokens, bool optional) final {
    for (StringRef token : tokens) {
      proto::CompletionItem item(token, proto::CompletionItemKind::Keyword,
                                 "0");
      item.detail = optional ? "optional" : "";
      list.items.push_back(std::move(item));
    }
  }

  void completeAttribute(const llvm::StringMap<Attribute> &aliases) final {
    for (StringRef name :
         {"affine_map", "affine_set", "dense", "dense_resource", "false", "loc",
          "sparse", "true", "unit"})
      list.items.emplace_back(name, proto::CompletionItemKind::Field, "1");
    completeDialectName("#");
    completeAliases(aliases, "#");
  }
  void completeDialectAttributeOrAlias(
      const llvm::StringMap<Attribute> &aliases) final {
    completeDialectName();
    completeAliases(aliases);
  }

  void completeType(const llvm::StringMap<Type> &aliases) final {
    for (StringRef name :
         {"memref", "tensor", "complex", "tuple", "vector", "bf16", "f16",
          "f32", "f64", "f80", "f128", "index", "none"})
      list.items.emplace_back(name, proto::CompletionItemKind::Field, "1");
    for (StringRef prefix : {"i", "si", "ui"}) {
      proto::CompletionItem item(prefix + "<N>",
                                 proto::CompletionItemKind::Field, "1");
      item.insertText = prefix.str();
      list.items.push_back(std::move(item));
    }
    // The executor dialect's handles.
    for (StringRef name : {"!executor.session", "!executor.token"}) {
      proto::CompletionItem item(name, proto::CompletionItemKind::Class, "0");
      item.detail = "executor type";
      list.items.push_back(std::move(item));
    }
    completeDialectName("!");
    completeAliases(aliases, "!");
  }
  void completeDialectTypeOrAlias(const llvm::StringMap<Type> &aliases) final {
    // After `!`.
    for (StringRef name : {"executor.session", "executor.token"}) {
      proto::CompletionItem item(name, proto::CompletionItemKind::Class, "0");
      item.detail = "executor type";
      list.items.push_back(std::move(item));
    }
    completeDialectName();
    completeAliases(aliases);
  }

private:
  template <typename T>
  void completeAliases(const llvm::StringMap<T> &aliases,
                       StringRef prefix = "") {
    for (const auto &alias : aliases) {
      proto::CompletionItem item(prefix + alias.getKey(),
                                 proto::CompletionItemKind::Field, "2");
      llvm::raw_string_ostream(item.detail) << "alias: " << alias.getValue();
      list.items.push_back(std::move(item));
    }
  }

  proto::CompletionList &list;
  MLIRContext *ctx;
};

/// Whether the word that ends at `loc` names a discardable attribute: it
/// follows `,` or a `{` on the same line (a region's `{` ends its line).
bool isAttributeNamePosition(StringRef buffer, const char *wordStart) {
  const char *p = wordStart;
  bool sawNewline = false;
  while (p > buffer.begin()) {
    char c = p[-1];
    if (c == '\n')
      sawNewline = true;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      return c == ',' || (c == '{' && !sawNewline);
    --p;
  }
  return false;
}

proto::CompletionList getCompletionAt(const ParsedChunk &chunk, SMLoc loc,
                                      MLIRContext &context) {
  proto::CompletionList list;
  if (!loc.isValid() || !chunk.reparsable)
    return list;

  // The parser reports what it expects at `loc`; parse again with that hook.
  {
    MLIRContext tmpContext(context.getDialectRegistry(),
                           MLIRContext::Threading::DISABLED);
    tmpContext.allowUnregisteredDialects();
    tmpContext.printOpOnDiagnostic(false);
    ScopedDiagnosticHandler silence(&tmpContext,
                                    [](Diagnostic &) { return success(); });
    CompletionContext completion(loc, list, &tmpContext);
    Block tmpIR;
    AsmParserState tmpState;
    ParserConfig config(&tmpContext, /*verifyAfterParse=*/false);
    (void)parseAsmSourceFile(chunk.sourceMgr, &tmpIR, config, &tmpState,
                             &completion);
  }

  // The entries of the module in a callee `@module::@` being typed.
  completeKernelEntries(chunk, loc, context.getDialectRegistry(), list);

  // Attribute names are no tokens of the grammar: find them by their place.
  StringRef buffer = chunk.getBuffer();
  const char *end = loc.getPointer();
  const char *start = end;
  while (start > buffer.begin() && isIdentifierChar(start[-1]))
    --start;
  StringRef word(start, end - start);
  if (StringRef("catalyst.").starts_with(word) ||
      word.starts_with("catalyst.")) {
    if (isAttributeNamePosition(buffer, start)) {
      proto::Range replace(chunk.getPosition(SMLoc::getFromPointer(start)),
                           chunk.getPosition(loc));
      for (const CatalystAttribute &attr : kCatalystAttributes) {
        if (!attr.name.starts_with(word))
          continue;
        proto::CompletionItem item(attr.name,
                                   proto::CompletionItemKind::Property, "0");
        item.detail = "catalyst attribute";
        item.documentation = proto::MarkupContent{proto::MarkupKind::Markdown,
                                                  attr.documentation.str()};
        item.insertTextFormat = proto::InsertTextFormat::Snippet;
        item.textEdit = proto::TextEdit{replace, attr.snippet.str()};
        item.filterText = attr.name.str();
        list.items.push_back(std::move(item));
      }
    }
  }
  return list;
}
} // namespace

proto::CompletionList
executor_studio::lsp::getCodeCompletion(const TextFile &file,
                                        const proto::Position &pos) {
  const ParsedChunk &chunk = file.getChunkFor(pos);
  return getCompletionAt(chunk, chunk.getLoc(pos), file.getContext());
}
