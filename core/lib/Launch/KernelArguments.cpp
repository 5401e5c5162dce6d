//===- KernelArguments.cpp - a kernel's arguments for a launch ------------===//
#include "ExecutorStudio/Launch/KernelArguments.h"

#include "ExecutorStudio/Transforms/LaunchRules.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace executor_studio {

namespace json = llvm::json;

namespace {
/// Inputs larger than this are refused rather than allocated.
constexpr int64_t kMaxElements = int64_t(1) << 26;

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return s + "]";
}

/// `[1][0]`: where an element is.
std::string positionText(const std::vector<int64_t> &position) {
  std::string s;
  for (int64_t i : position)
    s += "[" + std::to_string(i) + "]";
  return s;
}

/// The position of element `flat` (row-major) of `shape`.
std::vector<int64_t> positionOf(int64_t flat,
                                const std::vector<int64_t> &shape) {
  std::vector<int64_t> position(shape.size(), 0);
  for (size_t d = shape.size(); d > 0; --d) {
    if (shape[d - 1] > 0) {
      position[d - 1] = flat % shape[d - 1];
      flat /= shape[d - 1];
    }
  }
  return position;
}

std::string dump(const json::Value &value) {
  std::string s;
  llvm::raw_string_ostream(s) << value;
  return s;
}

/// A number or a boolean as a double.
std::optional<double> numberOf(const json::Value &value) {
  if (std::optional<bool> b = value.getAsBoolean())
    return *b ? 1.0 : 0.0;
  return value.getAsNumber();
}

/// Collects the leaves of a nested array and its shape; false with `error`
/// when it is ragged or holds something other than numbers.
bool flatten(const json::Value &j, std::vector<int64_t> &position,
             std::vector<int64_t> &shape, std::vector<double> &leaves,
             std::string &error) {
  size_t depth = position.size();
  const json::Array *array = j.getAsArray();
  if (!array) {
    std::optional<double> number = numberOf(j);
    if (!number) {
      error = "element " + positionText(position) + " (" + dump(j) +
              ") is not a number";
      return false;
    }
    if (depth != shape.size()) {
      error = "the array is ragged: a number at " + positionText(position) +
              " where a list of " + std::to_string(shape.size() - depth) +
              " more level(s) belongs";
      return false;
    }
    leaves.push_back(*number);
    return true;
  }
  if (depth == shape.size()) {
    if (!leaves.empty()) {
      error = "the array is ragged: a list at " + positionText(position) +
              " where a number belongs";
      return false;
    }
    shape.push_back(static_cast<int64_t>(array->size()));
  } else if (static_cast<int64_t>(array->size()) != shape[depth]) {
    error = "the array is ragged: a list of " + std::to_string(array->size()) +
            " at " + positionText(position) + " where " +
            std::to_string(shape[depth]) + " belong";
    return false;
  }
  for (size_t i = 0; i < array->size(); ++i) {
    position.push_back(static_cast<int64_t>(i));
    bool ok = flatten((*array)[i], position, shape, leaves, error);
    position.pop_back();
    if (!ok)
      return false;
  }
  // An empty list fixes this level's size and leaves deeper levels unknown.
  if (array->empty() && depth + 1 < shape.size()) {
    error = "the array is ragged at " + positionText(position);
    return false;
  }
  return true;
}

/// Checks `shape` against the argument's sizes.
bool fits(const ShapedArg &arg, const std::vector<int64_t> &shape,
          std::string &error) {
  if (shape.size() != arg.shape.size()) {
    error = "shape " + shapeText(shape) + " has rank " +
            std::to_string(shape.size()) + ", " + arg.type + " has rank " +
            std::to_string(arg.shape.size());
    return false;
  }
  int64_t elements = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      error = "shape " + shapeText(shape) + " has a negative size";
      return false;
    }
    if (arg.shape[i] >= 0 && arg.shape[i] != shape[i]) {
      error = "shape " + shapeText(shape) + " does not fit " + arg.type;
      return false;
    }
    if (shape[i] != 0 && elements > kMaxElements / shape[i]) {
      error = "shape " + shapeText(shape) + " is too large for the editor";
      return false;
    }
    elements *= shape[i];
  }
  if (elements > kMaxElements) {
    error = "shape " + shapeText(shape) + " is too large for the editor";
    return false;
  }
  return true;
}

const llvm::fltSemantics &halfSemantics(const ElementType &element) {
  return element.isBrainFloat ? llvm::APFloat::BFloat()
                              : llvm::APFloat::IEEEhalf();
}

/// A 16-bit float's bits for `value`, rounded to nearest even.
uint16_t toHalf(const ElementType &element, double value) {
  llvm::APFloat f(value);
  bool losesInfo;
  f.convert(halfSemantics(element), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

double fromHalf(const ElementType &element, uint16_t bits) {
  llvm::APFloat f(halfSemantics(element), llvm::APInt(16, bits));
  bool losesInfo;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

/// Writes `value` as element `index`; false with `error` when it does not fit.
bool store(const ElementType &element, double value, size_t index,
           std::vector<char> &bytes, std::string &error) {
  char *at = bytes.data() + index * element.size;
  switch (element.kind) {
  case ElementType::Kind::Float:
    if (element.bits == 64) {
      std::memcpy(at, &value, 8);
    } else if (element.bits == 16) {
      uint16_t h = toHalf(element, value);
      std::memcpy(at, &h, 2);
    } else {
      float f = static_cast<float>(value);
      std::memcpy(at, &f, 4);
    }
    return true;
  case ElementType::Kind::Integer:
  case ElementType::Kind::Index: {
    if (!std::isfinite(value) || value != std::floor(value)) {
      char text[64];
      std::snprintf(text, sizeof(text), "%g", value);
      error = std::string(text) + " is not an integer (" + element.name + ")";
      return false;
    }
    unsigned bits =
        element.kind == ElementType::Kind::Index ? 64 : element.bits;
    long double lo, hi;
    if (bits == 1) {
      lo = 0;
      hi = 1;
    } else if (element.isUnsigned) {
      lo = 0;
      hi = std::ldexp(1.0L, bits) - 1;
    } else {
      lo = -std::ldexp(1.0L, bits - 1);
      hi = std::ldexp(1.0L, bits - 1) - 1;
    }
    if (value < lo || value > hi) {
      char text[64];
      std::snprintf(text, sizeof(text), "%.0f", value);
      error = std::string(text) + " does not fit " + element.name;
      return false;
    }
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(at, &v, static_cast<size_t>(element.size)); // little endian
    return true;
  }
  case ElementType::Kind::Unsupported:
    break;
  }
  error = "element type " + element.name + " is not supported";
  return false;
}

/// An integer or index element, sign-extended unless it is unsigned.
int64_t readInteger(const ElementType &element, const char *at) {
  int64_t v = 0;
  std::memcpy(&v, at, static_cast<size_t>(element.size));
  unsigned bits =
      element.kind == ElementType::Kind::Index ? 64 : element.size * 8;
  if (bits < 64 && !element.isUnsigned && element.bits != 1) {
    // Sign-extend.
    int64_t sign = int64_t(1) << (bits - 1);
    v = (v ^ sign) - sign;
  }
  return v;
}

double readElement(const ElementType &element, const char *at) {
  switch (element.kind) {
  case ElementType::Kind::Float:
    if (element.bits == 64) {
      double d;
      std::memcpy(&d, at, 8);
      return d;
    } else if (element.bits == 16) {
      uint16_t h;
      std::memcpy(&h, at, 2);
      return fromHalf(element, h);
    } else {
      float f;
      std::memcpy(&f, at, 4);
      return f;
    }
  case ElementType::Kind::Integer:
  case ElementType::Kind::Index:
    return static_cast<double>(readInteger(element, at));
  case ElementType::Kind::Unsupported:
    break;
  }
  return 0;
}

void appendNumber(std::string &out, const ElementType &element,
                  const char *at) {
  char text[64];
  if (element.kind == ElementType::Kind::Float) {
    std::snprintf(text, sizeof(text), "%.6g", readElement(element, at));
  } else {
    int64_t v = 0;
    std::memcpy(&v, at, static_cast<size_t>(element.size));
    unsigned bits = element.size * 8;
    if (bits < 64) {
      uint64_t mask = (uint64_t(1) << bits) - 1;
      v = static_cast<int64_t>(static_cast<uint64_t>(v) & mask);
      if (!element.isUnsigned && element.bits != 1 && (v >> (bits - 1)) & 1)
        v -= int64_t(1) << bits;
    }
    if (element.isUnsigned && bits == 64)
      std::snprintf(text, sizeof(text), "%" PRIu64, static_cast<uint64_t>(v));
    else
      std::snprintf(text, sizeof(text), "%" PRId64, v);
  }
  out += text;
}
} // namespace

bool ShapedArg::hasStaticShape() const {
  for (int64_t s : shape)
    if (s < 0)
      return false;
  return true;
}

int64_t ShapedArg::staticElements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s < 0 ? 0 : s;
  return n;
}

int64_t MemRefData::numElements() const {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

ElementType elementTypeNamed(std::string_view name) {
  ElementType t;
  t.name = std::string(name);
  if (name == "f64" || name == "f32" || name == "f16" || name == "bf16") {
    t.kind = ElementType::Kind::Float;
    t.bits = name == "f64" ? 64 : name == "f32" ? 32 : 16;
    t.size = t.bits / 8;
    t.isBrainFloat = name == "bf16";
    return t;
  }
  if (name == "index") {
    t.kind = ElementType::Kind::Index;
    t.bits = 64;
    t.size = 8;
    return t;
  }
  std::string_view digits;
  bool isUnsigned = false;
  if (name.substr(0, 2) == "ui") {
    digits = name.substr(2);
    isUnsigned = true;
  } else if (name.substr(0, 2) == "si") {
    digits = name.substr(2);
  } else if (name.substr(0, 1) == "i") {
    digits = name.substr(1);
  }
  if (digits == "1" || digits == "8" || digits == "16" || digits == "32" ||
      digits == "64") {
    t.kind = ElementType::Kind::Integer;
    t.bits = static_cast<unsigned>(std::stoi(std::string(digits)));
    t.size = t.bits == 1 ? 1 : t.bits / 8;
    t.isUnsigned = isUnsigned || t.bits == 1;
  }
  return t;
}

namespace {
/// The shape of a number or a pattern without "shape": the argument's, which
/// must then be static.
bool argumentShape(const ShapedArg &arg, std::vector<int64_t> &shape,
                   std::string &error) {
  if (!arg.hasStaticShape()) {
    error = arg.type +
            " has dynamic sizes: give \"shape\": " + shapeText(arg.shape) +
            " with numbers for the ?s";
    return false;
  }
  shape = arg.shape;
  return true;
}

/// A JSON list: its shape from its nesting, its leaves in order. A flat list
/// of every element of a static shape takes that shape.
bool listValues(const ShapedArg &arg, const json::Value &j,
                std::vector<int64_t> &shape, std::vector<double> &values,
                std::string &error) {
  std::vector<int64_t> position;
  if (!flatten(j, position, shape, values, error))
    return false;
  if (shape.size() == 1 && arg.shape.size() != 1 && arg.hasStaticShape() &&
      shape[0] == arg.staticElements())
    shape = arg.shape;
  return fits(arg, shape, error);
}

/// A number or a boolean: every element of the argument's shape.
bool scalarValues(const ShapedArg &arg, double v, std::vector<int64_t> &shape,
                  std::vector<double> &values, std::string &error) {
  if (!argumentShape(arg, shape, error) || !fits(arg, shape, error))
    return false;
  values.assign(static_cast<size_t>(arg.staticElements()), v);
  return true;
}

/// A pattern's "shape", or the argument's when it has none.
bool patternShape(const ShapedArg &arg, const json::Object &j,
                  std::vector<int64_t> &shape, std::string &error) {
  const json::Value *s = j.get("shape");
  if (!s)
    return argumentShape(arg, shape, error);
  const json::Array *sizes = s->getAsArray();
  if (!sizes) {
    error = "\"shape\" must be a list of sizes";
    return false;
  }
  for (const json::Value &d : *sizes) {
    std::optional<int64_t> size = d.getAsInteger();
    if (!size) {
      error = "\"shape\" must be a list of integer sizes";
      return false;
    }
    shape.push_back(*size);
  }
  return true;
}

/// The pattern's key `what` as a number.
bool patternNumber(const json::Value &v, const char *what, double &out,
                   std::string &error) {
  std::optional<double> number = v.getAsNumber();
  if (!number) {
    error = std::string("\"") + what + "\" must be a number";
    return false;
  }
  out = *number;
  return true;
}

/// The pattern's key `what` as [from, to].
bool patternRange(const json::Value &v, const char *what, double &from,
                  double &to, std::string &error) {
  const json::Array *range = v.getAsArray();
  if (!range || range->size() != 2 || !(*range)[0].getAsNumber() ||
      !(*range)[1].getAsNumber()) {
    error = std::string("\"") + what + "\" must be [from, to]";
    return false;
  }
  from = *(*range)[0].getAsNumber();
  to = *(*range)[1].getAsNumber();
  return true;
}

/// {"random": [lo, hi], "seed": N}: uniform values, whole numbers for an
/// integer element type.
bool randomValues(const ShapedArg &arg, const json::Object &j,
                  std::vector<double> &values, std::string &error) {
  double lo, hi;
  if (!patternRange(*j.get("random"), "random", lo, hi, error))
    return false;
  uint64_t seed = 1;
  if (const json::Value *s = j.get("seed")) {
    std::optional<uint64_t> n = s->getAsUINT64();
    if (!n) {
      error = "\"seed\" must be an integer";
      return false;
    }
    seed = *n;
  }
  std::mt19937_64 generator(seed);
  bool integral = arg.element.kind != ElementType::Kind::Float;
  for (double &v : values) {
    if (integral) {
      std::uniform_int_distribution<int64_t> d(
          static_cast<int64_t>(std::ceil(lo)),
          static_cast<int64_t>(std::floor(hi)));
      v = static_cast<double>(d(generator));
    } else {
      std::uniform_real_distribution<double> d(lo, hi);
      v = d(generator);
    }
  }
  return true;
}

/// The values of a fill, iota, linspace or random pattern.
bool generateValues(const ShapedArg &arg, const json::Object &j,
                    std::vector<double> &values, std::string &error) {
  if (const json::Value *fill = j.get("fill")) {
    double v;
    if (!patternNumber(*fill, "fill", v, error))
      return false;
    std::fill(values.begin(), values.end(), v);
    return true;
  }
  if (const json::Value *iota = j.get("iota")) {
    double start, step = 1;
    const json::Value *stepValue = j.get("step");
    if (!patternNumber(*iota, "iota", start, error) ||
        (stepValue && !patternNumber(*stepValue, "step", step, error)))
      return false;
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = start + step * static_cast<double>(i);
    return true;
  }
  if (const json::Value *linspace = j.get("linspace")) {
    double from, to;
    if (!patternRange(*linspace, "linspace", from, to, error))
      return false;
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = values.size() == 1
                      ? from
                      : from + (to - from) * static_cast<double>(i) /
                                   static_cast<double>(values.size() - 1);
    return true;
  }
  if (j.get("random"))
    return randomValues(arg, j, values, error);
  error = "a pattern needs one of \"fill\", \"iota\", \"linspace\" "
          "or \"random\"";
  return false;
}

/// Every key of a pattern is one it knows.
bool checkPatternKeys(const json::Object &j, std::string &error) {
  static const char *known[] = {"fill",   "iota", "step", "linspace",
                                "random", "seed", "shape"};
  for (const auto &entry : j) {
    bool ok = false;
    for (const char *k : known)
      ok |= entry.first == k;
    if (!ok) {
      error = "unknown pattern key \"" + entry.first.str() + "\"";
      return false;
    }
  }
  return true;
}

/// A pattern object: its shape, then its values.
bool patternValues(const ShapedArg &arg, const json::Object &j,
                   std::vector<int64_t> &shape, std::vector<double> &values,
                   std::string &error) {
  if (!patternShape(arg, j, shape, error) || !fits(arg, shape, error))
    return false;
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  values.resize(static_cast<size_t>(n));
  return generateValues(arg, j, values, error) && checkPatternKeys(j, error);
}
} // namespace

ParsedArgument parseInputValue(const ShapedArg &arg, const json::Value &j) {
  ParsedArgument result;
  if (!arg.supported) {
    result.error = arg.why;
    return result;
  }
  std::vector<int64_t> shape;
  std::vector<double> values;
  bool read = false;
  if (j.getAsArray())
    read = listValues(arg, j, shape, values, result.error);
  else if (std::optional<double> number = numberOf(j))
    read = scalarValues(arg, *number, shape, values, result.error);
  else if (const json::Object *pattern = j.getAsObject())
    read = patternValues(arg, *pattern, shape, values, result.error);
  else
    result.error = "give a JSON array, a number or a pattern object "
                   "({\"fill\": 1}, {\"iota\": 0}, {\"random\": [0, 1]})";
  if (!read)
    return result;

  result.data.sizes = shape;
  result.data.elementSize = arg.element.size;
  result.data.bytes.assign(
      values.size() * static_cast<size_t>(arg.element.size), 0);
  for (size_t i = 0; i < values.size(); ++i)
    if (!store(arg.element, values[i], i, result.data.bytes, result.error)) {
      if (!shape.empty())
        result.error =
            "element " +
            positionText(positionOf(static_cast<int64_t>(i), shape)) + ": " +
            result.error;
      return result;
    }
  result.ok = true;
  return result;
}

ParsedArgument parseInput(const ShapedArg &arg, std::string_view text) {
  if (!arg.supported) {
    ParsedArgument result;
    result.error = arg.why;
    return result;
  }
  llvm::Expected<json::Value> j =
      json::parse(llvm::StringRef(text.data(), text.size()));
  if (!j) {
    ParsedArgument result;
    result.error = "not JSON: " + llvm::toString(j.takeError());
    return result;
  }
  return parseInputValue(arg, *j);
}

std::string argumentError(llvm::StringRef kernel, size_t index,
                          const ShapedArg &arg, llvm::StringRef error) {
  return llvm::formatv("{0} argument {1} ({2}): {3}", kernel, index, arg.type,
                       error)
      .str();
}

std::string argumentCountError(llvm::StringRef kernel, size_t expected,
                               size_t given, llvm::StringRef what) {
  return llvm::formatv("{0} takes {1} argument(s), {2} gives {3}", kernel,
                       expected, what, given)
      .str();
}

std::string defaultInputText(const ShapedArg &arg) {
  if (!arg.supported)
    return "";
  if (!arg.hasStaticShape()) {
    std::string shape = "[";
    for (size_t i = 0; i < arg.shape.size(); ++i)
      shape +=
          (i ? ", " : "") + std::to_string(arg.shape[i] < 0 ? 4 : arg.shape[i]);
    return "{\"iota\": 1, \"shape\": " + shape + "]}";
  }
  if (arg.shape.size() == 1 && arg.shape[0] <= 16) {
    std::string s = "[";
    for (int64_t i = 0; i < arg.shape[0]; ++i)
      s += (i ? ", " : "") + std::to_string(i + 1);
    return s + "]";
  }
  if (arg.shape.empty())
    return "1";
  return "{\"iota\": 1}";
}

std::string formatShape(const std::vector<int64_t> &sizes) {
  if (sizes.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < sizes.size(); ++i)
    s += (i ? "x" : "") + std::to_string(sizes[i]);
  return s;
}

std::string formatValues(const MemRefData &data, const ElementType &element,
                         size_t maxElements) {
  if (element.kind == ElementType::Kind::Unsupported || element.size <= 0)
    return "<" + std::to_string(data.bytes.size()) + " bytes>";
  int64_t count = data.numElements();
  if (static_cast<int64_t>(data.bytes.size()) < count * element.size)
    return "<short buffer: " + std::to_string(data.bytes.size()) + " bytes>";
  std::string out;
  if (data.sizes.empty()) {
    appendNumber(out, element, data.bytes.data());
    return out;
  }
  size_t rank = data.sizes.size();
  std::vector<int64_t> index(rank, 0);
  size_t printed = 0;
  // Walk elements in row-major order, opening and closing brackets as
  // indices roll over.
  for (size_t d = 0; d < rank; ++d)
    out += '[';
  if (count == 0) {
    for (size_t d = 0; d < rank; ++d)
      out += ']';
    return out;
  }
  for (int64_t e = 0; e < count; ++e) {
    if (printed == maxElements) {
      out += "...";
      for (size_t d = 0; d < rank; ++d)
        out += ']';
      return out;
    }
    appendNumber(out, element, data.bytes.data() + e * element.size);
    ++printed;
    // Advance the index; close the levels that roll over.
    size_t d = rank;
    size_t closed = 0;
    while (d > 0) {
      --d;
      if (++index[d] < data.sizes[d])
        break;
      index[d] = 0;
      ++closed;
      if (d == 0)
        break;
    }
    for (size_t c = 0; c < closed; ++c)
      out += ']';
    if (e + 1 < count) {
      out += ", ";
      for (size_t c = 0; c < closed; ++c)
        out += '[';
    }
  }
  return out;
}

double valueAt(const MemRefData &data, const ElementType &element,
               int64_t flat) {
  if (element.size <= 0 || flat < 0 ||
      static_cast<size_t>((flat + 1) * element.size) > data.bytes.size())
    return 0;
  return readElement(element, data.bytes.data() + flat * element.size);
}

ValueStats valueStats(const MemRefData &data, const ElementType &element) {
  ValueStats stats;
  if (element.kind == ElementType::Kind::Unsupported || element.size <= 0)
    return stats;
  int64_t n =
      std::min<int64_t>(data.numElements(),
                        static_cast<int64_t>(data.bytes.size()) / element.size);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = readElement(element, data.bytes.data() + i * element.size);
    if (std::isnan(v)) {
      ++stats.nans;
      continue;
    }
    if (stats.count == 0 || v < stats.min)
      stats.min = v;
    if (stats.count == 0 || v > stats.max)
      stats.max = v;
    sum += v;
    ++stats.count;
  }
  stats.mean = stats.count ? sum / static_cast<double>(stats.count) : 0;
  return stats;
}

std::string valuesJson(const MemRefData &data, const ElementType &element) {
  int64_t n = data.numElements();
  std::string text =
      formatValues(data, element, static_cast<size_t>(std::max<int64_t>(n, 1)));
  if (element.kind != ElementType::Kind::Float)
    return text;
  // %g spells NaN and the infinities as words JSON does not have.
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    bool matched = false;
    for (const char *word : {"-nan", "nan", "-inf", "inf"}) {
      size_t len = std::strlen(word);
      if (text.compare(i, len, word) == 0) {
        out += "null";
        i += len;
        matched = true;
        break;
      }
    }
    if (!matched)
      out += text[i++];
  }
  return out;
}

namespace {
std::string printed(mlir::Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

/// The type alone: what a launch carries, dispatched or not.
ShapedArg describeType(mlir::Type type) {
  ShapedArg arg;
  arg.type = printed(type);
  if (type.isIntOrIndexOrFloat()) {
    // A scalar: the launch passes it through a pointer, as the kernel's
    // pyface wrapper loads it.
    arg.scalar = true;
    arg.element = elementTypeNamed(arg.type);
    if (arg.element.kind == ElementType::Kind::Unsupported) {
      arg.why = "scalar type " + arg.type +
                " is not supported (f16, bf16, f32, f64, iN, index are)";
      return arg;
    }
    arg.supported = true;
    return arg;
  }
  auto shaped = mlir::dyn_cast<mlir::ShapedType>(type);
  if (!shaped || !mlir::isa<mlir::MemRefType, mlir::RankedTensorType>(type)) {
    if (mlir::isa<mlir::UnrankedMemRefType, mlir::UnrankedTensorType>(type))
      arg.why = arg.type + " is unranked: a launch needs a ranked memref";
    else
      arg.why = arg.type + " is neither a memref nor a scalar: a launch "
                           "carries ranked memrefs and integer, index and "
                           "float scalars";
    return arg;
  }
  for (int64_t size : shaped.getShape())
    arg.shape.push_back(mlir::ShapedType::isDynamic(size) ? -1 : size);
  arg.element = elementTypeNamed(printed(shaped.getElementType()));
  if (arg.element.kind == ElementType::Kind::Unsupported) {
    arg.why = "element type " + arg.element.name +
              " is not supported by the input editor (f16, bf16, f32, f64, iN, "
              "index are)";
    return arg;
  }
  arg.supported = true;
  return arg;
}
} // namespace

ShapedArg describeArgument(mlir::Type type, bool isResult, bool dispatched) {
  ShapedArg arg = describeType(type);
  if (dispatched)
    // What dispatch-executor-targets refuses, no front end launches.
    if (std::optional<std::string> problem = catalyst::dispatchedLaunchProblem(
            type, isResult, /*beforeBufferization=*/true)) {
      arg.supported = false;
      arg.why = *problem;
    }
  return arg;
}

json::Value resultToJSON(const MemRefData &data, const ShapedArg &arg) {
  const ElementType &element = arg.element;
  json::Array values;
  size_t count = element.size > 0
                     ? data.bytes.size() / static_cast<size_t>(element.size)
                     : 0;
  for (size_t i = 0; i < count; ++i) {
    const char *at = data.bytes.data() + i * element.size;
    if (element.kind == ElementType::Kind::Float) {
      double v = readElement(element, at);
      // JSON has no NaN or infinities.
      values.push_back(std::isfinite(v) ? json::Value(v)
                                        : json::Value(nullptr));
    } else if (element.isUnsigned && element.size == 8) {
      uint64_t v;
      std::memcpy(&v, at, 8);
      values.push_back(v);
    } else {
      values.push_back(readInteger(element, at));
    }
  }
  if (arg.scalar && values.size() == 1)
    return std::move(values.front());
  json::Array sizes;
  for (int64_t size : data.sizes)
    sizes.push_back(size);
  return json::Object{{"sizes", std::move(sizes)},
                      {"values", std::move(values)}};
}

} // namespace executor_studio
