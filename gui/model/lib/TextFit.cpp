//===- TextFit.cpp - names fitted to a narrow column ----------------------===//
#include "StudioModel/TextFit.h"

#include <algorithm>

namespace executor_studio::gui {
namespace {
bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The byte offset of character `n` of `text` (its size when it has fewer).
size_t offsetOf(std::string_view text, size_t n) {
  size_t i = 0;
  for (size_t seen = 0; i < text.size(); ++i)
    if (!continuation(text[i]) && seen++ == n)
      return i;
  return text.size();
}
} // namespace

size_t characterCount(std::string_view text) {
  size_t n = 0;
  for (char c : text)
    n += !continuation(c);
  return n;
}

std::string elideMiddle(std::string_view text, size_t columns) {
  size_t length = characterCount(text);
  if (length <= columns)
    return std::string(text);
  constexpr std::string_view dots = "...";
  if (columns < dots.size() + 2)
    return std::string(text.substr(offsetOf(text, length - columns)));
  size_t kept = columns - dots.size();
  // The end tells `convert-math-to-llvm` from `convert-arith-to-llvm`:
  // three quarters of what is kept.
  size_t head = std::max<size_t>(1, kept / 4), tail = kept - head;
  return std::string(text.substr(0, offsetOf(text, head))) + std::string(dots) +
         std::string(text.substr(offsetOf(text, length - tail)));
}

std::string StepLabel::fit(size_t columns) const {
  std::string whole = full();
  if (characterCount(whole) <= columns)
    return whole;
  // The detail is in the tooltip.
  std::string bare = prefix + name + marks;
  if (characterCount(bare) <= columns)
    return bare;
  size_t lead = characterCount(prefix);
  size_t used = lead + characterCount(marks);
  // The marks go (the tooltip has them) before the name is cut below ten
  // characters.
  if (used < columns && columns - used >= std::min<size_t>(characterCount(name), 10))
    return prefix + elideMiddle(name, columns - used) + marks;
  return prefix + elideMiddle(name, columns > lead ? columns - lead : 0);
}

} // namespace executor_studio::gui
