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
