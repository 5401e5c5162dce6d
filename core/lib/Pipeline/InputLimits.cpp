//===- InputLimits.cpp - what the tools agree to parse ----------*- C++ -*-===//
#include "ExecutorStudio/Pipeline/InputLimits.h"

#include "llvm/Support/thread.h"

std::optional<size_t>
executor_studio::findExcessiveNesting(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    switch (text[i]) {
    case '"':
      // A string literal: skip to its closing quote (escapes included).
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/') {
        size_t eol = text.find('\n', i);
        i = eol == llvm::StringRef::npos ? e : eol;
      }
      break;
    case '<':
      // `<=` compares; it opens nothing.
      if (i + 1 < e && text[i + 1] == '=')
        break;
      [[fallthrough]];
    case '{':
    case '(':
    case '[':
      if (++depth > limit)
        return i;
      break;
    case '>':
      // `->` and `>=` close nothing.
      if ((i > 0 && text[i - 1] == '-') || (i + 1 < e && text[i + 1] == '='))
        break;
      [[fallthrough]];
    case '}':
    case ')':
    case ']':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

std::string executor_studio::nestingRefusal(llvm::StringRef what,
                                            llvm::StringRef consequence) {
  return what.str() + " nests deeper than " + std::to_string(kMaxNestingDepth) +
         " levels here; " + consequence.str();
}

void executor_studio::runOnParserStack(llvm::function_ref<void()> work) {
  llvm::thread worker(std::optional<unsigned>(kParserStackBytes),
                      [work] { work(); });
  worker.join();
}
