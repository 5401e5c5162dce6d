//===- MlirLexer.cpp - MLIR tokens without a parser -------------*- C++ -*-===//
#include "ExecutorStudio/Support/MlirLexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace executor_studio;
using Kind = ScannedToken::Kind;

bool executor_studio::isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

size_t executor_studio::skipString(llvm::StringRef text, size_t quote) {
  size_t p = quote + 1, end = text.size();
  for (; p < end && text[p] != '"' && text[p] != '\n'; ++p)
    if (text[p] == '\\' && p + 1 < end && text[p + 1] != '\n')
      ++p;
  return p < end && text[p] == '"' ? p + 1 : p;
}

void executor_studio::scanTokens(
    llvm::StringRef text,
    llvm::function_ref<void(const ScannedToken &)> callback) {
  const char *begin = text.begin(), *end = text.end();
  const char *cur = begin;
  const char *lineStart = begin;
  unsigned line = 0;
  auto emit = [&](Kind kind, const char *start, const char *stop) {
    ScannedToken token{kind, llvm::StringRef(start, stop - start), line,
                       static_cast<unsigned>(start - lineStart)};
    callback(token);
  };
  // Skips a string that starts at `p` (the quote); stops at the line's end.
  auto skipStringAt = [&](const char *p) {
    return begin + skipString(text, p - begin);
  };
  while (cur < end) {
    char c = *cur;
    if (c == '\n') {
      ++line;
      lineStart = ++cur;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++cur;
      continue;
    }
    const char *start = cur;
    if (c == '/' && cur + 1 < end && cur[1] == '/') {
      while (cur < end && *cur != '\n')
        ++cur;
      emit(Kind::Comment, start, cur);
      continue;
    }
    if (c == '"') {
      cur = skipStringAt(cur);
      emit(Kind::String, start, cur);
      continue;
    }
    if (c == '%' || c == '^' || c == '@' || c == '#' || c == '!') {
      ++cur;
      if (cur < end && *cur == '"' && c == '@') {
        cur = skipStringAt(cur);
      } else {
        while (cur < end && isIdentifierChar(*cur))
          ++cur;
      }
      // `%name#3` names one result of a group.
      if (c == '%' && cur + 1 < end && *cur == '#' && llvm::isDigit(cur[1])) {
        ++cur;
        while (cur < end && llvm::isDigit(*cur))
          ++cur;
      }
      Kind kind = c == '%'   ? Kind::ValueId
                  : c == '^' ? Kind::BlockId
                  : c == '@' ? Kind::SymbolRef
                  : c == '#' ? Kind::AttributeAlias
                             : Kind::TypeAlias;
      if (cur == start + 1)
        kind = Kind::Punctuation;
      emit(kind, start, cur);
      continue;
    }
    if (llvm::isDigit(c) ||
        ((c == '-' || c == '+') && cur + 1 < end && llvm::isDigit(cur[1]))) {
      ++cur;
      while (cur < end && (llvm::isAlnum(*cur) || *cur == '.' ||
                           ((*cur == '-' || *cur == '+') &&
                            (cur[-1] == 'e' || cur[-1] == 'E'))))
        ++cur;
      emit(Kind::Number, start, cur);
      continue;
    }
    if (llvm::isAlpha(c) || c == '_') {
      while (cur < end && isIdentifierChar(*cur))
        ++cur;
      emit(Kind::BareWord, start, cur);
      continue;
    }
    if (c == '-' && cur + 1 < end && cur[1] == '>') {
      cur += 2;
      emit(Kind::Punctuation, start, cur);
      continue;
    }
    ++cur;
    if (c == '{' || c == '(' || c == '[' || c == '<')
      emit(Kind::Open, start, cur);
    else if (c == '}' || c == ')' || c == ']' || c == '>')
      emit(Kind::Close, start, cur);
    else
      emit(Kind::Punctuation, start, cur);
  }
}
