//===- SourceLocationsTest.cpp - from a line of IR to its source ---------===//
#include "StudioModel/IrText.h"
#include "StudioModel/SourceLocations.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace executor_studio::gui;
namespace fs = std::filesystem;

TEST(SourceLocations, ReadsFileLocationsInEveryKindOfLoc) {
  EXPECT_EQ(findSourceLocations(
                "%0 = arith.addi %a, %b : i32 loc(\"/src/kernel.py\":12:4)",
                nullptr),
            (std::vector<SourceLocation>{{"/src/kernel.py", 12, 4}}));
  // Fused, named and call-site locations: every file, in order, once.
  EXPECT_EQ(findSourceLocations(
                "%1 = arith.muli %0, %0 : i32 loc(fused[\"a.py\":3:1, "
                "\"x\"(\"b.py\":5:2), callsite(\"c.py\":1:2 at \"a.py\":3:1)])",
                nullptr),
            (std::vector<SourceLocation>{
                {"a.py", 3, 1}, {"b.py", 5, 2}, {"c.py", 1, 2}}));
  // Text outside loc(...) is the op, even when it looks like a location.
  EXPECT_TRUE(findSourceLocations(
                  "func.func @f() attributes {s = \"k.py\":1:2} {", nullptr)
                  .empty());
  EXPECT_TRUE(findSourceLocations("%2 = arith.constant 1 : i32 loc(unknown)",
                                  nullptr)
                  .empty());
}

TEST(SourceLocations, ResolvesLocationAliasesOfTheSameText) {
  TextLines text = TextLines::prepare(
      "module {\n"
      "  %0 = arith.addi %a, %b : i32 loc(#loc2)\n"
      "} loc(#loc)\n"
      "#loc = loc(\"host.mlir\":1:1)\n"
      "#loc1 = loc(\"kernel.py\":7:9)\n"
      "#loc2 = loc(callsite(#loc1 at #loc))\n");
  EXPECT_EQ(findSourceLocations(text.line(1), &text),
            (std::vector<SourceLocation>{{"kernel.py", 7, 9},
                                         {"host.mlir", 1, 1}}));
  // Without the text the alias stays unresolved.
  EXPECT_TRUE(findSourceLocations(text.line(1), nullptr).empty());
  // An alias that names itself ends.
  TextLines loop = TextLines::prepare("x loc(#a)\n#a = loc(fused[#a])\n");
  EXPECT_TRUE(findSourceLocations(loop.line(0), &loop).empty());
}

TEST(SourceLocations, GoesToTheFirstFileOnDisk) {
  fs::path dir = fs::temp_directory_path() / "studio-source-locations";
  fs::remove_all(dir);
  fs::create_directories(dir / "src");
  std::ofstream(dir / "src" / "kernel.py") << "import catalyst\n\ndef f():\n    pass\n";
  std::string line = "%0 = arith.addi %a, %b : i32 loc(fused[\"/no/such.py\":1:1, "
                     "\"src/kernel.py\":3:5])";
  std::optional<SourceLocation> found =
      findSourceOnDisk(line, nullptr, dir.string());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->file, (dir / "src" / "kernel.py").string());
  EXPECT_EQ(found->line, 3u);
  EXPECT_EQ(found->column, 5u);
  std::optional<std::vector<std::string>> lines = readSourceLines(found->file);
  ASSERT_TRUE(lines);
  ASSERT_EQ(lines->size(), 4u);
  EXPECT_EQ((*lines)[found->line - 1], "def f():");
  // Nothing on disk: no source to go to.
  EXPECT_FALSE(findSourceOnDisk("x loc(\"/no/such.py\":1:1)", nullptr,
                                dir.string()));
  EXPECT_FALSE(readSourceLines((dir / "missing.py").string()));
  fs::remove_all(dir);
}

TEST(SourceLocations, ALineOfTheFileIsNotALineOfThePrintedInput) {
  // The file: a comment, a blank line and an op in generic form before the
  // op of line 5; printed, the ops are on lines 2 and 3 and name their
  // places through aliases.
  std::string file = "// a comment\n"
                     "\n"
                     "%a = \"arith.constant\"() <{value = 1 : i32}> : () -> i32\n"
                     "\n"
                     "%b = arith.addi %a, %a : i32   %c = arith.muli %b, %b : i32\n";
  std::string printed = "module {\n"
                        "  %0 = arith.constant 1 : i32 loc(#loc1)\n"
                        "  %1 = arith.addi %0, %0 : i32 loc(#loc2)\n"
                        "  %2 = arith.muli %1, %1 : i32 loc(#loc3)\n"
                        "}\n"
                        "#loc1 = loc(\"/home/u/prog.mlir\":3:1)\n"
                        "#loc2 = loc(\"/home/u/prog.mlir\":5:1)\n"
                        "#loc3 = loc(\"/home/u/prog.mlir\":5:34)\n";
  std::string why;
  // Line 5 of the file: both of its ops; with a column, the one there.
  std::vector<SourceLocation> both =
      findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 5, 0, why);
  ASSERT_EQ(both.size(), 2u) << why;
  EXPECT_EQ(both[0].line, 5u);
  EXPECT_EQ(both[0].column, 1u);
  EXPECT_EQ(both[1].column, 34u);
  std::vector<SourceLocation> second =
      findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 5, 40, why);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].column, 34u);
  std::vector<SourceLocation> first =
      findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 5, 10, why);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].column, 1u);
  // The generic form's op, by its line in the file (3), not in the print (2).
  std::vector<SourceLocation> constant =
      findOpsAtFileLine(printed, "prog.mlir", file, 3, 0, why);
  ASSERT_EQ(constant.size(), 1u) << why;
  EXPECT_EQ(constant[0].line, 3u);
  EXPECT_TRUE(findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 2, 0, why).empty());
  EXPECT_EQ(why, "line 2 of prog.mlir holds no op: ``");
  EXPECT_TRUE(findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 1, 0, why).empty());
  EXPECT_EQ(why, "line 1 of prog.mlir holds no op: `// a comment`");
  EXPECT_TRUE(findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 6, 0, why).empty());
  EXPECT_EQ(why, "line 6 is past the end of prog.mlir (5 lines)");
  EXPECT_TRUE(findOpsAtFileLine(printed, "/home/u/prog.mlir", file, 0, 0, why).empty());
  EXPECT_EQ(why, "lines are numbered from 1");
  // Another file's places at that line are not this file's ops.
  EXPECT_TRUE(findOpsAtFileLine(printed, "/home/u/other.mlir", file, 5, 0, why).empty());
}
