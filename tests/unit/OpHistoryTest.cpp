//===- OpHistoryTest.cpp - an op followed through a recording -------------===//
#include "ExecutorStudio/Pipeline/OpHistory.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"

#include "TargetPrograms.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

using namespace executor_studio;

namespace {
std::vector<unsigned> linesOf(llvm::StringRef text, SnapshotKind kind,
                              std::vector<SourcePlace> places) {
  return SnapshotPlaces(text, kind).linesOf(places);
}
} // namespace

TEST(OpHistory, PlacesMatchByLineColumnAndPathSuffix) {
  EXPECT_TRUE(samePlace({"a.mlir", 3, 5}, {"a.mlir", 3, 5}));
  EXPECT_TRUE(samePlace({"/tmp/x/a.mlir", 3, 5}, {"a.mlir", 3, 5}));
  EXPECT_TRUE(samePlace({"x/a.mlir", 3, 5}, {"/tmp/x/a.mlir", 3, 5}));
  EXPECT_FALSE(samePlace({"/tmp/xa.mlir", 3, 5}, {"a.mlir", 3, 5}));
  EXPECT_FALSE(samePlace({"a.mlir", 3, 5}, {"a.mlir", 3, 6}));
  EXPECT_FALSE(samePlace({"a.mlir", 4, 5}, {"a.mlir", 3, 5}));
  // A line table's function has a line only.
  EXPECT_TRUE(samePlace({"a.mlir", 3, 0}, {"a.mlir", 3, 5}));
}

TEST(OpHistory, MlirLinesNameTheirPlacesThroughAliasesAndFusedLocations) {
  const char *text = R"(module {
  %0 = arith.muli %a, %b : i32 loc(#loc2)
  %1 = arith.addi %0, %b : i32 loc(#loc4)
  %2 = "test.op"() : () -> i32 loc("direct.mlir":9:1)
  %3 = "test.named"() : () -> i32 loc("name"("n.py":1:2))
} loc(#loc)
#loc = loc("in.mlir":1:1)
#loc2 = loc("in.mlir":5:8)
#loc3 = loc("prog.py":12:4)
#loc4 = loc(fused[#loc2, #loc3])
)";
  SnapshotPlaces places(text, SnapshotKind::MLIR);
  ASSERT_EQ(places.size(), 10u);
  std::vector<SourcePlace> fused = places.placesOfLine(2);
  ASSERT_EQ(fused.size(), 2u);
  EXPECT_EQ(fused[0], (SourcePlace{"in.mlir", 5, 8}));
  EXPECT_EQ(fused[1], (SourcePlace{"prog.py", 12, 4}));
  EXPECT_EQ(places.placesOfLine(3), (std::vector<SourcePlace>{{"direct.mlir", 9, 1}}));
  EXPECT_EQ(places.placesOfLine(4), (std::vector<SourcePlace>{{"n.py", 1, 2}}));
  // An alias's own line is no op.
  EXPECT_TRUE(places.placesOfLine(7).empty());
  EXPECT_TRUE(places.placesOfLine(99).empty());
  // The muli and the add fused from it.
  EXPECT_EQ(places.linesOf({{"in.mlir", 5, 8}}), (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(places.linesOf({{"prog.py", 12, 4}}), (std::vector<unsigned>{2}));
  EXPECT_TRUE(places.linesOf({{"in.mlir", 5, 9}}).empty());
}

TEST(OpHistory, LlvmIrInstructionsNameTheirDebugLocations) {
  const char *text = R"(define void @k(ptr %0) !dbg !3 {
  %2 = load double, ptr %0, align 8, !dbg !6
  %3 = fmul double %2, %2, !dbg !7
  store double %3, ptr %0, align 8, !dbg !9
  ret void, !dbg !10
}

!llvm.dbg.cu = !{!0}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "MLIR", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.mlir", directory: "/work/src")
!3 = distinct !DISubprogram(name: "k", linkageName: "k", scope: !1, file: !1, line: 4, type: !4, scopeLine: 4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DILocation(line: 5, column: 10, scope: !3)
!7 = !DILocation(line: 6, column: 10, scope: !8)
!8 = distinct !DILexicalBlockFile(scope: !3, file: !11, discriminator: 0)
!9 = !DILocation(line: 7, column: 5, scope: !3, inlinedAt: !6)
!10 = !DILocation(line: 8, column: 5, scope: !3)
!11 = !DIFile(filename: "/abs/prog.py", directory: "/ignored")
)";
  SnapshotPlaces places(text, SnapshotKind::LLVMIR);
  EXPECT_EQ(places.placesOfLine(1),
            (std::vector<SourcePlace>{{"/work/src/k.mlir", 5, 10}}));
  // A lexical block's own file; an absolute name keeps its path.
  EXPECT_EQ(places.placesOfLine(2), (std::vector<SourcePlace>{{"/abs/prog.py", 6, 10}}));
  // Inlined: also the place it was inlined at.
  EXPECT_EQ(places.placesOfLine(3),
            (std::vector<SourcePlace>{{"/work/src/k.mlir", 7, 5}, {"/work/src/k.mlir", 5, 10}}));
  // The function's line, any column.
  EXPECT_EQ(places.placesOfLine(0), (std::vector<SourcePlace>{{"/work/src/k.mlir", 4, 0}}));
  // Metadata is no code.
  EXPECT_TRUE(places.placesOfLine(12).empty());
  EXPECT_EQ(places.linesOf({{"k.mlir", 5, 10}}), (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(places.linesOf({{"src/k.mlir", 4, 3}}), (std::vector<unsigned>{0}));
  EXPECT_TRUE(places.linesOf({{"other.mlir", 5, 10}}).empty());
}

// Node numbers are text: the two largest are the index's own empty and
// tombstone keys, which name no node (before, inserting one corrupted the
// index); the largest a node can have still works.
TEST(OpHistory, MetadataNumberedAsTheIndexsSentinelsNamesNothing) {
  const char *text = R"(define void @k(ptr %0) {
  %2 = load double, ptr %0, align 8, !dbg !4294967295
  %3 = load double, ptr %0, align 8, !dbg !4294967294
  %4 = load double, ptr %0, align 8, !dbg !4294967293
  ret void
}
!4294967295 = !DILocation(line: 5, column: 10, scope: !4294967292)
!4294967294 = !DILocation(line: 6, column: 10, scope: !4294967292)
!4294967293 = !DILocation(line: 7, column: 10, scope: !4294967292)
!4294967292 = distinct !DISubprogram(name: "k", scope: !4294967291, file: !4294967291, line: 4, scopeLine: 4)
!4294967291 = !DIFile(filename: "k.mlir", directory: "/w")
)";
  SnapshotPlaces places(text, SnapshotKind::LLVMIR);
  EXPECT_TRUE(places.placesOfLine(1).empty());
  EXPECT_TRUE(places.placesOfLine(2).empty());
  EXPECT_EQ(places.placesOfLine(3), (std::vector<SourcePlace>{{"/w/k.mlir", 7, 10}}));
}

TEST(OpHistory, AssemblyInstructionsFollowTheirLocDirective) {
  const char *text = R"(	.text
	.file	"k"
	.globl	k
k:
.Lfunc_begin0:
	.file	1 "/work/src" "k.mlir"
	.loc	1 4 0
	.cfi_startproc
// %bb.0:
	.loc	1 5 10 prologue_end
	ldr	d0, [x0]
	.loc	1 6 10
	fmul	d0, d0, d0
	str	d0, [x0]
	ret
.Ltmp0:
	.cfi_endproc
	add	x0, x0, x0
)";
  SnapshotPlaces places(text, SnapshotKind::Assembly);
  EXPECT_EQ(places.placesOfLine(10), (std::vector<SourcePlace>{{"/work/src/k.mlir", 5, 10}}));
  EXPECT_EQ(places.placesOfLine(12), (std::vector<SourcePlace>{{"/work/src/k.mlir", 6, 10}}));
  // Directives, labels and comments hold no code.
  EXPECT_TRUE(places.placesOfLine(9).empty());
  EXPECT_TRUE(places.placesOfLine(3).empty());
  EXPECT_TRUE(places.placesOfLine(8).empty());
  // After the function's end, no place.
  EXPECT_TRUE(places.placesOfLine(17).empty());
  EXPECT_EQ(places.linesOf({{"k.mlir", 6, 10}}), (std::vector<unsigned>{12, 13, 14}));
  EXPECT_EQ(linesOf(text, SnapshotKind::Assembly, {{"k.mlir", 5, 10}}),
            (std::vector<unsigned>{10}));
}

namespace {
/// The mulf of @twice is at line 15, column 14.
const std::string kKernel = executor_test::twoTargetProgram("arith.mulf");
} // namespace

TEST(OpHistory, FollowsAKernelsOpDownToItsLlvmIrAndAssembly) {
  executor_test::Workspace ws("history");
  RecordOptions o;
  o.pipeline = ws.crossCompilePipeline(",cse");
  o.recordNested = true;
  o.printDebugInfo = true;
  Recording r = recordPipeline(kKernel, "hist.mlir", o);
  ASSERT_TRUE(r.succeeded);

  // The mulf: line 15, column 14 of the input (its name).
  std::vector<OpHistoryStep> history = opHistory(r, {{"hist.mlir", 15, 14}});
  ASSERT_GE(history.size(), 3u);
  EXPECT_EQ(history[0].snapshot, nullptr);
  ASSERT_EQ(history[0].lines.size(), 1u);
  SnapshotPlaces input(*r.inputIR, SnapshotKind::MLIR);
  EXPECT_NE(input.line(history[0].lines[0]).find("arith.mulf"), llvm::StringRef::npos);

  auto step = [&](llvm::StringRef pass) -> const OpHistoryStep * {
    for (const OpHistoryStep &s : history)
      if (s.snapshot && s.snapshot->pass == pass)
        return &s;
    return nullptr;
  };
  // The host's steps are listed; the kernel left the host (declarations).
  const OpHistoryStep *cross = step("cross-compile-targets");
  ASSERT_TRUE(cross);
  EXPECT_TRUE(cross->lines.empty());
  ASSERT_TRUE(step("cse"));
  // Inside the target, down to its LLVM IR and assembly.
  for (llvm::StringRef pass : {"arm/extracted", "arm/convert-arith-to-llvm", "arm/llvm",
                               "arm/llvm-opt", "arm/asm"}) {
    const OpHistoryStep *s = step(pass);
    ASSERT_TRUE(s) << pass.str();
    EXPECT_EQ(s->parent, cross->snapshot) << pass.str();
    ASSERT_FALSE(s->lines.empty()) << pass.str();
    SnapshotPlaces text(*s->snapshot->ir, s->snapshot->kind);
    bool mul = llvm::any_of(s->lines, [&](unsigned line) {
      return text.line(line).contains("mul");
    });
    EXPECT_TRUE(mul) << pass.str() << ": " << text.line(s->lines[0]).str();
  }
  // The other target has no such op: not listed.
  EXPECT_EQ(step("local/asm"), nullptr);
  EXPECT_EQ(step("local/extracted"), nullptr);
}

TEST(OpHistory, WithoutLocationsTheKernelsLlvmIrHasNoLineTable) {
  executor_test::Workspace ws("history");
  RecordOptions o;
  o.pipeline = ws.crossCompilePipeline();
  o.recordNested = true;
  Recording r = recordPipeline(kKernel, "hist.mlir", o);
  ASSERT_TRUE(r.succeeded);
  const Snapshot *ll = findSnapshot(r, "arm/llvm");
  ASSERT_TRUE(ll && ll->ir);
  EXPECT_EQ(ll->ir->find("!dbg"), std::string::npos);
  // Nothing names a place: the op is found nowhere.
  std::vector<OpHistoryStep> history = opHistory(r, {{"hist.mlir", 15, 14}});
  ASSERT_FALSE(history.empty());
  for (const OpHistoryStep &s : history)
    EXPECT_TRUE(s.lines.empty()) << (s.snapshot ? s.snapshot->pass : "input");
}
