//===- KernelArguments.h - a kernel's arguments for a launch ----*- C++ -*-===//
//
// What every front end that launches a kernel (the language server's
// executor/launch, the studio's executor panel and its --inputs) knows about
// a kernel's arguments and results, with one set of rules and messages:
// which types a launch carries (ranked memrefs and tensors, static or
// dynamic sizes, and scalars; f16, bf16, f32, f64, i1, i8 to i64 signed or
// not, index: what dispatch-executor-targets takes),
// the JSON a user writes for an input (nested or flat lists, a number, a
// fill pattern) turned into a dense buffer, and a buffer printed back (as
// text or as JSON). The buffers are the runtime's layout (row-major,
// little-endian), so that a front end hands them to the executor client as
// they are.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_LAUNCH_KERNELARGUMENTS_H
#define EXECUTORSTUDIO_LAUNCH_KERNELARGUMENTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mlir {
class Type;
} // namespace mlir

namespace executor_studio {

struct ElementType {
  enum class Kind : uint8_t { Float, Integer, Index, Unsupported };
  Kind kind = Kind::Unsupported;
  /// The MLIR spelling (`f64`, `i32`, `index`).
  std::string name;
  /// Bytes per element in a dense buffer (i1 takes one).
  int64_t size = 0;
  /// Bits of integers (1 for i1), of floats.
  unsigned bits = 0;
  bool isUnsigned = false;
  /// bf16 (the brain float): 16 bits like f16, another format.
  bool isBrainFloat = false;
};

/// A kernel argument or result: a ranked memref (or a tensor, launched as
/// the memref it bufferizes to), or a scalar.
struct ShapedArg {
  std::string type;           ///< as printed: `memref<4xf64>`
  std::vector<int64_t> shape; ///< -1 for a dynamic size
  ElementType element;
  /// A scalar (`f64`, `i32`, `index`), not a memref: it has rank 0 and the
  /// kernel's pyface wrapper loads it through a pointer.
  bool scalar = false;
  /// Whether a launch can carry it; `why` says why not.
  bool supported = false;
  std::string why;

  bool hasStaticShape() const;
  /// The number of elements of a static shape (1 for rank 0).
  int64_t staticElements() const;
};

/// A dense row-major buffer with its shape.
struct MemRefData {
  std::vector<int64_t> sizes;
  int64_t elementSize = 8;
  std::vector<char> bytes;

  int64_t numElements() const;
};

/// An input's JSON, parsed.
struct ParsedArgument {
  bool ok = false;
  std::string error;
  MemRefData data;
};

/// The element type named `name` (`f64`, `i32`, `ui8`, `index`).
ElementType elementTypeNamed(std::string_view name);

/// `type` as a launch carries it (argument or result, `isResult`), with why
/// not when it cannot. A kernel of a module dispatched to an executor
/// (`dispatched`) also follows what dispatch-executor-targets refuses
/// (catalyst::dispatchedLaunchProblem).
ShapedArg describeArgument(mlir::Type type, bool isResult, bool dispatched);

/// Parses the input `value` of `arg`: a JSON list (nested for rank > 1, its
/// shape must fit the static sizes; or flat, with every element of a static
/// shape), a number or a boolean (every element), or a fill pattern
/// object: `{"fill": v}`, `{"iota": start, "step": s}`,
/// `{"linspace": [from, to]}`, `{"random": [lo, hi], "seed": n}`, each with
/// an optional `"shape": [...]` (needed for dynamic sizes). An error about
/// an element names its position (`element [1][0]`).
ParsedArgument parseInputValue(const ShapedArg &arg,
                               const llvm::json::Value &value);
/// The same, from the JSON's text (an input editor's).
ParsedArgument parseInput(const ShapedArg &arg, std::string_view text);

/// A starting text for `arg`: small static shapes as an array 1, 2, 3...;
/// others an iota pattern (dynamic sizes as 4).
std::string defaultInputText(const ShapedArg &arg);

/// The message of a bad input: `{kernel} argument {index} ({type}): {error}`.
std::string argumentError(llvm::StringRef kernel, size_t index,
                          const ShapedArg &arg, llvm::StringRef error);
/// The message of a list of inputs of the wrong length:
/// `{kernel} takes {expected} argument(s), {what} gives {given}`.
std::string argumentCountError(llvm::StringRef kernel, size_t expected,
                               size_t given, llvm::StringRef what);

/// `[[1, 2], [3, 4]]`, cut after `maxElements` with `...`.
std::string formatValues(const MemRefData &data, const ElementType &element,
                         size_t maxElements = 64);
/// `4x2` (`scalar` for rank 0).
std::string formatShape(const std::vector<int64_t> &sizes);

/// What a result inspector shows above a buffer.
struct ValueStats {
  size_t count = 0; ///< elements that are numbers (not NaN)
  size_t nans = 0;
  double min = 0, max = 0, mean = 0;
};
ValueStats valueStats(const MemRefData &data, const ElementType &element);
/// Element `flat` (row-major) as a double.
double valueAt(const MemRefData &data, const ElementType &element,
               int64_t flat);
/// The whole buffer as JSON text: nested arrays by shape, NaN and
/// infinities as null (JSON has no spelling for them).
std::string valuesJson(const MemRefData &data, const ElementType &element);
/// A result as a launch's reply carries it: a scalar's number, else
/// `{sizes, values}` with the values flat (row-major); integers exact,
/// NaN and infinities as null.
llvm::json::Value resultToJSON(const MemRefData &data, const ShapedArg &arg);

} // namespace executor_studio

#endif // EXECUTORSTUDIO_LAUNCH_KERNELARGUMENTS_H
