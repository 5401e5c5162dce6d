//===- InputLimits.h - what the tools agree to parse ------------*- C++ -*-===//
//
// The MLIR parser, verifier and printer recurse once per nesting level, so a
// hostile file of 10,000 nested `module {` overflows any stack. Every front
// end (executor-opt, executor-compile, the language server, the recorder's
// text entry that the studio uses) checks the nesting of its input first and
// reports an error at the place where it gets too deep, and parses on a
// thread with a large stack.
//
//===----------------------------------------------------------------------===//
#ifndef PIPELINE_INPUTLIMITS_H
#define PIPELINE_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>

namespace executor_studio {

/// The deepest nesting of `{ ( [ <` that is parsed.
inline constexpr unsigned kMaxNestingDepth = 1000;

/// The stack of a thread that parses (the main thread's is the system's
/// default, typically 8 MiB).
inline constexpr unsigned kParserStackBytes = 512u << 20;

/// Where `text` first nests its brackets deeper than `limit` (outside string
/// literals and `//` comments; `->`, `<=` and `>=` are not brackets), as a
/// byte offset.
std::optional<size_t> findExcessiveNesting(llvm::StringRef text,
                                           unsigned limit = kMaxNestingDepth);

} // namespace executor_studio

#endif // PIPELINE_INPUTLIMITS_H
