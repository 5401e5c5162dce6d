//===- StructuralDiffTest.cpp - names aligned by matching operations ------===//
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace executor_studio;

namespace {

AlignedSnapshots align(const std::string &left, const std::string &right) {
  llvm::Expected<AlignedSnapshots> aligned = alignSnapshots(left, right);
  if (!aligned) {
    ADD_FAILURE() << llvm::toString(aligned.takeError());
    return {};
  }
  return std::move(*aligned);
}

/// Whether `text` parses and verifies with executor-opt's dialects.
std::string parseError(const std::string &text) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects(true);
  std::string error;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    error += diag.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module && error.empty())
    error = "did not parse";
  return error;
}

} // namespace

TEST(StructuralDiff, AnInsertedOpRenumbersNothingElse) {
  std::string left = R"(module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.muli %0, %0 : i32
    return %1 : i32
  }
}
)";
  std::string right = R"(module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = arith.constant 7 : i32
    %1 = arith.addi %arg0, %arg0 : i32
    %2 = arith.muli %1, %1 : i32
    %3 = arith.addi %2, %0 : i32
    return %3 : i32
  }
}
)";
  AlignedSnapshots aligned = align(left, right);
  EXPECT_EQ(aligned.left, left);
  // addi and muli keep their names; the new constant and the new addi get
  // names the left does not use, so that no line pretends to be an old one.
  EXPECT_EQ(aligned.right, R"(module {
  func.func @f(%arg0: i32) -> i32 {
    %2 = arith.constant 7 : i32
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.muli %0, %0 : i32
    %3 = arith.addi %1, %2 : i32
    return %3 : i32
  }
}
)");
  EXPECT_EQ(aligned.leftOps, 5u);
  EXPECT_EQ(aligned.rightOps, 7u);
  // module, func, addi, muli, return; the second addi matches the return's
  // slot only by kind: nothing else of its kind is left.
  EXPECT_GE(aligned.matchedOps, 5u);
  EXPECT_EQ(parseError(aligned.right), "");
}

TEST(StructuralDiff, KeepsTheNamesTheTextGives) {
  std::string left = R"(func.func @f(%x: f64, %y: f64) -> f64 {
  %sum = arith.addf %x, %y : f64
  %twice = arith.addf %sum, %sum : f64
  return %twice : f64
}
)";
  std::string right = R"(func.func @f(%x: f64, %y: f64) -> f64 {
  %half = arith.constant 5.000000e-01 : f64
  %sum = arith.addf %x, %y : f64
  %scaled = arith.mulf %sum, %half : f64
  %twice = arith.addf %scaled, %scaled : f64
  return %twice : f64
}
)";
  AlignedSnapshots aligned = align(left, right);
  // Every name is the user's; nothing needed renaming.
  EXPECT_EQ(aligned.right, right);
  EXPECT_EQ(aligned.renamed, 0u);
}

TEST(StructuralDiff, LocationsMatchFirst) {
  // The right inserts a constant of the same kind before the one it keeps:
  // the locations say which is which.
  std::string left = R"(func.func @f() -> i32 {
  %0 = arith.constant 1 : i32 loc("a.mlir":3:5)
  return %0 : i32 loc("a.mlir":4:3)
}
)";
  std::string right = R"(func.func @f() -> i32 {
  %0 = arith.constant 2 : i32 loc("a.mlir":9:5)
  %1 = arith.constant 1 : i32 loc("a.mlir":3:5)
  %2 = arith.addi %0, %1 : i32 loc("a.mlir":9:9)
  return %2 : i32 loc("a.mlir":4:3)
}
)";
  AlignedSnapshots aligned = align(left, right);
  EXPECT_EQ(aligned.right, R"(func.func @f() -> i32 {
  %1 = arith.constant 2 : i32 loc("a.mlir":9:5)
  %0 = arith.constant 1 : i32 loc("a.mlir":3:5)
  %2 = arith.addi %1, %0 : i32 loc("a.mlir":9:9)
  return %2 : i32 loc("a.mlir":4:3)
}
)");
  EXPECT_EQ(parseError(aligned.right), "");
}

TEST(StructuralDiff, RegionsBlocksAndResultGroups) {
  std::string left = R"(func.func @f(%n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:2 = "test.pair"() : () -> (i32, i32)
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0#0) -> (i32) {
    %2 = arith.addi %acc, %0#1 : i32
    scf.yield %2 : i32
  }
  cf.br ^bb1(%1 : i32)
^bb1(%r: i32):
  return %r, %0#1 : i32, i32
}
)";
  // A pass inserts an op before the pair, one in the loop and a block.
  std::string right = R"(func.func @f(%n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = "test.new"() : () -> i32
  %1:2 = "test.pair"() : () -> (i32, i32)
  %2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %1#0) -> (i32) {
    %3 = "test.new"() : () -> i32
    %4 = arith.addi %acc, %1#1 : i32
    scf.yield %4 : i32
  }
  cf.br ^bb1
^bb1:
  cf.br ^bb2(%2 : i32)
^bb2(%r: i32):
  return %r, %1#1 : i32, i32
}
)";
  AlignedSnapshots aligned = align(left, right);
  EXPECT_EQ(parseError(aligned.right), "");
  llvm::StringRef text = aligned.right;
  EXPECT_TRUE(text.contains("  %0:2 = \"test.pair\"()")) << aligned.right;
  EXPECT_TRUE(text.contains("iter_args(%acc = %0#0)")) << aligned.right;
  EXPECT_TRUE(text.contains("    %2 = arith.addi %acc, %0#1 : i32\n    scf.yield %2 : i32"))
      << aligned.right;
  EXPECT_TRUE(text.contains("  %1 = scf.for")) << aligned.right;
  EXPECT_TRUE(text.contains("return %r, %0#1 : i32, i32")) << aligned.right;
}

TEST(StructuralDiff, ASnapshotThatDoesNotParseIsNamed) {
  llvm::Expected<AlignedSnapshots> aligned =
      alignSnapshots("func.func @f() {\n  return\n}\n", "func.func @f() {\n  %0 = \n}\n");
  ASSERT_FALSE(aligned);
  std::string message = llvm::toString(aligned.takeError());
  EXPECT_NE(message.find("the right snapshot does not parse: line 2: expected operation name"), std::string::npos)
      << message;
}

TEST(StructuralDiff, DeepNestingIsRefused) {
  std::string deep(5000, '(');
  llvm::Expected<AlignedSnapshots> aligned = alignSnapshots(deep, "");
  ASSERT_FALSE(aligned);
  std::string message = llvm::toString(aligned.takeError());
  EXPECT_NE(message.find("the left snapshot nests deeper than"), std::string::npos) << message;
}

//===----------------------------------------------------------------------===//
// Issue 37 item 1: only what the pass changed. The right texts below are
// what MLIR's printer prints after the change: it numbers a region's own
// values before its nested regions', and sibling regions reuse names, so an
// op inserted at the top of a function renumbers every loop below it.
//===----------------------------------------------------------------------===//

namespace {

/// The lines an LCS line diff of the aligned texts removes and adds.
struct ChangedLines {
  std::vector<std::string> removed, added;
};

ChangedLines changedLines(const std::string &left, const std::string &right) {
  auto split = [](const std::string &text) {
    std::vector<std::string> lines;
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(text).split(parts, '\n');
    for (llvm::StringRef part : parts)
      lines.push_back(part.str());
    return lines;
  };
  std::vector<std::string> a = split(left), b = split(right);
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
  ChangedLines changed;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i, ++j;
    } else if (j < b.size() && (i == a.size() || t[i][j + 1] >= t[i + 1][j])) {
      changed.added.push_back(b[j++]);
    } else {
      changed.removed.push_back(a[i++]);
    }
  }
  return changed;
}

/// A host with a helper, two sibling loops filling its arguments (the
/// second with a nested loop and an scf.if) and a launch, as printed.
const char *const kHost = R"(module {
  func.func @a(%arg0: index) -> index {
    %c1 = arith.constant 1 : index
    %0 = arith.addi %arg0, %c1 : index
    return %0 : index
  }
  func.func @main(%arg0: memref<8xi32>, %arg1: memref<8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %arg2 = %c0 to %c8 step %c1 {
      %1 = arith.index_cast %arg2 : index to i32
      memref.store %1, %arg0[%arg2] : memref<8xi32>
    }
    scf.for %arg2 = %c0 to %c8 step %c2 {
      scf.for %arg3 = %c0 to %c2 step %c1 {
        %1 = arith.addi %arg2, %arg3 : index
        %2 = arith.remui %1, %c2 : index
        %3 = arith.cmpi eq, %2, %c0 : index
        %4 = scf.if %3 -> (i32) {
          %5 = arith.index_cast %1 : index to i32
          scf.yield %5 : i32
        } else {
          %5 = arith.index_cast %arg3 : index to i32
          scf.yield %5 : i32
        }
        memref.store %4, %arg1[%1] : memref<8xi32>
      }
    }
    %0 = "test.launch"(%arg0, %arg1) : (memref<8xi32>, memref<8xi32>) -> i32
    return
  }
}
)";

/// kHost as printed after a pass opened a session at the top of @main:
/// the printer renumbered the launch (%0 -> %1) and every value in both
/// loops (%1 -> %2, ...).
const char *const kHostOpened = R"(module {
  func.func @a(%arg0: index) -> index {
    %c1 = arith.constant 1 : index
    %0 = arith.addi %arg0, %c1 : index
    return %0 : index
  }
  func.func @main(%arg0: memref<8xi32>, %arg1: memref<8xi32>) {
    %0 = "test.open"() : () -> i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %arg2 = %c0 to %c8 step %c1 {
      %2 = arith.index_cast %arg2 : index to i32
      memref.store %2, %arg0[%arg2] : memref<8xi32>
    }
    scf.for %arg2 = %c0 to %c8 step %c2 {
      scf.for %arg3 = %c0 to %c2 step %c1 {
        %2 = arith.addi %arg2, %arg3 : index
        %3 = arith.remui %2, %c2 : index
        %4 = arith.cmpi eq, %3, %c0 : index
        %5 = scf.if %4 -> (i32) {
          %6 = arith.index_cast %2 : index to i32
          scf.yield %6 : i32
        } else {
          %6 = arith.index_cast %arg3 : index to i32
          scf.yield %6 : i32
        }
        memref.store %5, %arg1[%2] : memref<8xi32>
      }
    }
    %1 = "test.launch"(%arg0, %arg1) : (memref<8xi32>, memref<8xi32>) -> i32
    return
  }
}
)";

/// `text` with its one occurrence of `from` replaced by `to`.
std::string replacedOnce(std::string text, const std::string &from,
                         const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

} // namespace

TEST(StructuralDiff, AnInsertionThatRenumbersSiblingLoopsChangesOnlyItsLine) {
  std::string right = kHostOpened;
  // A plain line diff: every renumbered line.
  ChangedLines plain = changedLines(kHost, right);
  EXPECT_EQ(plain.added.size(), 13u);
  AlignedSnapshots aligned = align(kHost, right);
  EXPECT_EQ(parseError(aligned.right), "");
  ChangedLines changed = changedLines(aligned.left, aligned.right);
  EXPECT_TRUE(changed.removed.empty()) << aligned.right;
  ASSERT_EQ(changed.added.size(), 1u) << aligned.right;
  // A name the left does not use, so that it does not pass for an old value.
  EXPECT_EQ(changed.added[0], "    %6 = \"test.open\"() : () -> i64");
}

TEST(StructuralDiff, ARenameInsideOneLoopLeavesItsSiblingAlone) {
  // A pass inserts an op in the first loop only: the printer shifts that
  // loop's names, and the sibling keeps the same numbers for other values.
  std::string right = R"(module {
  func.func @a(%arg0: index) -> index {
    %c1 = arith.constant 1 : index
    %0 = arith.addi %arg0, %c1 : index
    return %0 : index
  }
  func.func @main(%arg0: memref<8xi32>, %arg1: memref<8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %arg2 = %c0 to %c8 step %c1 {
      %1 = "test.trace"(%arg2) : (index) -> i1
      %2 = arith.index_cast %arg2 : index to i32
      memref.store %2, %arg0[%arg2] : memref<8xi32>
    }
    scf.for %arg2 = %c0 to %c8 step %c2 {
      scf.for %arg3 = %c0 to %c2 step %c1 {
        %1 = arith.addi %arg2, %arg3 : index
        %2 = arith.remui %1, %c2 : index
        %3 = arith.cmpi eq, %2, %c0 : index
        %4 = scf.if %3 -> (i32) {
          %5 = arith.index_cast %1 : index to i32
          scf.yield %5 : i32
        } else {
          %5 = arith.index_cast %arg3 : index to i32
          scf.yield %5 : i32
        }
        memref.store %4, %arg1[%1] : memref<8xi32>
      }
    }
    %0 = "test.launch"(%arg0, %arg1) : (memref<8xi32>, memref<8xi32>) -> i32
    return
  }
}
)";
  AlignedSnapshots aligned = align(kHost, right);
  EXPECT_EQ(parseError(aligned.right), "");
  ChangedLines changed = changedLines(aligned.left, aligned.right);
  EXPECT_TRUE(changed.removed.empty()) << aligned.right;
  ASSERT_EQ(changed.added.size(), 1u) << aligned.right;
  EXPECT_NE(changed.added[0].find("\"test.trace\"(%arg2)"), std::string::npos);
}

TEST(StructuralDiff, AMovedFunctionIsNotAChange) {
  // A pass moves @a after @main (and renames nothing): the same functions.
  std::string host = kHost;
  size_t aBegin = host.find("  func.func @a");
  size_t mainBegin = host.find("  func.func @main");
  size_t mainEnd = host.rfind("  }\n") + 4;
  std::string right = host.substr(0, aBegin) + host.substr(mainBegin, mainEnd - mainBegin) +
                      host.substr(aBegin, mainBegin - aBegin) + host.substr(mainEnd);
  ASSERT_EQ(parseError(right), "");
  ChangedLines plain = changedLines(kHost, right);
  EXPECT_EQ(plain.removed.size(), 5u); // @a, out of place
  AlignedSnapshots aligned = align(kHost, right);
  EXPECT_EQ(aligned.moved, 1u);
  EXPECT_EQ(aligned.right, kHost);
  EXPECT_EQ(parseError(aligned.right), "");
  // Each aligned line says which printed line it shows: @a's five lines
  // (2-6 here) are the printed 31-35, @main's (7-35) the printed 2-30.
  auto lineOf = [](const std::string &text, llvm::StringRef needle) {
    return 1 + llvm::StringRef(text).substr(0, text.find(needle.str())).count('\n');
  };
  ASSERT_EQ(aligned.rightLineOrigins.size(), llvm::StringRef(right).count('\n'));
  EXPECT_EQ(aligned.rightLineOrigins[lineOf(kHost, "  func.func @a") - 1],
            lineOf(right, "  func.func @a"));
  EXPECT_EQ(aligned.rightLineOrigins[lineOf(kHost, "  func.func @main") - 1],
            lineOf(right, "  func.func @main"));
  EXPECT_EQ(aligned.rightLineOrigins.front(), 1u);
  EXPECT_EQ(aligned.rightLineOrigins.back(), aligned.rightLineOrigins.size());
  std::vector<uint32_t> sorted = aligned.rightLineOrigins;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    EXPECT_EQ(sorted[i], i + 1); // a permutation of the printed lines
  // Nothing moved: no map.
  EXPECT_TRUE(align(kHost, kHost).rightLineOrigins.empty());
}

TEST(StructuralDiff, AMovedFunctionAmongInsertedOnesKeepsTheNewOnesInPlace) {
  std::string left = R"(module {
  func.func @a() {
    return
  }
  func.func @b(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    return %0 : i32
  }
}
)";
  std::string right = R"(module {
  func.func @b(%arg0: i32) -> i32 {
    %0 = arith.muli %arg0, %arg0 : i32
    return %0 : i32
  }
  func.func @new() {
    return
  }
  func.func @a() {
    return
  }
}
)";
  AlignedSnapshots aligned = align(left, right);
  EXPECT_EQ(aligned.moved, 1u);
  EXPECT_EQ(parseError(aligned.right), "");
  ChangedLines changed = changedLines(aligned.left, aligned.right);
  // @b's addi became a muli; @new was inserted; @a only moved.
  EXPECT_EQ(changed.removed, std::vector<std::string>{"    %0 = arith.addi %arg0, %arg0 : i32"})
      << aligned.right;
  EXPECT_EQ(changed.added,
            (std::vector<std::string>{"    %0 = arith.muli %arg0, %arg0 : i32",
                                      "  func.func @new() {", "    return", "  }"}))
      << aligned.right;
  // @new stays after @b, which it followed.
  EXPECT_NE(aligned.right.find("    return %0 : i32\n  }\n  func.func @new() {"),
            std::string::npos)
      << aligned.right;
}

TEST(StructuralDiff, ARealChangeInALoopIsShown) {
  // The second loop stores into the other argument (an operand that is
  // another value) and @a's constant is 2 (an attribute): those two lines
  // and the inserted one, no more, though the printer renumbered everything
  // after the insertion. The addi that uses the constant is the same op on
  // the same operand: the constant keeps its left name and the addi's line
  // is unchanged.
  std::string right = replacedOnce(
      replacedOnce(kHostOpened,
                   "    %c1 = arith.constant 1 : index\n"
                   "    %0 = arith.addi %arg0, %c1",
                   "    %c2 = arith.constant 2 : index\n"
                   "    %0 = arith.addi %arg0, %c2"),
      "memref.store %5, %arg1[%2]", "memref.store %5, %arg0[%2]");
  AlignedSnapshots aligned = align(kHost, right);
  EXPECT_EQ(parseError(aligned.right), "");
  ChangedLines changed = changedLines(aligned.left, aligned.right);
  EXPECT_EQ(changed.removed, (std::vector<std::string>{
                                 "    %c1 = arith.constant 1 : index",
                                 "        memref.store %4, %arg1[%1] : memref<8xi32>"}))
      << aligned.right;
  EXPECT_EQ(changed.added, (std::vector<std::string>{
                               "    %c1 = arith.constant 2 : index",
                               "    %6 = \"test.open\"() : () -> i64",
                               "        memref.store %4, %arg0[%1] : memref<8xi32>"}))
      << aligned.right;
}

TEST(StructuralDiff, AMovedFunctionWithLocationsIsPutBack) {
  // As the studio prints with locations: a location after each op and
  // after the module's closing brace, and the aliases at the end.
  std::string left = R"(module {
  func.func @a() {
    return loc(#loc1)
  } loc(#loc1)
  func.func @b(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc2)
    return %0 : i32 loc(#loc2)
  } loc(#loc2)
} loc(#loc)
#loc = loc("x.mlir":1:1)
#loc1 = loc("x.mlir":2:3)
#loc2 = loc("x.mlir":5:3)
)";
  std::string right = R"(module {
  func.func @b(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc2)
    return %0 : i32 loc(#loc2)
  } loc(#loc2)
  func.func @a() {
    return loc(#loc1)
  } loc(#loc1)
} loc(#loc)
#loc = loc("x.mlir":1:1)
#loc1 = loc("x.mlir":2:3)
#loc2 = loc("x.mlir":5:3)
)";
  AlignedSnapshots aligned = align(left, right);
  EXPECT_EQ(aligned.moved, 1u);
  EXPECT_EQ(aligned.right, left);
}
