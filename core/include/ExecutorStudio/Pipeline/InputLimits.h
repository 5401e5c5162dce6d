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
#ifndef EXECUTORSTUDIO_PIPELINE_INPUTLIMITS_H
#define EXECUTORSTUDIO_PIPELINE_INPUTLIMITS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

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

/// What a front end says where findExcessiveNesting found its place:
/// "`what` nests deeper than 1000 levels here; `consequence`".
std::string nestingRefusal(llvm::StringRef what, llvm::StringRef consequence);

/// Runs `work` on a thread with a kParserStackBytes stack, and waits for it.
void runOnParserStack(llvm::function_ref<void()> work);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_PIPELINE_INPUTLIMITS_H
