//===- TextFit.h - names fitted to a narrow column --------------*- C++ -*-===//
//
// Names cut to the characters a column has room for, so that the part that
// tells them apart stays: `compute/convert-func-to-llvm` becomes
// `comp...-func-to-llvm`, not `compute/convert-f`. The views measure the room
// (the studio's fonts are monospaced); the full name goes in a tooltip.
// Plain strings: no ImGui here.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_TEXTFIT_H
#define STUDIOMODEL_TEXTFIT_H

#include <cstddef>
#include <string>
#include <string_view>

namespace executor_studio::gui {

/// Characters in `text` (UTF-8: continuation bytes do not count).
size_t characterCount(std::string_view text);

/// `text` in at most `columns` characters: whole when it fits, else its
/// start and its end around "...", the end three times as long (a step's
/// name ends in what tells it from its neighbours:
/// `comp...math-to-llvm`). Under 5 columns: the end only.
std::string elideMiddle(std::string_view text, size_t columns);

/// A pass list entry's label in parts, in the order they are given up when
/// the column is narrow: the detail first, then the name's middle, then the
/// marks; the prefix stays.
struct StepLabel {
  /// `[+] ` or `[-] ` before a step with nested steps; four spaces before
  /// a nested step (under its target's group row).
  std::string prefix;
  /// `cse`; a nested step's own name, `asm`.
  std::string name;
  /// What it ran on: `  (x86_64-pc-linux-gnu)`, `  (@f)`.
  std::string detail;
  /// `  [2 diag]`, `  [edited]`.
  std::string marks;

  std::string full() const { return prefix + name + detail + marks; }
  /// The label in at most `columns` characters.
  std::string fit(size_t columns) const;
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_TEXTFIT_H
