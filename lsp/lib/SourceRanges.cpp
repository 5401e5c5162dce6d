//===- SourceRanges.cpp - positions and tokens in a buffer ------*- C++ -*-===//
#include "ExecutorLsp/SourceRanges.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <climits>

using namespace llvm;

SMLoc executor_studio::lsp::findLocForLineAndColumn(const SourceMgr &mgr,
                                                    int64_t line,
                                                    int64_t column) {
  if (line < 0 || column < 0 || line >= UINT_MAX - 1 ||
      mgr.getNumBuffers() == 0)
    return SMLoc();
  // Column 1 is always valid on an existing line; the line's end bounds the
  // rest. (SourceMgr caches the line offsets: this is not a linear scan.)
  unsigned id = mgr.getMainFileID();
  SMLoc start = const_cast<SourceMgr &>(mgr).FindLocForLineAndColumn(
      id, static_cast<unsigned>(line) + 1, 1);
  if (!start.isValid())
    return SMLoc();
  const char *lineStart = start.getPointer();
  const MemoryBuffer *buffer = mgr.getMemoryBuffer(id);
  StringRef rest(lineStart, buffer->getBufferEnd() - lineStart);
  size_t lineLength = std::min(rest.find_first_of("\r\n"), rest.size());
  return SMLoc::getFromPointer(lineStart +
                               std::min<uint64_t>(column, lineLength));
}

SMRange executor_studio::lsp::getTokenRange(StringRef buffer, SMLoc start) {
  const char *begin = start.getPointer();
  const char *end = buffer.end();
  if (!begin || begin < buffer.begin() || begin >= end)
    return SMRange(start, start);
  const char *cur = begin;
  if (*cur == '"') {
    for (++cur; cur < end && *cur != '"' && *cur != '\n'; ++cur)
      if (*cur == '\\' && cur + 1 < end)
        ++cur;
    if (cur < end && *cur == '"')
      ++cur;
  } else {
    auto isTokenChar = [](char c) {
      return isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-' ||
             c == '@' || c == '%' || c == '^' || c == '#' || c == '!';
    };
    while (cur < end && isTokenChar(*cur))
      ++cur;
    if (cur == begin && *cur != '\n' && *cur != '\r')
      ++cur;
  }
  return SMRange(start, SMLoc::getFromPointer(cur));
}

bool executor_studio::lsp::rangeContains(SMRange range, SMLoc loc) {
  return range.isValid() && loc.isValid() &&
         range.Start.getPointer() <= loc.getPointer() &&
         loc.getPointer() <= range.End.getPointer();
}
