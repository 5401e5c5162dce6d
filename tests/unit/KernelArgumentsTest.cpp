//===- KernelArgumentsTest.cpp - a kernel's arguments for a launch --------===//
#include "ExecutorStudio/Launch/KernelArguments.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace executor_studio;
namespace json = llvm::json;

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

TEST(KernelArguments, ArraysGiveTheirShape) {
  ParsedArgument in = parseInput(arg({4}), "[1, 2, 3.5, 4]");
  ASSERT_TRUE(in.ok) << in.error;
  EXPECT_EQ(in.data.sizes, std::vector<int64_t>{4});
  EXPECT_EQ(in.data.elementSize, 8);
  EXPECT_EQ(values<double>(in.data), (std::vector<double>{1, 2, 3.5, 4}));
  ParsedArgument nested =
      parseInput(arg({2, -1}, "i32"), "[[1, 2, 3], [4, 5, 6]]");
  ASSERT_TRUE(nested.ok) << nested.error;
  EXPECT_EQ(nested.data.sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<int32_t>(nested.data),
            (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(KernelArguments, ArraysMustFitTheType) {
  EXPECT_NE(parseInput(arg({4}), "[1, 2]").error.find("does not fit"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({2, 2}), "[1, 2, 3]").error.find("rank"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({2, 2}), "[[1, 2], [3]]").error.find("ragged"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({2}), "[1, \"x\"]").error.find("not a number"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({2}), "[1, 2").error.find("not JSON"),
            std::string::npos);
  EXPECT_NE(
      parseInput(arg({2}, "i8"), "[1, 300]").error.find("does not fit i8"),
      std::string::npos);
  EXPECT_NE(
      parseInput(arg({2}, "i32"), "[1, 2.5]").error.find("not an integer"),
      std::string::npos);
  ShapedArg unsupported;
  unsupported.why = "scalars are not supported";
  EXPECT_EQ(parseInput(unsupported, "1").error, "scalars are not supported");
}

TEST(KernelArguments, NumbersAndPatternsFill) {
  ParsedArgument fill = parseInput(arg({3}), "2.5");
  ASSERT_TRUE(fill.ok) << fill.error;
  EXPECT_EQ(values<double>(fill.data), (std::vector<double>{2.5, 2.5, 2.5}));
  ParsedArgument iota =
      parseInput(arg({2, 2}, "i64"), "{\"iota\": 10, \"step\": -2}");
  ASSERT_TRUE(iota.ok) << iota.error;
  EXPECT_EQ(values<int64_t>(iota.data), (std::vector<int64_t>{10, 8, 6, 4}));
  ParsedArgument lin = parseInput(arg({5}, "f32"), "{\"linspace\": [0, 1]}");
  ASSERT_TRUE(lin.ok) << lin.error;
  EXPECT_EQ(values<float>(lin.data),
            (std::vector<float>{0, 0.25, 0.5, 0.75, 1}));
  ParsedArgument r1 =
      parseInput(arg({100}), "{\"random\": [-1, 1], \"seed\": 3}");
  ParsedArgument r2 =
      parseInput(arg({100}), "{\"random\": [-1, 1], \"seed\": 3}");
  ASSERT_TRUE(r1.ok) << r1.error;
  EXPECT_EQ(r1.data.bytes, r2.data.bytes);
  for (double v : values<double>(r1.data)) {
    EXPECT_GE(v, -1);
    EXPECT_LE(v, 1);
  }
  EXPECT_NE(parseInput(arg({2}), "{\"fil\": 1}").error.find("needs one of"),
            std::string::npos);
  EXPECT_NE(
      parseInput(arg({2}), "{\"fill\": 1, \"colour\": 2}").error.find("colour"),
      std::string::npos);
}

TEST(KernelArguments, DynamicSizesNeedAShape) {
  EXPECT_NE(parseInput(arg({-1}), "{\"fill\": 1}").error.find("dynamic"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({-1}), "7").error.find("dynamic"),
            std::string::npos);
  ParsedArgument in =
      parseInput(arg({-1, 2}), "{\"fill\": 1, \"shape\": [3, 2]}");
  ASSERT_TRUE(in.ok) << in.error;
  EXPECT_EQ(in.data.sizes, (std::vector<int64_t>{3, 2}));
  EXPECT_NE(parseInput(arg({-1, 2}), "{\"fill\": 1, \"shape\": [3, 3]}")
                .error.find("does not fit"),
            std::string::npos);
  EXPECT_NE(parseInput(arg({-1}), "{\"fill\": 1, \"shape\": [1000000000000]}")
                .error.find("too large"),
            std::string::npos);
}

TEST(KernelArguments, FormatsNestedValues) {
  MemRefData d;
  d.sizes = {2, 3};
  d.elementSize = 8;
  std::vector<double> v = {1, 2.5, 3, 4, 5, 6};
  d.bytes.resize(48);
  std::memcpy(d.bytes.data(), v.data(), 48);
  EXPECT_EQ(formatValues(d, elementTypeNamed("f64")),
            "[[1, 2.5, 3], [4, 5, 6]]");
  EXPECT_EQ(formatValues(d, elementTypeNamed("f64"), 4),
            "[[1, 2.5, 3], [4, ...]]");
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

TEST(KernelArguments, DefaultInputsParse) {
  for (ShapedArg a : {arg({4}), arg({2, 3}, "i32"), arg({-1}), arg({}, "index"),
                      arg({64}, "f32")}) {
    std::string text = defaultInputText(a);
    ParsedArgument in = parseInput(a, text);
    EXPECT_TRUE(in.ok) << a.type << ": " << text << ": " << in.error;
  }
  EXPECT_EQ(defaultInputText(arg({4})), "[1, 2, 3, 4]");
}

TEST(KernelArguments, ElementTypes) {
  EXPECT_EQ(elementTypeNamed("f32").size, 4);
  EXPECT_EQ(elementTypeNamed("i1").size, 1);
  EXPECT_EQ(elementTypeNamed("ui16").isUnsigned, true);
  EXPECT_EQ(elementTypeNamed("index").size, 8);
  EXPECT_EQ(elementTypeNamed("f16").size, 2);
  EXPECT_EQ(elementTypeNamed("bf16").size, 2);
  EXPECT_TRUE(elementTypeNamed("bf16").isBrainFloat);
  EXPECT_FALSE(elementTypeNamed("f16").isBrainFloat);
  EXPECT_EQ(elementTypeNamed("f80").kind, ElementType::Kind::Unsupported);
  EXPECT_EQ(elementTypeNamed("complex<f32>").kind,
            ElementType::Kind::Unsupported);
}

TEST(KernelArguments, FlatListsFillAStaticShape) {
  // A flat list of every element, as the language server's "inputs" give it.
  ParsedArgument in = parseInput(arg({2, 2}, "i16"), "[1, 2, 3, 4]");
  ASSERT_TRUE(in.ok) << in.error;
  EXPECT_EQ(in.data.sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<int16_t>(in.data), (std::vector<int16_t>{1, 2, 3, 4}));
  // A scalar from a list of one, or a number.
  for (const char *text : {"[7]", "7"}) {
    ParsedArgument scalar = parseInput(arg({}, "i64"), text);
    ASSERT_TRUE(scalar.ok) << text << ": " << scalar.error;
    EXPECT_TRUE(scalar.data.sizes.empty());
    EXPECT_EQ(values<int64_t>(scalar.data), std::vector<int64_t>{7});
  }
  // A JSON value, not its text, as the language server has it.
  ParsedArgument fromValue =
      parseInputValue(arg({3}), json::Value(json::Array{1.5, true, 3}));
  ASSERT_TRUE(fromValue.ok) << fromValue.error;
  EXPECT_EQ(values<double>(fromValue.data), (std::vector<double>{1.5, 1, 3}));
}

TEST(KernelArguments, BadValuesNameTheirPosition) {
  EXPECT_EQ(parseInput(arg({2, 2}), "[[1, 2], [3, \"x\"]]").error,
            "element [1][1] (\"x\") is not a number");
  EXPECT_EQ(parseInput(arg({3}, "i8"), "[1, 2, 300]").error,
            "element [2]: 300 does not fit i8");
  EXPECT_EQ(parseInput(arg({2, 2}, "ui8"), "[[0, 1], [-1, 2]]").error,
            "element [1][0]: -1 does not fit ui8");
  EXPECT_EQ(parseInput(arg({2, 2}, "i32"), "[0, 1, 2.5, 3]").error,
            "element [1][0]: 2.5 is not an integer (i32)");
  EXPECT_EQ(parseInput(arg({2, 2}), "[[1, 2], [3]]").error,
            "the array is ragged: a list of 1 at [1] where 2 belong");
  EXPECT_EQ(parseInput(arg({}, "i1"), "2").error, "2 does not fit i1");
  // A front end names the kernel and the argument.
  ShapedArg a = arg({4});
  EXPECT_EQ(
      argumentError("@k::@e", 1, a, "shape [2] does not fit memref<4xf64>"),
      "@k::@e argument 1 (memref<4xf64>): shape [2] does not fit "
      "memref<4xf64>");
  EXPECT_EQ(argumentCountError("@k::@e", 1, 2, "--inputs"),
            "@k::@e takes 1 argument(s), --inputs gives 2");
}

TEST(KernelArguments, TypesALaunchCarries) {
  mlir::MLIRContext ctx;
  mlir::Builder b(&ctx);
  auto describe = [&](mlir::Type type) {
    return describeArgument(type, /*isResult=*/false, /*dispatched=*/false);
  };
  ShapedArg dynamic = describe(mlir::MemRefType::get(
      {mlir::ShapedType::kDynamic, 3}, b.getIntegerType(32)));
  EXPECT_TRUE(dynamic.supported) << dynamic.why;
  EXPECT_EQ(dynamic.type, "memref<?x3xi32>");
  EXPECT_EQ(dynamic.shape, (std::vector<int64_t>{-1, 3}));
  EXPECT_FALSE(dynamic.hasStaticShape());
  EXPECT_EQ(dynamic.element.size, 4);

  ShapedArg tensor = describe(mlir::RankedTensorType::get({4}, b.getF32Type()));
  EXPECT_TRUE(tensor.supported) << tensor.why;
  EXPECT_EQ(tensor.shape, std::vector<int64_t>{4});
  EXPECT_EQ(tensor.element.kind, ElementType::Kind::Float);

  for (mlir::Type scalar :
       {mlir::Type(b.getI1Type()), mlir::Type(b.getIntegerType(8)),
        mlir::Type(b.getIntegerType(16, /*isSigned=*/false)),
        mlir::Type(b.getI64Type()), mlir::Type(b.getIndexType()),
        mlir::Type(b.getF32Type()), mlir::Type(b.getF64Type())}) {
    ShapedArg s = describe(scalar);
    EXPECT_TRUE(s.supported) << s.type << ": " << s.why;
    EXPECT_TRUE(s.scalar) << s.type;
    EXPECT_TRUE(s.shape.empty()) << s.type;
  }
  EXPECT_TRUE(describe(b.getIntegerType(16, false)).element.isUnsigned);
  EXPECT_EQ(describe(b.getI1Type()).element.size, 1);

  EXPECT_TRUE(describe(mlir::MemRefType::get({2}, b.getBF16Type())).supported);
  ShapedArg f80 = describe(mlir::MemRefType::get({2}, b.getF80Type()));
  EXPECT_FALSE(f80.supported);
  EXPECT_EQ(f80.why, "element type f80 is not supported by the input editor "
                     "(f16, bf16, f32, f64, iN, index are)");
  ShapedArg unranked =
      describe(mlir::UnrankedMemRefType::get(b.getF64Type(), nullptr));
  EXPECT_FALSE(unranked.supported);
  EXPECT_EQ(unranked.why,
            "memref<*xf64> is unranked: a launch needs a ranked memref");
  ShapedArg vector = describe(mlir::VectorType::get({4}, b.getF64Type()));
  EXPECT_FALSE(vector.supported);
  EXPECT_NE(vector.why.find("neither a memref nor a scalar"),
            std::string::npos);
  EXPECT_EQ(parseInput(vector, "[1, 2, 3, 4]").error, vector.why);
}

TEST(KernelArguments, ResultsAsJSON) {
  MemRefData d;
  d.sizes = {2, 2};
  d.elementSize = 2;
  std::vector<int16_t> v = {-1, 2, 300, -32768};
  d.bytes.resize(8);
  std::memcpy(d.bytes.data(), v.data(), 8);
  EXPECT_EQ(
      json::Value(resultToJSON(d, arg({2, 2}, "i16"))),
      json::Value(json::Object{{"sizes", json::Array{2, 2}},
                               {"values", json::Array{-1, 2, 300, -32768}}}));
  MemRefData f;
  f.sizes = {2};
  f.elementSize = 8;
  std::vector<double> fv = {0.5, std::nan("")};
  f.bytes.resize(16);
  std::memcpy(f.bytes.data(), fv.data(), 16);
  EXPECT_EQ(resultToJSON(f, arg({2})),
            json::Value(json::Object{{"sizes", json::Array{2}},
                                     {"values", json::Array{0.5, nullptr}}}));
  ShapedArg scalar = arg({}, "ui8");
  scalar.scalar = true;
  MemRefData s;
  s.elementSize = 1;
  s.bytes = {char(200)};
  EXPECT_EQ(resultToJSON(s, scalar), json::Value(200));
}

TEST(KernelArguments, HalfFloatsInBothFormats) {
  // f16 and bf16 are 16 bits each in another format: 1.5 is 0x3E00 in f16
  // and 0x3FC0 in bf16; 0.1 rounds to the nearest of each.
  ParsedArgument h = parseInput(arg({3}, "f16"), "[1.5, -2, 0.1]");
  ASSERT_TRUE(h.ok) << h.error;
  EXPECT_EQ(h.data.elementSize, 2);
  EXPECT_EQ(values<uint16_t>(h.data),
            (std::vector<uint16_t>{0x3E00, 0xC000, 0x2E66}));
  ParsedArgument b = parseInput(arg({3}, "bf16"), "[1.5, -2, 0.1]");
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_EQ(values<uint16_t>(b.data),
            (std::vector<uint16_t>{0x3FC0, 0xC000, 0x3DCD}));
  // Printed back as the numbers they hold.
  EXPECT_EQ(formatValues(h.data, elementTypeNamed("f16"), 8),
            "[1.5, -2, 0.0999756]");
  EXPECT_EQ(formatValues(b.data, elementTypeNamed("bf16"), 8),
            "[1.5, -2, 0.100098]");
  json::Value result = resultToJSON(h.data, arg({3}, "f16"));
  EXPECT_EQ(*result.getAsObject()->getArray("values"),
            (json::Array{1.5, -2.0, 0.0999755859375}));
}
