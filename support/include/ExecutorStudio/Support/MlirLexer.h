//===- MlirLexer.h - MLIR tokens without a parser ---------------*- C++ -*-===//
//
// The project's one MLIR lexer: over .mlir text, it never fails. Comments,
// strings, numbers, sigiled identifiers (`%v`, `^bb`, `@sym`, `#attr`,
// `!type`), bare words and brackets, each with its line and byte column.
// Every front end that needs tokens uses it, so that they also work on text
// that does not parse: the language server (semantic tokens, folding,
// formatting, rename, completion, kernels) and the studio (colouring, SSA
// normalisation, hiding locations). MLIR's own lexer (mlir/lib/AsmParser)
// is private to its parser.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_MLIRLEXER_H
#define EXECUTORSTUDIO_SUPPORT_MLIRLEXER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace executor_studio {

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

/// Whether `c` continues an MLIR identifier (a bare word, an op name or the
/// name after a sigil): a letter, a digit or one of `_$.-`.
bool isIdentifierChar(char c);

/// The end of the string literal whose opening quote is at `quote`: the
/// index after its closing quote, or where the line (or text) ends.
size_t skipString(llvm::StringRef text, size_t quote);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_MLIRLEXER_H
