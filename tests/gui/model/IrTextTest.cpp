//===- IrTextTest.cpp - lines, SSA normalisation, locations ---------------===//
#include "StudioModel/IrText.h"
#include "StudioModel/LineDiff.h"
#include "StudioModel/Settings.h"

#include <gtest/gtest.h>

using namespace executor_studio::gui;

TEST(IrText, SplitsLinesAndRemembersWhereTheyCameFrom) {
  TextLines lines = TextLines::prepare("a\nbb\n\nccc\n");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.line(0), "a");
  EXPECT_EQ(lines.line(1), "bb");
  EXPECT_EQ(lines.line(2), "");
  EXPECT_EQ(lines.line(3), "ccc");
  EXPECT_EQ(lines.sourceLine(3), 4u);
  EXPECT_EQ(lines.maxLength(), 3u);
  EXPECT_EQ(TextLines::prepare("x").size(), 1u);
  EXPECT_EQ(TextLines::prepare("").size(), 0u);
  EXPECT_EQ(TextLines::prepare("x\r\ny").line(0), "x");
}

TEST(IrText, HidesLocations) {
  LineOptions options;
  options.hideLocations = true;
  TextLines lines = TextLines::prepare(
      "#loc = loc(\"a.mlir\":1:1)\n"
      "%0 = arith.addi %a, %b : i32 loc(#loc1)\n"
      "func.func @f() attributes {s = \"loc(kept)\"} {\n"
      "  return loc(fused[\"a.mlir\":2:3, \"b\"(\"x\")])\n"
      "#loc1 = loc(\"a.mlir\":2:3)\n",
      options);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines.line(0), "%0 = arith.addi %a, %b : i32");
  EXPECT_EQ(lines.line(1), "func.func @f() attributes {s = \"loc(kept)\"} {");
  EXPECT_EQ(lines.line(2), "  return");
  EXPECT_EQ(lines.sourceLine(0), 2u);
  EXPECT_EQ(lines.sourceLine(2), 4u);
  EXPECT_EQ(lines.indexOfSourceLine(4), 2u);
  EXPECT_EQ(lines.indexOfSourceLine(5), 3u);
  EXPECT_TRUE(isLocationAlias("  #loc12 = loc(unknown)"));
  EXPECT_FALSE(isLocationAlias("%loc = arith.constant 0 : i32"));
  EXPECT_EQ(stripLocations("x = foo() {a = 1} loc(\"f\":1:2)"), "x = foo() {a = 1}");
  EXPECT_EQ(stripLocations("allocated = 1"), "allocated = 1");
}

TEST(IrText, NormalisesSsaNamesPerFunction) {
  LineOptions options;
  options.normaliseSsaNames = true;
  const char *a = "func.func @f(%arg0: i32) -> i32 {\n"
                  "  %c0_i32 = arith.constant 0 : i32\n"
                  "  %0 = arith.addi %arg0, %c0_i32 : i32\n"
                  "  cf.br ^bb1(%0 : i32)\n"
                  "^bb1(%1: i32):\n"
                  "  return %1 : i32\n"
                  "}\n"
                  "func.func @g(%x: i32) {\n"
                  "  %r:2 = \"t.two\"(%x) {s = \"%notavalue\"} : (i32) -> (i32, i32)\n"
                  "  \"t.use\"(%r#1) : (i32) -> ()\n";
  const char *b = "func.func @f(%a: i32) -> i32 {\n"
                  "  %zero = arith.constant 0 : i32\n"
                  "  %sum = arith.addi %a, %zero : i32\n"
                  "  cf.br ^bb7(%sum : i32)\n"
                  "^bb7(%v: i32):\n"
                  "  return %v : i32\n"
                  "}\n"
                  "func.func @g(%arg0: i32) {\n"
                  "  %0:2 = \"t.two\"(%arg0) {s = \"%notavalue\"} : (i32) -> (i32, i32)\n"
                  "  \"t.use\"(%0#1) : (i32) -> ()\n";
  TextLines la = TextLines::prepare(a, options), lb = TextLines::prepare(b, options);
  ASSERT_EQ(la.size(), lb.size());
  for (size_t i = 0; i < la.size(); ++i)
    EXPECT_EQ(la.line(i), lb.line(i)) << i;
  EXPECT_EQ(la.line(2), "  %v1 = arith.addi %v0, %c[0 : i32] : i32");
  EXPECT_EQ(la.line(4), "^b0(%v2: i32):");
  // Numbering restarts at @g; strings keep their text; #N result numbers stay.
  EXPECT_EQ(la.line(7), "func.func @g(%v0: i32) {");
  EXPECT_EQ(la.line(8),
            "  %v1:2 = \"t.two\"(%v0) {s = \"%notavalue\"} : (i32) -> (i32, i32)");
  EXPECT_EQ(la.line(9), "  \"t.use\"(%v1#1) : (i32) -> ()");
}

TEST(IrText, FindsTheOperationOfALine) {
  EXPECT_EQ(opNameOfLine("  %0 = arith.addi %a, %b : i32"), "arith.addi");
  EXPECT_EQ(opNameOfLine("%a, %b:2 = test.op"), "test.op");
  EXPECT_EQ(opNameOfLine("  func.func @f(%x: i32) {"), "func.func");
  EXPECT_EQ(opNameOfLine("  \"foo.bar\"() : () -> ()"), "foo.bar");
  EXPECT_EQ(opNameOfLine("    return %0 : i32"), "return");
  EXPECT_EQ(opNameOfLine("  }"), "");
  EXPECT_EQ(opNameOfLine("^bb0(%in: f64, %out: f64):"), "");
  EXPECT_EQ(opNameOfLine(""), "");
  EXPECT_TRUE(lineHasOp("    return %0 : i32", "func.return"));
  EXPECT_TRUE(lineHasOp("%0 = arith.addi %a, %b : i32", "arith.addi"));
  EXPECT_FALSE(lineHasOp("%0 = arith.addi %a, %b : i32", "arith.add"));
  EXPECT_FALSE(lineHasOp("%0 = arith.addi %a, %b : i32", "addi"));
}

TEST(IrText, SearchesCaseInsensitively) {
  EXPECT_EQ(findCaseInsensitive("Hello World", "world"), 6u);
  EXPECT_EQ(findCaseInsensitive("Hello World", "WORLDS"), std::string_view::npos);
  EXPECT_EQ(findCaseInsensitive("aaa", "a", 1), 1u);
  EXPECT_EQ(findCaseInsensitive("", "a"), std::string_view::npos);
}

TEST(IrText, NormalisedConstantsAreNamedAfterTheirValue) {
  // What lowering does: the constants move to the top and every value is
  // renumbered; normalised, only the moved constant lines differ.
  LineOptions options;
  options.normaliseSsaNames = true;
  const char *before = "func.func @f(%arg0: i64) -> i64 {\n"
                       "  %0 = llvm.mul %arg0, %arg0 : i64\n"
                       "  %1 = llvm.mlir.constant(3 : i64) : i64\n"
                       "  %2 = llvm.add %0, %1 : i64\n"
                       "  return %2 : i64\n";
  const char *after = "func.func @f(%arg0: i64) -> i64 {\n"
                      "  %0 = llvm.mlir.constant(3 : i64) : i64\n"
                      "  %1 = llvm.mul %arg0, %arg0 : i64\n"
                      "  %2 = llvm.add %1, %0 : i64\n"
                      "  return %2 : i64\n";
  TextLines a = TextLines::prepare(before, options), b = TextLines::prepare(after, options);
  EXPECT_EQ(a.line(1), b.line(2)) << a.line(1) << " vs " << b.line(2);
  EXPECT_EQ(a.line(3), b.line(3)) << a.line(3) << " vs " << b.line(3);
  EXPECT_EQ(a.line(2), b.line(1));
  EXPECT_NE(std::string(a.line(3)).find("%c[(3 : i64) : i64]"), std::string::npos)
      << a.line(3);
  LineDiff diff = diffLines(a, b);
  EXPECT_EQ(diff.added, 1u);
  EXPECT_EQ(diff.removed, 1u);
  // Off, every line after the first differs.
  LineOptions plain;
  plain.normaliseSsaNames = false;
  LineDiff raw = diffLines(TextLines::prepare(before, plain), TextLines::prepare(after, plain));
  EXPECT_GT(raw.added, 1u);
  EXPECT_TRUE(Settings().normaliseSsaNames) << "the studio normalises by default";
}

TEST(IrText, ExpandsTabsOfAssemblyToColumnsOfEight) {
  // The views draw no tabs: `\t.globl\ttwice` would lose its layout.
  TextLines lines = TextLines::prepare("\t.globl\ttwice\ntwice:\n\tfadd\tv0.2d, v0.2d\n");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines.line(0), "        .globl  twice");
  EXPECT_EQ(lines.line(1), "twice:");
  EXPECT_EQ(lines.line(2), "        fadd    v0.2d, v0.2d");
}

TEST(IrText, ClassifiesTheTokensTheViewsColour) {
  std::string_view line =
      "  %r:2 = \"t.two\"(%x#1) {s = \"a\"} : (tensor<4xf32>) -> !t.t // c";
  std::vector<IrSpan> spans;
  classifyLine(line, spans);
  auto kindAt = [&](std::string_view piece) {
    size_t at = line.find(piece);
    for (const IrSpan &span : spans)
      if (span.begin == at && span.end == at + piece.size())
        return span.kind;
    ADD_FAILURE() << "no span for '" << piece << "'";
    return IrTokenClass::Text;
  };
  EXPECT_EQ(kindAt("%r"), IrTokenClass::Value);
  EXPECT_EQ(kindAt("\"t.two\""), IrTokenClass::String); // a generic op's name
  EXPECT_EQ(kindAt("%x"), IrTokenClass::Value);
  EXPECT_EQ(kindAt("#1"), IrTokenClass::Alias);
  EXPECT_EQ(kindAt("tensor"), IrTokenClass::Type);
  EXPECT_EQ(kindAt("4xf32"), IrTokenClass::Number);
  EXPECT_EQ(kindAt("!t.t"), IrTokenClass::Alias);
  EXPECT_EQ(kindAt("// c"), IrTokenClass::Comment);
  for (const IrSpan &span : spans)
    EXPECT_NE(line[span.begin], ' ') << "white space is in no span";

  classifyLine("^bb1(%a: i32): func.call @f(%a) : (i32) -> () -1", spans);
  ASSERT_GE(spans.size(), 3u);
  EXPECT_EQ(spans[0].kind, IrTokenClass::Block);
  classifyLine("%0 = arith.addi %a, %b : i32", spans);
  ASSERT_GE(spans.size(), 3u);
  EXPECT_EQ(spans[2].kind, IrTokenClass::Op);
  EXPECT_EQ(spans[2].end - spans[2].begin, std::string_view("arith.addi").size());
  EXPECT_EQ(spans.back().kind, IrTokenClass::Type);
}
