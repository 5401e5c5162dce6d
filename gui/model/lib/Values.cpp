//===- Values.cpp - memref values for kernel launches ---------------------===//
#include "StudioModel/Values.h"

#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace executor_studio::gui {

using nlohmann::json;

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

/// Collects the leaves of a nested array and its shape; false with `error`
/// when it is ragged or holds something other than numbers.
bool flatten(const json &j, size_t depth, std::vector<int64_t> &shape,
             std::vector<const json *> &leaves, std::string &error) {
  if (!j.is_array()) {
    if (!j.is_number() && !j.is_boolean()) {
      error = "element " + j.dump() + " is not a number";
      return false;
    }
    if (depth != shape.size()) {
      error = "the array is ragged: a number where a list of " +
              std::to_string(shape.size() - depth) + " more level(s) belongs";
      return false;
    }
    leaves.push_back(&j);
    return true;
  }
  if (depth == shape.size()) {
    if (!leaves.empty()) {
      error = "the array is ragged: a list where a number belongs";
      return false;
    }
    shape.push_back(static_cast<int64_t>(j.size()));
  } else if (static_cast<int64_t>(j.size()) != shape[depth]) {
    error = "the array is ragged: a list of " + std::to_string(j.size()) +
            " where " + std::to_string(shape[depth]) + " belong";
    return false;
  }
  for (const json &e : j)
    if (!flatten(e, depth + 1, shape, leaves, error))
      return false;
  // An empty list fixes this level's size and leaves deeper levels unknown.
  if (j.empty() && depth + 1 < shape.size()) {
    error = "the array is ragged";
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

/// Writes `value` as element `index`; false with `error` when it does not fit.
bool store(const ElementType &element, double value, size_t index,
           std::vector<char> &bytes, std::string &error) {
  char *at = bytes.data() + index * element.size;
  switch (element.kind) {
  case ElementType::Kind::Float:
    if (element.bits == 64) {
      std::memcpy(at, &value, 8);
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
    unsigned bits = element.kind == ElementType::Kind::Index ? 64 : element.bits;
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

double readElement(const ElementType &element, const char *at) {
  switch (element.kind) {
  case ElementType::Kind::Float:
    if (element.bits == 64) {
      double d;
      std::memcpy(&d, at, 8);
      return d;
    } else {
      float f;
      std::memcpy(&f, at, 4);
      return f;
    }
  case ElementType::Kind::Integer:
  case ElementType::Kind::Index: {
    int64_t v = 0;
    std::memcpy(&v, at, static_cast<size_t>(element.size));
    unsigned bits = element.kind == ElementType::Kind::Index ? 64 : element.size * 8;
    if (bits < 64 && !element.isUnsigned && element.bits != 1) {
      // Sign-extend.
      int64_t sign = int64_t(1) << (bits - 1);
      v = (v ^ sign) - sign;
    }
    return static_cast<double>(v);
  }
  case ElementType::Kind::Unsupported:
    break;
  }
  return 0;
}

void appendNumber(std::string &out, const ElementType &element, const char *at) {
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
  if (name == "f64" || name == "f32") {
    t.kind = ElementType::Kind::Float;
    t.bits = name == "f64" ? 64 : 32;
    t.size = t.bits / 8;
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
    error = arg.type + " has dynamic sizes: give \"shape\": " +
            shapeText(arg.shape) + " with numbers for the ?s";
    return false;
  }
  shape = arg.shape;
  return true;
}

/// A nested JSON list: its shape from its nesting, its leaves in order.
bool listValues(const ShapedArg &arg, const json &j, std::vector<int64_t> &shape,
                std::vector<double> &values, std::string &error) {
  std::vector<const json *> leaves;
  if (!flatten(j, 0, shape, leaves, error) || !fits(arg, shape, error))
    return false;
  values.reserve(leaves.size());
  for (const json *leaf : leaves)
    values.push_back(leaf->is_boolean() ? (leaf->get<bool>() ? 1.0 : 0.0)
                                        : leaf->get<double>());
  return true;
}

/// A number or a boolean: every element of the argument's shape.
bool scalarValues(const ShapedArg &arg, const json &j, std::vector<int64_t> &shape,
                  std::vector<double> &values, std::string &error) {
  if (!argumentShape(arg, shape, error) || !fits(arg, shape, error))
    return false;
  double v = j.is_boolean() ? (j.get<bool>() ? 1.0 : 0.0) : j.get<double>();
  values.assign(static_cast<size_t>(arg.staticElements()), v);
  return true;
}

/// A pattern's "shape", or the argument's when it has none.
bool patternShape(const ShapedArg &arg, const json &j, std::vector<int64_t> &shape,
                  std::string &error) {
  if (!j.contains("shape"))
    return argumentShape(arg, shape, error);
  const json &s = j["shape"];
  if (!s.is_array()) {
    error = "\"shape\" must be a list of sizes";
    return false;
  }
  for (const json &d : s) {
    if (!d.is_number_integer()) {
      error = "\"shape\" must be a list of integer sizes";
      return false;
    }
    shape.push_back(d.get<int64_t>());
  }
  return true;
}

/// The pattern's key `what` as a number.
bool patternNumber(const json &v, const char *what, double &out, std::string &error) {
  if (!v.is_number()) {
    error = std::string("\"") + what + "\" must be a number";
    return false;
  }
  out = v.get<double>();
  return true;
}

/// The pattern's key `what` as [from, to].
bool patternRange(const json &v, const char *what, double &from, double &to,
                  std::string &error) {
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number()) {
    error = std::string("\"") + what + "\" must be [from, to]";
    return false;
  }
  from = v[0].get<double>();
  to = v[1].get<double>();
  return true;
}

/// {"random": [lo, hi], "seed": N}: uniform values, whole numbers for an
/// integer element type.
bool randomValues(const ShapedArg &arg, const json &j, std::vector<double> &values,
                  std::string &error) {
  double lo, hi;
  if (!patternRange(j["random"], "random", lo, hi, error))
    return false;
  uint64_t seed = 1;
  if (j.contains("seed")) {
    if (!j["seed"].is_number_integer()) {
      error = "\"seed\" must be an integer";
      return false;
    }
    seed = j["seed"].get<uint64_t>();
  }
  std::mt19937_64 generator(seed);
  bool integral = arg.element.kind != ElementType::Kind::Float;
  for (double &v : values) {
    if (integral) {
      std::uniform_int_distribution<int64_t> d(static_cast<int64_t>(std::ceil(lo)),
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
bool generateValues(const ShapedArg &arg, const json &j, std::vector<double> &values,
                    std::string &error) {
  if (j.contains("fill")) {
    double v;
    if (!patternNumber(j["fill"], "fill", v, error))
      return false;
    std::fill(values.begin(), values.end(), v);
    return true;
  }
  if (j.contains("iota")) {
    double start, step = 1;
    if (!patternNumber(j["iota"], "iota", start, error) ||
        (j.contains("step") && !patternNumber(j["step"], "step", step, error)))
      return false;
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = start + step * static_cast<double>(i);
    return true;
  }
  if (j.contains("linspace")) {
    double from, to;
    if (!patternRange(j["linspace"], "linspace", from, to, error))
      return false;
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = values.size() == 1
                      ? from
                      : from + (to - from) * static_cast<double>(i) /
                                   static_cast<double>(values.size() - 1);
    return true;
  }
  if (j.contains("random"))
    return randomValues(arg, j, values, error);
  error = "a pattern needs one of \"fill\", \"iota\", \"linspace\" "
          "or \"random\"";
  return false;
}

/// Every key of a pattern is one it knows.
bool checkPatternKeys(const json &j, std::string &error) {
  static const char *known[] = {"fill", "iota", "step", "linspace",
                                "random", "seed", "shape"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char *k : known)
      ok |= it.key() == k;
    if (!ok) {
      error = "unknown pattern key \"" + it.key() + "\"";
      return false;
    }
  }
  return true;
}

/// A pattern object: its shape, then its values.
bool patternValues(const ShapedArg &arg, const json &j, std::vector<int64_t> &shape,
                   std::vector<double> &values, std::string &error) {
  if (!patternShape(arg, j, shape, error) || !fits(arg, shape, error))
    return false;
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  values.resize(static_cast<size_t>(n));
  return generateValues(arg, j, values, error) && checkPatternKeys(j, error);
}
} // namespace

ParsedInput parseInput(const ShapedArg &arg, std::string_view text) {
  ParsedInput result;
  if (!arg.supported) {
    result.error = arg.why;
    return result;
  }
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error &e) {
    result.error = std::string("not JSON: ") + e.what();
    return result;
  }

  std::vector<int64_t> shape;
  std::vector<double> values;
  bool read = false;
  if (j.is_array())
    read = listValues(arg, j, shape, values, result.error);
  else if (j.is_number() || j.is_boolean())
    read = scalarValues(arg, j, shape, values, result.error);
  else if (j.is_object())
    read = patternValues(arg, j, shape, values, result.error);
  else
    result.error = "give a JSON array, a number or a pattern object "
                   "({\"fill\": 1}, {\"iota\": 0}, {\"random\": [0, 1]})";
  if (!read)
    return result;

  result.data.sizes = shape;
  result.data.elementSize = arg.element.size;
  result.data.bytes.assign(values.size() * static_cast<size_t>(arg.element.size), 0);
  for (size_t i = 0; i < values.size(); ++i)
    if (!store(arg.element, values[i], i, result.data.bytes, result.error))
      return result;
  result.ok = true;
  return result;
}

std::string defaultInputText(const ShapedArg &arg) {
  if (!arg.supported)
    return "";
  if (!arg.hasStaticShape()) {
    std::string shape = "[";
    for (size_t i = 0; i < arg.shape.size(); ++i)
      shape += (i ? ", " : "") +
               std::to_string(arg.shape[i] < 0 ? 4 : arg.shape[i]);
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

double valueAt(const MemRefData &data, const ElementType &element, int64_t flat) {
  if (element.size <= 0 || flat < 0 ||
      static_cast<size_t>((flat + 1) * element.size) > data.bytes.size())
    return 0;
  return readElement(element, data.bytes.data() + flat * element.size);
}

ValueStats valueStats(const MemRefData &data, const ElementType &element) {
  ValueStats stats;
  if (element.kind == ElementType::Kind::Unsupported || element.size <= 0)
    return stats;
  int64_t n = std::min<int64_t>(data.numElements(),
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
  std::string text = formatValues(data, element, static_cast<size_t>(std::max<int64_t>(n, 1)));
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

} // namespace executor_studio::gui
