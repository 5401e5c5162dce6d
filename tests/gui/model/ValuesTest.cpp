//===- ValuesTest.cpp - the input editor's JSON, printed results ----------===//
#include "StudioModel/Values.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace executor_studio::gui;

namespace {
ShapedArg arg(std::vector<int64_t> shape, const char *element = "f64") {
  ShapedArg a;
  a.shape = std::move(shape);
  a.element = elementTypeNamed(element);
  a.supported = true;
  a.type = "memref<" + formatShape(a.shape) + "x" + element + ">";
  return a;
}
template <typename T> std::vector<T> values(const MemRefData &d) {
  std::vector<T> v(d.bytes.size() / sizeof(T));
  std::memcpy(v.data(), d.bytes.data(), v.size() * sizeof(T));
  return v;
}
} // namespace

TEST(Values, ArraysGiveTheirShape) {
  ParsedInput in = parseInput(arg({4}), "[1, 2, 3.5, 4]");
  ASSERT_TRUE(in.ok) << in.error;
  EXPECT_EQ(in.data.sizes, std::vector<int64_t>{4});
  EXPECT_EQ(in.data.elementSize, 8);
  EXPECT_EQ(values<double>(in.data), (std::vector<double>{1, 2, 3.5, 4}));
  ParsedInput nested = parseInput(arg({2, -1}, "i32"), "[[1, 2, 3], [4, 5, 6]]");
  ASSERT_TRUE(nested.ok) << nested.error;
  EXPECT_EQ(nested.data.sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<int32_t>(nested.data), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(Values, ArraysMustFitTheType) {
  EXPECT_NE(parseInput(arg({4}), "[1, 2]").error.find("does not fit"), std::string::npos);
  EXPECT_NE(parseInput(arg({2, 2}), "[1, 2, 3, 4]").error.find("rank"), std::string::npos);
  EXPECT_NE(parseInput(arg({2, 2}), "[[1, 2], [3]]").error.find("ragged"), std::string::npos);
  EXPECT_NE(parseInput(arg({2}), "[1, \"x\"]").error.find("not a number"), std::string::npos);
  EXPECT_NE(parseInput(arg({2}), "[1, 2").error.find("not JSON"), std::string::npos);
  EXPECT_NE(parseInput(arg({2}, "i8"), "[1, 300]").error.find("does not fit i8"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({2}, "i32"), "[1, 2.5]").error.find("not an integer"),
            std::string::npos);
  ShapedArg unsupported;
  unsupported.why = "scalars are not supported";
  EXPECT_EQ(parseInput(unsupported, "1").error, "scalars are not supported");
}

TEST(Values, NumbersAndPatternsFill) {
  ParsedInput fill = parseInput(arg({3}), "2.5");
  ASSERT_TRUE(fill.ok) << fill.error;
  EXPECT_EQ(values<double>(fill.data), (std::vector<double>{2.5, 2.5, 2.5}));
  ParsedInput iota = parseInput(arg({2, 2}, "i64"), "{\"iota\": 10, \"step\": -2}");
  ASSERT_TRUE(iota.ok) << iota.error;
  EXPECT_EQ(values<int64_t>(iota.data), (std::vector<int64_t>{10, 8, 6, 4}));
  ParsedInput lin = parseInput(arg({5}, "f32"), "{\"linspace\": [0, 1]}");
  ASSERT_TRUE(lin.ok) << lin.error;
  EXPECT_EQ(values<float>(lin.data), (std::vector<float>{0, 0.25, 0.5, 0.75, 1}));
  ParsedInput r1 = parseInput(arg({100}), "{\"random\": [-1, 1], \"seed\": 3}");
  ParsedInput r2 = parseInput(arg({100}), "{\"random\": [-1, 1], \"seed\": 3}");
  ASSERT_TRUE(r1.ok) << r1.error;
  EXPECT_EQ(r1.data.bytes, r2.data.bytes);
  for (double v : values<double>(r1.data)) {
    EXPECT_GE(v, -1);
    EXPECT_LE(v, 1);
  }
  EXPECT_NE(parseInput(arg({2}), "{\"fil\": 1}").error.find("needs one of"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({2}), "{\"fill\": 1, \"colour\": 2}").error.find("colour"),
            std::string::npos);
}

TEST(Values, DynamicSizesNeedAShape) {
  EXPECT_NE(parseInput(arg({-1}), "{\"fill\": 1}").error.find("dynamic"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({-1}), "7").error.find("dynamic"), std::string::npos);
  ParsedInput in = parseInput(arg({-1, 2}), "{\"fill\": 1, \"shape\": [3, 2]}");
  ASSERT_TRUE(in.ok) << in.error;
  EXPECT_EQ(in.data.sizes, (std::vector<int64_t>{3, 2}));
  EXPECT_NE(parseInput(arg({-1, 2}), "{\"fill\": 1, \"shape\": [3, 3]}").error.find("does not fit"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({-1}), "{\"fill\": 1, \"shape\": [1000000000000]}").error.find("too large"),
            std::string::npos);
}

TEST(Values, FormatsNestedValues) {
  MemRefData d;
  d.sizes = {2, 3};
  d.elementSize = 8;
  std::vector<double> v = {1, 2.5, 3, 4, 5, 6};
  d.bytes.resize(48);
  std::memcpy(d.bytes.data(), v.data(), 48);
  EXPECT_EQ(formatValues(d, elementTypeNamed("f64")), "[[1, 2.5, 3], [4, 5, 6]]");
  EXPECT_EQ(formatValues(d, elementTypeNamed("f64"), 4), "[[1, 2.5, 3], [4, ...]]");
  MemRefData i;
  i.sizes = {3};
  i.elementSize = 4;
  std::vector<int32_t> iv = {-1, 0, 7};
  i.bytes.resize(12);
  std::memcpy(i.bytes.data(), iv.data(), 12);
  EXPECT_EQ(formatValues(i, elementTypeNamed("i32")), "[-1, 0, 7]");
  MemRefData scalar;
  scalar.elementSize = 8;
  double s = 42;
  scalar.bytes.resize(8);
  std::memcpy(scalar.bytes.data(), &s, 8);
  EXPECT_EQ(formatValues(scalar, elementTypeNamed("f64")), "42");
  MemRefData empty;
  empty.sizes = {0};
  EXPECT_EQ(formatValues(empty, elementTypeNamed("f64")), "[]");
  EXPECT_EQ(formatShape({4, 2}), "4x2");
  EXPECT_EQ(formatShape({}), "scalar");
}

TEST(Values, DefaultInputsParse) {
  for (ShapedArg a : {arg({4}), arg({2, 3}, "i32"), arg({-1}), arg({}, "index"),
                      arg({64}, "f32")}) {
    std::string text = defaultInputText(a);
    ParsedInput in = parseInput(a, text);
    EXPECT_TRUE(in.ok) << a.type << ": " << text << ": " << in.error;
  }
  EXPECT_EQ(defaultInputText(arg({4})), "[1, 2, 3, 4]");
}

TEST(Values, ElementTypes) {
  EXPECT_EQ(elementTypeNamed("f32").size, 4);
  EXPECT_EQ(elementTypeNamed("i1").size, 1);
  EXPECT_EQ(elementTypeNamed("ui16").isUnsigned, true);
  EXPECT_EQ(elementTypeNamed("index").size, 8);
  EXPECT_EQ(elementTypeNamed("bf16").kind, ElementType::Kind::Unsupported);
  EXPECT_EQ(elementTypeNamed("complex<f32>").kind, ElementType::Kind::Unsupported);
}
