//===- PipelineModelTest.cpp - stepping, diff, filters, search ------------===//
#include "StudioModel/PipelineModel.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "StudioModel/Studio.h"

#include "TargetPrograms.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace executor_studio;
using namespace executor_studio::gui;

using executor_test::kFoldingProgram;

namespace {
Recording record(const std::string &text, const std::string &pipeline) {
  RecordOptions options;
  options.pipeline = pipeline;
  return recordPipeline(text, "test.mlir", options);
}

/// cse (changes), canonicalize (changes), cse (nothing left), canonicalize.
PipelineModel stepper() {
  PipelineModel m;
  m.setSource(std::make_shared<const std::string>(kFoldingProgram), "test.mlir");
  m.setRecording(record(kFoldingProgram, "builtin.module(cse,canonicalize,cse,canonicalize)"));
  return m;
}

std::string rowsText(PipelineModel &m) {
  std::string s;
  for (size_t i = 0; i < m.rowCount(); ++i) {
    const DiffRow &r = m.row(i);
    const char *kind = r.kind == RowKind::Same      ? " "
                       : r.kind == RowKind::Changed ? "~"
                       : r.kind == RowKind::Removed ? "-"
                       : r.kind == RowKind::Added   ? "+"
                                                    : "@";
    s += std::string(kind) + std::string(m.leftText(r)) + " | " +
         std::string(m.rightText(r)) + "\n";
  }
  return s;
}
} // namespace

TEST(PipelineModel, StepsThroughPasses) {
  PipelineModel m = stepper();
  ASSERT_EQ(m.passCount(), 4u);
  EXPECT_EQ(m.selected(), 0);
  EXPECT_EQ(m.leftPosition(), kInputPosition);
  EXPECT_EQ(m.rightPosition(), 0);
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), 1);
  EXPECT_EQ(m.leftPosition(), 0);
  EXPECT_TRUE(m.last());
  EXPECT_EQ(m.selected(), 3);
  EXPECT_FALSE(m.next());
  EXPECT_TRUE(m.previous());
  EXPECT_EQ(m.selected(), 2);
  EXPECT_TRUE(m.first());
  EXPECT_EQ(m.selected(), 0);
  EXPECT_FALSE(m.previous());
  // Next changed skips the passes that changed nothing.
  EXPECT_TRUE(m.pass(0).changed);
  EXPECT_TRUE(m.pass(1).changed);
  EXPECT_FALSE(m.pass(2).changed);
  EXPECT_FALSE(m.pass(3).changed);
  EXPECT_TRUE(m.nextChanged());
  EXPECT_EQ(m.selected(), 1);
  EXPECT_FALSE(m.nextChanged());
  EXPECT_EQ(m.changedCount(), 2u);
  EXPECT_EQ(m.positionName(1), "2: canonicalize");
  EXPECT_EQ(m.positionName(kInputPosition), "input");
  m.select(99);
  EXPECT_EQ(m.selected(), 3);
}

TEST(PipelineModel, HidesUnchangedPassesAndFilters) {
  PipelineModel m = stepper();
  m.setHideUnchanged(true);
  EXPECT_EQ(m.shownPasses(), (std::vector<int>{0, 1}));
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), 1);
  EXPECT_FALSE(m.next()); // passes 2 and 3 are hidden
  m.setHideUnchanged(false);
  m.setPassFilter("CANON");
  EXPECT_EQ(m.shownPasses(), (std::vector<int>{1, 3}));
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), 3);
  m.select(0); // the selected pass stays in the list
  EXPECT_EQ(m.shownPasses(), (std::vector<int>{0, 1, 3}));
}

TEST(PipelineModel, DiffsBeforeAndAfterTheSelectedPass) {
  PipelineModel m = stepper();
  const DiffView &v = m.diffView();
  // cse merges %c into %b: one addi line goes away, and the muli that used
  // both now uses %b twice.
  EXPECT_TRUE(v.structural);
  EXPECT_EQ(v.diff.removed, 2u);
  EXPECT_EQ(v.diff.added, 1u);
  // The line diff also counts the lines whose values were renumbered.
  m.setStructural(false);
  EXPECT_EQ(m.diffView().diff.removed, 3u);
  EXPECT_FALSE(m.diffView().structural);
  m.setStructural(true);
  std::string text = rowsText(m);
  EXPECT_NE(text.find("arith.addi"), std::string::npos) << text;
  // An unchanged pass shows no difference.
  m.select(2);
  EXPECT_TRUE(m.diffView().diff.identical());
  for (size_t i = 0; i < m.rowCount(); ++i)
    EXPECT_EQ(m.row(i).kind, RowKind::Same);
  // Any two positions.
  m.compare(kInputPosition, 3);
  EXPECT_FALSE(m.comparesSelection());
  EXPECT_EQ(m.leftPosition(), kInputPosition);
  EXPECT_EQ(m.rightPosition(), 3);
  EXPECT_FALSE(m.diffView().diff.identical());
  m.next(); // stepping follows the selection again
  EXPECT_TRUE(m.comparesSelection());
}

TEST(PipelineModel, UnifiedRowsAndLineOptions) {
  PipelineModel m = stepper();
  m.setViewMode(ViewMode::Unified);
  std::string text = rowsText(m);
  EXPECT_NE(text.find("@"), std::string::npos) << text; // a hunk header
  EXPECT_NE(text.find("-    %1 = arith.addi"), std::string::npos) << text;
  m.setWholeFile(true);
  for (size_t i = 0; i < m.rowCount(); ++i)
    EXPECT_NE(m.row(i).kind, RowKind::Hunk);
  LineOptions options;
  options.normaliseSsaNames = true;
  m.setLineOptions(options);
  // Normalised names are for the line diff; the structural one keeps them.
  EXPECT_EQ(rowsText(m).find("%v"), std::string::npos);
  m.setStructural(false);
  EXPECT_NE(rowsText(m).find("%v"), std::string::npos);
}

TEST(PipelineModel, FiltersRowsByOperationOrText) {
  PipelineModel m = stepper();
  IrFilter byOp;
  byOp.text = "arith.addi";
  byOp.opName = true;
  m.setIrFilter(byOp);
  ASSERT_GT(m.rowCount(), 0u);
  for (size_t i = 0; i < m.rowCount(); ++i) {
    const DiffRow &r = m.row(i);
    EXPECT_TRUE(lineHasOp(m.leftText(r), "arith.addi") ||
                lineHasOp(m.rightText(r), "arith.addi"));
  }
  EXPECT_EQ(m.filterCount(kInputPosition), 2u);
  EXPECT_EQ(m.filterCount(0), 1u);
  EXPECT_EQ(m.filterCount(1), 0u);
  IrFilter byText;
  byText.text = "MULI";
  m.setIrFilter(byText);
  for (size_t i = 0; i < m.rowCount(); ++i) {
    const DiffRow &r = m.row(i);
    EXPECT_TRUE(findCaseInsensitive(m.leftText(r), "muli") != std::string_view::npos ||
                findCaseInsensitive(m.rightText(r), "muli") != std::string_view::npos);
  }
  m.setIrFilter({});
  EXPECT_GT(m.rowCount(), 5u);
}

TEST(PipelineModel, SearchWrapsAroundHits) {
  PipelineModel m = stepper();
  m.setSearch("ARITH.");
  const std::vector<uint32_t> &hits = m.searchHits();
  ASSERT_GE(hits.size(), 2u);
  std::vector<uint32_t> expected = hits;
  EXPECT_EQ(m.nextHit(), expected[0]);
  EXPECT_EQ(m.takeScrollRequest(), expected[0]);
  EXPECT_EQ(m.highlightedRow(), static_cast<long>(expected[0]));
  EXPECT_EQ(m.nextHit(), expected[1]);
  EXPECT_EQ(m.previousHit(), expected[0]);
  EXPECT_EQ(m.previousHit(), expected.back());
  m.setSearch("no such text");
  EXPECT_FALSE(m.nextHit().has_value());
}

TEST(PipelineModel, ParseErrorsShowTheSourceAtTheirLine) {
  const char *bad = "func.func @f() {\n  %0 = arith.constant 1 : i32\n  %1 = arith.addi %0, %nope : i32\n  return\n}\n";
  PipelineModel m;
  m.setSource(std::make_shared<const std::string>(bad), "bad.mlir");
  m.setRecording(record(bad, "builtin.module(cse)"));
  EXPECT_EQ(m.passCount(), 0u);
  ASSERT_FALSE(m.diagnostics().empty());
  const DiagnosticItem &d = m.diagnostics()[0];
  EXPECT_EQ(d.severity, RecordedDiagnostic::Severity::Error);
  EXPECT_EQ(d.line, 3u);
  EXPECT_EQ(d.snapshot, -1);
  EXPECT_EQ(m.errorCount(), 1u);
  EXPECT_EQ(m.viewMode(), ViewMode::Source);
  m.setViewMode(ViewMode::SideBySide);
  m.jumpTo(d);
  EXPECT_EQ(m.viewMode(), ViewMode::Source);
  m.refresh();
  EXPECT_EQ(m.takeScrollRequest(), 2u);
  EXPECT_EQ(m.highlightedRow(), 2);
  EXPECT_EQ(m.leftText(m.row(2)), "  %1 = arith.addi %0, %nope : i32");
  EXPECT_EQ(m.leftLineNumber(m.row(2)), 3u);
}

TEST(PipelineModel, PassDiagnosticsNameTheirSnapshot) {
  const char *text = "func.func @f() {\n  return\n}\n";
  PipelineModel m;
  m.setSource(std::make_shared<const std::string>(text), "x.mlir");
  // A pipeline whose second element fails: its text is wrong.
  m.setRecording(record(text, "builtin.module(no-such-pass)"));
  ASSERT_FALSE(m.diagnostics().empty());
  EXPECT_NE(m.diagnostics()[0].message.find("no-such-pass"), std::string::npos)
      << m.diagnostics()[0].message;
}

TEST(PipelineModel, KeepsTheSelectionAcrossRecordings) {
  PipelineModel m = stepper();
  m.select(2);
  m.setRecording(record(kFoldingProgram, "builtin.module(cse,canonicalize,cse,canonicalize)"));
  EXPECT_EQ(m.selected(), 2);
  m.setRecording(record(kFoldingProgram, "builtin.module(cse)"));
  EXPECT_EQ(m.selected(), 0);
}

namespace {
/// A host with one kernel for an AArch64 executor.
const std::string kArmKernel = executor_test::armKernelProgram("arith.addf");

PipelineModel nestedStepper(const std::string &workspace) {
  RecordOptions options;
  options.pipeline = "builtin.module(cross-compile-targets{workspace=" +
                     workspace + "},dispatch-executor-targets)";
  options.recordNested = true;
  PipelineModel m;
  m.setRecording(recordPipeline(kArmKernel, "arm.mlir", options));
  return m;
}
} // namespace

TEST(PipelineModel, ATargetsOwnStepsHangUnderCrossCompileTargets) {
  std::string workspace = ::testing::TempDir() + "nested-model";
  PipelineModel m = nestedStepper(workspace);
  ASSERT_TRUE(m.recording().succeeded);
  ASSERT_EQ(m.passCount(), 2u);
  // The steps keep their positions; the nested ones come after them.
  ASSERT_GT(m.entryCount(), 6u);
  EXPECT_EQ(m.pass(1).pass, "dispatch-executor-targets");
  EXPECT_TRUE(m.hasNested(0));
  EXPECT_FALSE(m.hasNested(1));
  // Listed after their parent, folded until it is opened.
  const std::vector<int> &order = m.listOrder();
  ASSERT_EQ(order.size(), m.entryCount());
  EXPECT_EQ(order.front(), 0);
  EXPECT_EQ(order.back(), 1);
  EXPECT_EQ(m.shownPasses(), (std::vector<int>{0, 1}));
  auto rows = [&] {
    std::vector<PipelineModel::ListRow> rows = m.listRows();
    std::vector<int> out; // a group row as -2 - group
    for (const PipelineModel::ListRow &row : rows)
      out.push_back(row.isGroup() ? -2 - row.group : row.position);
    return out;
  };
  EXPECT_EQ(rows(), (std::vector<int>{0, 1})) << "no group row while folded";
  m.setExpanded(0, true);
  EXPECT_EQ(m.shownPasses().size(), m.entryCount());
  // Opened: the target's row, then its steps.
  std::vector<int> opened = rows();
  ASSERT_EQ(opened.size(), m.entryCount() + 1);
  EXPECT_EQ(opened[0], 0);
  EXPECT_EQ(opened[1], -2);
  EXPECT_EQ(std::vector<int>(opened.begin() + 2, opened.end() - 1), m.targetGroups()[0].steps);
  // The target folded: its row stays, its steps go; a filter that matches
  // none of them hides the row too.
  m.setGroupExpanded(0, false);
  m.select(1); // the selected step always shows
  EXPECT_EQ(rows(), (std::vector<int>{0, -2, 1}));
  m.setPassFilter("dispatch");
  EXPECT_EQ(rows(), (std::vector<int>{1}));
  m.setPassFilter("asm");
  EXPECT_EQ(rows(), (std::vector<int>{-2, 1}));
  EXPECT_EQ(m.groupLabel(0).prefix, "  [+] ");
  m.setPassFilter("");
  m.setGroupExpanded(0, true);

  std::optional<int> extracted = m.positionNamed("arm/extracted");
  std::optional<int> armAsm = m.positionNamed("cross-compile-targets/arm/asm");
  ASSERT_TRUE(extracted && armAsm);
  EXPECT_EQ(m.positionName(*extracted), "0: cross-compile-targets/arm/extracted");
  // The lists name it within its parent; the pass list by its own name,
  // under its target's row, which names the triple.
  EXPECT_EQ(m.shortName(*extracted), "arm/extracted");
  EXPECT_EQ(m.shortName(kInputPosition), "input");
  EXPECT_EQ(m.stepName(*extracted), "extracted");
  EXPECT_EQ(m.stepName(1), "dispatch-executor-targets");
  EXPECT_EQ(m.listLabel(*extracted).full(), "    extracted");
  EXPECT_EQ(m.listLabel(*armAsm).full(), "    asm")
      << "its group row names the triple";
  ASSERT_EQ(m.targetGroups().size(), 1u);
  const PipelineModel::TargetGroup &arm = m.targetGroups()[0];
  EXPECT_EQ(arm.parent, 0);
  EXPECT_EQ(arm.target, "arm");
  EXPECT_EQ(arm.triple, "aarch64-unknown-linux-gnu");
  EXPECT_EQ(arm.steps.size() + 2, m.entryCount());
  EXPECT_EQ(arm.steps.front(), *extracted);
  EXPECT_EQ(arm.steps.back(), *armAsm);
  double total = 0;
  for (int step : arm.steps)
    total += m.pass(step).milliseconds;
  EXPECT_DOUBLE_EQ(arm.milliseconds, total);
  EXPECT_EQ(m.groupOf(*armAsm), 0);
  EXPECT_EQ(m.groupOf(0), -1);
  EXPECT_EQ(m.groupLabel(0).full(), "  [-] arm  aarch64-unknown-linux-gnu");
  EXPECT_EQ(m.listLabel(0).prefix, m.expanded(0) ? "[-] " : "[+] ");
  EXPECT_EQ(m.listLabel(1).full(), "dispatch-executor-targets");
  EXPECT_EQ(m.parentOf(*armAsm), 0);
  EXPECT_EQ(m.number(*armAsm), m.pass(*armAsm).index);
  EXPECT_EQ(m.number(1), 2u);
  EXPECT_EQ(m.positionNamed("2"), std::optional<int>(1));

  // Stepping walks the list: from the step into its target's steps and on.
  m.select(0);
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), *extracted);
  // The extracted module is compared with the IR before the step.
  EXPECT_EQ(m.leftPosition(), kInputPosition);
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.leftPosition(), *extracted);
  m.select(*armAsm);
  EXPECT_EQ(m.pass(m.leftPosition()).pass, "arm/llvm-opt");
  EXPECT_NE(m.irAt(*armAsm)->find("fadd"), std::string::npos);
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), 1);
  EXPECT_EQ(m.leftPosition(), 0);

  // Folded, stepping skips them; selecting one opens its parent again.
  m.setExpanded(0, false);
  m.select(0);
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), 1);
  EXPECT_TRUE(m.nextChanged() == false);
  m.select(*armAsm);
  EXPECT_TRUE(m.expanded(0));
  // Its target folded: stepping skips its steps; selecting one opens it.
  m.setGroupExpanded(0, false);
  m.select(0);
  EXPECT_TRUE(m.next());
  EXPECT_EQ(m.selected(), 1);
  m.select(*extracted);
  EXPECT_TRUE(m.groupExpanded(0));
  m.select(*armAsm);
  // The diff of a nested step shows its text.
  bool sawFadd = false;
  for (size_t i = 0; i < m.rowCount(); ++i)
    sawFadd |= m.rightText(m.row(i)).find("fadd") != std::string_view::npos;
  EXPECT_TRUE(sawFadd);
}

namespace {
/// The sample with three kernels (two dispatched, one local) through the
/// default pipeline.
PipelineModel threeKernels(const std::string &workspace) {
  std::ifstream in(std::string(SAMPLES_DIR) + "/cross-compile-dispatch.mlir");
  std::stringstream text;
  text << in.rdbuf();
  RecordOptions options;
  options.pipeline = Studio::defaultPipeline(workspace);
  PipelineModel m;
  m.setRecording(recordPipeline(text.str(), "cross-compile-dispatch.mlir", options));
  return m;
}

std::string changedLines(PipelineModel &m) {
  std::string s;
  for (size_t i = 0; i < m.rowCount(); ++i) {
    const DiffRow &r = m.row(i);
    if (r.kind == RowKind::Removed || r.kind == RowKind::Changed)
      s += "-" + std::string(m.leftText(r)) + "\n";
    if (r.kind == RowKind::Added || r.kind == RowKind::Changed)
      s += "+" + std::string(m.rightText(r)) + "\n";
  }
  return s;
}
} // namespace

TEST(PipelineModel, TheStructuralDiffShowsOnlyWhatAPassChanged) {
  PipelineModel m = threeKernels(::testing::TempDir() + "three-kernels");
  ASSERT_TRUE(m.recording().succeeded);
  std::optional<int> dispatch = m.positionNamed("dispatch-executor-targets");
  ASSERT_TRUE(dispatch);
  m.select(*dispatch);

  // The line diff, SSA names normalised as the studio did by default.
  m.setStructural(false);
  LineOptions normalised;
  normalised.normaliseSsaNames = true;
  m.setLineOptions(normalised);
  const DiffView lines = m.diffView();
  EXPECT_FALSE(lines.structural);

  m.setStructural(true);
  const DiffView &structural = m.diffView();
  ASSERT_TRUE(structural.structural) << structural.structuralError;
  std::string changed = changedLines(m);
  // Inserted: the session opened and @compute shipped in @setup, the
  // session opened in @main; rewritten: the two launches; removed: @compute
  // (its header, two declarations, its closing brace).
  EXPECT_EQ(structural.diff.removed, 6u) << changed;
  EXPECT_EQ(structural.diff.added, 5u) << changed;
  EXPECT_LT(structural.diff.removed + structural.diff.added,
            (lines.diff.removed + lines.diff.added) / 2)
      << changed;
  EXPECT_EQ(changed.find("scf.for"), std::string::npos) << changed;
  EXPECT_EQ(changed.find("memref.cast"), std::string::npos) << changed;
  EXPECT_NE(changed.find("executor.launch"), std::string::npos) << changed;
  EXPECT_NE(changed.find("catalyst.launch_kernel @compute::@square"), std::string::npos)
      << changed;
  // The snapshot stays MLIR that parses: no `%c[0 : index]`.
  EXPECT_EQ(changed.find("%c["), std::string::npos) << changed;
  std::printf("dispatch-executor-targets: structural -%zu +%zu, line diff (normalised) -%zu "
              "+%zu\n",
              structural.diff.removed, structural.diff.added, lines.diff.removed,
              lines.diff.added);
}

TEST(PipelineModel, AnOpsHistoryFollowsItsLocationThroughEverySnapshot) {
  RecordOptions options;
  options.pipeline = "builtin.module(cse,canonicalize,cse,canonicalize)";
  options.printDebugInfo = true;
  PipelineModel m;
  m.setRecording(recordPipeline(kFoldingProgram, "test.mlir", options));
  ASSERT_TRUE(m.recording().succeeded);
  // The muli of line 5 lives on in every snapshot; the second addi (line 4)
  // is gone after cse, which keeps the first.
  std::vector<PipelineModel::HistoryStep> muli = m.opHistory({{"test.mlir", 5, 8}});
  ASSERT_EQ(muli.size(), 5u); // the input and four steps
  EXPECT_EQ(muli[0].position, kInputPosition);
  for (const PipelineModel::HistoryStep &step : muli) {
    ASSERT_EQ(step.lines.size(), 1u) << m.positionName(step.position);
    std::shared_ptr<const std::string> text = m.irAt(step.position);
    TextLines lines = TextLines::prepare(*text);
    EXPECT_NE(lines.line(step.lines[0] - 1).find("arith.muli"), std::string_view::npos)
        << m.positionName(step.position);
  }
  std::vector<PipelineModel::HistoryStep> second = m.opHistory({{"test.mlir", 4, 8}});
  ASSERT_EQ(second.size(), 5u);
  EXPECT_EQ(second[0].lines.size(), 1u);
  EXPECT_TRUE(second[1].lines.empty());
  // Found from the line itself, as the IR view does.
  std::shared_ptr<const std::string> input = m.irAt(kInputPosition);
  TextLines lines = TextLines::prepare(*input);
  std::vector<SourceLocation> fromLine =
      findSourceLocations(lines.line(muli[0].lines[0] - 1), &lines);
  ASSERT_FALSE(fromLine.empty());
  EXPECT_EQ(m.opHistory(fromLine).back().lines, muli.back().lines);
  // Without locations there is nothing to follow.
  EXPECT_TRUE(m.opHistory({}).empty());
}

TEST(PipelineModel, AnOpsHistoryGoesDownToItsKernelsLlvmIrAndAssembly) {
  std::string workspace = ::testing::TempDir() + "history-model";
  RecordOptions options;
  options.pipeline = "builtin.module(cross-compile-targets{workspace=" + workspace +
                     "},dispatch-executor-targets)";
  options.recordNested = true;
  options.printDebugInfo = true; // as --history and "print loc" record
  PipelineModel m;
  m.setRecording(recordPipeline(kArmKernel, "arm.mlir", options));
  ASSERT_TRUE(m.recording().succeeded);
  // The kernel's addf, from its line of the input as printed.
  std::shared_ptr<const std::string> input = m.irAt(kInputPosition);
  TextLines lines = TextLines::prepare(*input);
  size_t addf = 0;
  while (addf < lines.size() && lines.line(addf).find("arith.addf") == std::string_view::npos)
    ++addf;
  ASSERT_LT(addf, lines.size());
  std::vector<SourceLocation> locations = findSourceLocations(lines.line(addf), &lines);
  ASSERT_EQ(locations.size(), 1u);
  std::vector<PipelineModel::HistoryStep> history = m.opHistory(locations);
  auto linesAt = [&](const char *name) -> std::vector<std::string> {
    std::optional<int> position = m.positionNamed(name);
    EXPECT_TRUE(position) << name;
    std::vector<std::string> found;
    for (const PipelineModel::HistoryStep &step : history)
      if (position && step.position == *position) {
        TextLines text = TextLines::prepare(*m.irAt(step.position));
        for (uint32_t line : step.lines)
          found.emplace_back(text.line(line - 1));
      }
    return found;
  };
  for (const char *name : {"arm/llvm", "arm/llvm-opt", "arm/asm"}) {
    std::vector<std::string> found = linesAt(name);
    ASSERT_FALSE(found.empty()) << name;
    bool fadd = false;
    for (const std::string &line : found)
      fadd |= line.find("fadd") != std::string::npos;
    EXPECT_TRUE(fadd) << name << ": " << found.front();
  }
  EXPECT_NE(m.irAt(*m.positionNamed("arm/llvm"))->find("!dbg"), std::string::npos);
}

TEST(PipelineModel, ADiffUsesTheAlignmentMadeOffTheUiThread) {
  // The studio aligns the step a recording opens at on its recording
  // thread (Studio.cpp, diffShown); the diff then takes that alignment
  // instead of parsing both texts itself.
  PipelineModel m = stepper();
  std::shared_ptr<const std::string> input = m.irAt(kInputPosition);
  std::shared_ptr<const std::string> afterCse = m.irAt(0);
  m.addAlignment(input, afterCse,
                 llvm::createStringError("aligned elsewhere: not parsed"));
  const DiffView &refused = m.diffView();
  EXPECT_FALSE(refused.structural);
  EXPECT_EQ(refused.structuralError, "aligned elsewhere: not parsed");
  // The alignment the recording thread made: the structural diff.
  m.addAlignment(input, afterCse, alignSnapshots(*input, *afterCse));
  m.setStructural(false);
  m.setStructural(true);
  const DiffView &aligned = m.diffView();
  EXPECT_TRUE(aligned.structural) << aligned.structuralError;
  EXPECT_EQ(aligned.diff.removed, 2u);
  EXPECT_EQ(aligned.diff.added, 1u);
}

TEST(PipelineModel, ADiffMadeOffTheUiThreadIsTheOneItWouldMake) {
  // The studio diffs the step a recording opens at on its recording thread
  // (prepareDiff: aligned, then the lines); diffView takes that diff, the
  // same as the one it makes itself, and its rows from it.
  for (bool structural : {true, false}) {
    SCOPED_TRACE(structural ? "structural" : "line diff");
    PipelineModel fresh = threeKernels(::testing::TempDir() + "prepared-fresh");
    PipelineModel given = threeKernels(::testing::TempDir() + "prepared-given");
    std::optional<int> dispatch = fresh.positionNamed("dispatch-executor-targets");
    ASSERT_TRUE(dispatch);
    LineOptions options;
    options.normaliseSsaNames = true;
    for (PipelineModel *m : {&fresh, &given}) {
      m->select(*dispatch);
      m->setStructural(structural);
      m->setLineOptions(options);
    }
    PipelineModel::PreparedDiff prepared = PipelineModel::prepareDiff(
        given.irAt(given.leftPosition()), given.irAt(given.rightPosition()), structural,
        options);
    EXPECT_EQ(prepared.structural, structural);
    EXPECT_EQ(static_cast<bool>(prepared.aligned), structural) << prepared.alignError;
    // Marked, so that the test sees it is this diff that is shown.
    prepared.diff.added += 1000;
    given.addPreparedDiff(prepared);
    const DiffView &made = fresh.diffView();
    const DiffView &taken = given.diffView();
    EXPECT_EQ(taken.structural, made.structural);
    EXPECT_EQ(taken.diff.added, made.diff.added + 1000);
    EXPECT_EQ(taken.diff.removed, made.diff.removed);
    EXPECT_EQ(taken.diff.blocks.size(), made.diff.blocks.size());
    EXPECT_EQ(taken.sideBySide.size(), made.sideBySide.size());
    // Other line options: a diff of its own.
    LineOptions other = options;
    other.hideLocations = true;
    given.setLineOptions(other);
    fresh.setLineOptions(other);
    EXPECT_EQ(given.diffView().diff.added, fresh.diffView().diff.added);
  }
}

TEST(PipelineModel, TheListRowsAreKeptUntilWhatTheyShowChanges) {
  PipelineModel m = stepper();
  auto positions = [&] {
    std::vector<int> out;
    for (const PipelineModel::ListRow &row : m.listRows())
      out.push_back(row.position);
    return out;
  };
  auto longest = [&] {
    size_t n = 0;
    for (const PipelineModel::ListRow &row : m.listRows())
      n = std::max(n, characterCount(m.listLabel(row.position).full()));
    return n;
  };
  EXPECT_EQ(positions(), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(m.longestListLabel(), longest());
  // Hiding the unchanged passes (the selected one always shows).
  m.select(0);
  m.setHideUnchanged(true);
  EXPECT_EQ(positions(), (std::vector<int>{0, 1}));
  m.select(3);
  EXPECT_EQ(positions(), (std::vector<int>{0, 1, 3}));
  m.setHideUnchanged(false);
  m.setPassFilter("canon");
  EXPECT_EQ(positions(), (std::vector<int>{1, 3}));
  EXPECT_EQ(m.longestListLabel(), longest());
  // A new recording: its rows.
  m.setPassFilter("");
  m.setRecording(record(kFoldingProgram, "builtin.module(cse)"));
  EXPECT_EQ(positions(), (std::vector<int>{0}));
  EXPECT_EQ(m.longestListLabel(), longest());
}
