//===- Values.h - memref values for kernel launches -------------*- C++ -*-===//
//
// The executor panel's values: a kernel argument's type (shape, element),
// dense buffers, the input editor's JSON (arrays or fill patterns) turned
// into buffers, and buffers printed back as nested lists.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_VALUES_H
#define STUDIOMODEL_VALUES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace executor_studio::gui {

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
};

/// A kernel argument or result: a ranked memref (or a tensor, launched as
/// the memref it bufferizes to).
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

/// The input editor's text for an argument, parsed.
struct ParsedInput {
  bool ok = false;
  std::string error;
  MemRefData data;
};

/// Parses the editor text of `arg`: a JSON array (nested for rank > 1, its
/// shape must fit the static sizes), a number (every element), or a fill
/// pattern object: `{"fill": v}`, `{"iota": start, "step": s}`,
/// `{"linspace": [from, to]}`, `{"random": [lo, hi], "seed": n}`, each with
/// an optional `"shape": [...]` (needed for dynamic sizes).
ParsedInput parseInput(const ShapedArg &arg, std::string_view text);

/// A starting text for `arg`: small static shapes as an array 1, 2, 3...;
/// others an iota pattern.
std::string defaultInputText(const ShapedArg &arg);

/// `[[1, 2], [3, 4]]`, cut after `maxElements` with `...`.
std::string formatValues(const MemRefData &data, const ElementType &element,
                         size_t maxElements = 64);
/// `4x2` (`scalar` for rank 0).
std::string formatShape(const std::vector<int64_t> &sizes);

/// What the result inspector shows above a buffer.
struct ValueStats {
  size_t count = 0; ///< elements that are numbers (not NaN)
  size_t nans = 0;
  double min = 0, max = 0, mean = 0;
};
ValueStats valueStats(const MemRefData &data, const ElementType &element);
/// Element `flat` (row-major) as a double.
double valueAt(const MemRefData &data, const ElementType &element, int64_t flat);
/// The whole buffer as JSON: nested arrays by shape, NaN and infinities as
/// null (JSON has no spelling for them).
std::string valuesJson(const MemRefData &data, const ElementType &element);

/// The element type named `name` (`f64`, `i32`, `ui8`, `index`).
ElementType elementTypeNamed(std::string_view name);

} // namespace executor_studio::gui

#endif // STUDIOMODEL_VALUES_H
