//===- FoldingRanges.cpp - textDocument/foldingRange ------------*- C++ -*-===//
#include "ExecutorLsp/FoldingRanges.h"

#include "ExecutorLsp/ParsedChunk.h"
#include "ExecutorLsp/TextFile.h"
#include "ExecutorStudio/Support/MlirLexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace executor_studio;
using namespace executor_studio::lsp;

void executor_studio::lsp::getFoldingRanges(const TextFile &file,
                                            std::vector<FoldingRange> &ranges) {
  if (!file.hasFullService())
    return;
  llvm::ArrayRef<std::unique_ptr<ParsedChunk>> chunks = file.getChunks();
  llvm::StringRef contents = file.getContents();
  unsigned lastLine = contents.count('\n') - (contents.ends_with("\n") ? 1 : 0);
  for (size_t i = 0, e = chunks.size(); i < e; ++i) {
    const ParsedChunk &chunk = *chunks[i];
    unsigned offset = chunk.lineOffset;
    // A chunk of a split file, from its marker (the first: from the top) up
    // to the line before the next marker.
    if (e > 1) {
      unsigned first = i ? offset - 1 : 0;
      unsigned last = i + 1 < e ? chunks[i + 1]->lineOffset - 2 : lastLine;
      if (last > first)
        ranges.push_back({first, last, "region"});
    }
    struct Open {
      char bracket;
      unsigned line;
    };
    llvm::SmallVector<Open> stack;
    // The first and last line of the current run of comment lines.
    int commentStart = -1, commentEnd = -1;
    unsigned lastCodeLine = ~0u;
    auto endCommentRun = [&] {
      if (commentStart >= 0 && commentEnd > commentStart)
        ranges.push_back(
            {offset + commentStart, offset + commentEnd, "comment"});
      commentStart = commentEnd = -1;
    };
    scanTokens(chunk.getBuffer(), [&](const ScannedToken &token) {
      using Kind = ScannedToken::Kind;
      if (token.kind == Kind::Comment) {
        if (token.line == lastCodeLine)
          return; // a trailing comment
        if (commentStart >= 0 && int(token.line) == commentEnd + 1) {
          commentEnd = token.line;
        } else {
          endCommentRun();
          commentStart = commentEnd = token.line;
        }
        return;
      }
      lastCodeLine = token.line;
      if (commentStart >= 0 && int(token.line) > commentEnd)
        endCommentRun();
      char c = token.text.front();
      if (token.kind == Kind::Open && c != '<') {
        stack.push_back({c, token.line});
        return;
      }
      if (token.kind != Kind::Close || c == '>')
        return;
      char open = c == '}' ? '{' : c == ')' ? '(' : '[';
      // Text that does not parse may leave brackets open: close up to the
      // matching one, if there is one.
      auto it = llvm::find_if(llvm::reverse(stack),
                              [&](const Open &o) { return o.bracket == open; });
      if (it == stack.rend())
        return;
      unsigned startLine = it->line;
      stack.erase(std::prev(it.base()), stack.end());
      // Keep the line of the closing bracket visible.
      if (token.line > startLine + 1)
        ranges.push_back(
            {offset + startLine, offset + token.line - 1, "region"});
    });
    endCommentRun();
  }
  // One range per start line: the outermost.
  llvm::sort(ranges, [](const FoldingRange &a, const FoldingRange &b) {
    if (a.startLine != b.startLine)
      return a.startLine < b.startLine;
    return a.endLine > b.endLine;
  });
  ranges.erase(std::unique(ranges.begin(), ranges.end(),
                           [](const FoldingRange &a, const FoldingRange &b) {
                             return a.startLine == b.startLine;
                           }),
               ranges.end());
}

llvm::json::Value executor_studio::lsp::toJSON(const FoldingRange &range) {
  return llvm::json::Object{
      {"startLine", static_cast<int64_t>(range.startLine)},
      {"endLine", static_cast<int64_t>(range.endLine)},
      {"kind", range.kind},
  };
}
