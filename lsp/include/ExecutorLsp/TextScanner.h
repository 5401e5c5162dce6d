//===- TextScanner.h - MLIR tokens without a parser -------------*- C++ -*-===//
//
// A lexer over .mlir text that never fails: comments, strings, numbers,
// sigiled identifiers (`%v`, `^bb`, `@sym`, `#attr`, `!type`), bare words and
// brackets, each with its line and byte column. Semantic tokens and folding
// ranges use it so that they also work on text that does not parse.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_TEXTSCANNER_H
#define EXECUTORLSP_TEXTSCANNER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace executor_studio {
namespace lsp {

struct ScannedToken {
  enum class Kind {
    Comment,        // `// ...` to the end of the line
    String,         // "..." (a line at most)
    Number,         // 42, -1.5e3, 0x1F
    ValueId,        // %name, %name#1
    BlockId,        // ^bb0
    SymbolRef,      // @name, @"quoted"
    AttributeAlias, // #name (dialect attributes and aliases)
    TypeAlias,      // !name (dialect types and aliases)
    BareWord,       // identifiers and keywords, dotted op names included
    Open,           // { ( [ <
    Close,          // } ) ] >
    Punctuation,    // everything else that is not white space
  };
  Kind kind;
  /// The token's text (a view into the scanned text).
  llvm::StringRef text;
  /// 0-based line and byte column of its start within the scanned text.
  unsigned line = 0, column = 0;
};

/// Calls `callback` for each token of `text`, in order. A `->` is one
/// Punctuation token; `<` and `>` count as brackets only where they are no
/// part of `->`.
void scanTokens(llvm::StringRef text,
                llvm::function_ref<void(const ScannedToken &)> callback);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_TEXTSCANNER_H
