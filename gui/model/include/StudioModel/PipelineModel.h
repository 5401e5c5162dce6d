//===- PipelineModel.h - the pass stepper and its diff ----------*- C++ -*-===//
//
// Holds one recording (the pipeline recorder's snapshots), the selected
// pass, the pass list's filter, the two texts being compared and their line
// diff, the IR filter, the search and the diagnostics list. Views read rows
// from here; nothing here draws.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_PIPELINEMODEL_H
#define STUDIOMODEL_PIPELINEMODEL_H

#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"
#include "StudioModel/IrText.h"
#include "StudioModel/LineDiff.h"
#include "StudioModel/SourceLocations.h"
#include "StudioModel/TextFit.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio::gui {

/// A position in a recording: the input, or the IR after pass i.
constexpr int kInputPosition = -1;

enum class ViewMode { SideBySide, Unified, Source };
const char *viewModeName(ViewMode mode);
std::optional<ViewMode> viewModeNamed(const std::string &name);

/// Which lines the IR views show.
struct IrFilter {
  std::string text;
  /// Match lines whose operation is `text` (`arith.addi`) rather than lines
  /// that contain `text`.
  bool opName = false;
  bool empty() const { return text.empty(); }
  bool matches(std::string_view line) const;
};

/// One entry of the diagnostics panel.
struct DiagnosticItem {
  RecordedDiagnostic::Severity severity = RecordedDiagnostic::Severity::Error;
  std::string message;
  std::string file;
  unsigned line = 0, column = 0;
  /// The pass that emitted it (empty: parser or verifier).
  std::string pass;
  /// Its snapshot, or -1 for the parser's.
  int snapshot = -1;
  bool isNote = false;
  /// An error in edited IR that was not applied (setEditDiagnostics):
  /// `line` is a line of the edited text of `snapshot` (-1: the input).
  bool edit = false;
};
const char *severityName(RecordedDiagnostic::Severity severity);

/// The two texts being compared, prepared, and their diff.
struct DiffView {
  int leftPosition = kInputPosition, rightPosition = kInputPosition;
  std::shared_ptr<const TextLines> left, right;
  /// Whether the right side's names were aligned with the left's
  /// (alignSnapshots) before the line diff.
  bool structural = false;
  /// Why the structural diff fell back to the line diff (a snapshot that
  /// does not parse); empty otherwise.
  std::string structuralError;
  LineDiff diff;
  std::vector<DiffRow> sideBySide, unified;
};

class PipelineModel {
public:
  PipelineModel();

  //===--- The recording ---------------------------------------------------===//
  /// Replaces the recording; keeps the selected pass when it still exists.
  void setRecording(Recording recording);
  void clear();
  const Recording &recording() const { return rec; }
  bool hasRecording() const { return hasRec; }
  /// The pipeline's steps: positions 0 .. passCount()-1 (Snapshot::index).
  size_t passCount() const { return rec.snapshots.size(); }
  /// Steps and the nested steps recorded inside them (each target's own
  /// lowering inside cross-compile-targets): positions from passCount() on.
  size_t entryCount() const { return entries.size(); }
  const Snapshot &pass(size_t i) const { return *entries[i].snapshot; }
  /// Whether `position` is a nested step.
  bool isNested(int position) const;
  /// The step a nested position is inside of; -1 for a step or the input.
  int parentOf(int position) const;
  /// What `position` is compared with when it is selected: the step before
  /// it, or for a nested step the one before it in its target (the first
  /// of a target: the step before its parent).
  int previousOf(int position) const;
  /// Whether step `step` has nested steps.
  bool hasNested(int step) const;
  /// Shows or hides the nested steps of step `step` in the pass list.
  void setExpanded(int step, bool expanded);
  bool expanded(int step) const;
  /// Positions in the order the pass list shows them: each step, its
  /// nested steps after it.
  const std::vector<int> &listOrder() const { return order; }
  /// One target's own steps inside a step (cross-compile-targets' `compute`):
  /// the pass list shows them under a row of their own.
  struct TargetGroup {
    /// The step they are nested in.
    int parent = -1;
    /// `compute`.
    std::string target;
    /// Its triple (the anchor of its LLVM IR and assembly); empty when
    /// neither was recorded.
    std::string triple;
    /// Its steps' positions, in order.
    std::vector<int> steps;
    /// Their total time, and whether any changed the IR.
    double milliseconds = 0;
    bool changed = false;
  };
  const std::vector<TargetGroup> &targetGroups() const { return groups; }
  /// The group a nested position is in; -1 for a step or the input.
  int groupOf(int position) const;
  /// Folds or unfolds a group's steps in the pass list (unfolded at first).
  void setGroupExpanded(int group, bool expanded);
  bool groupExpanded(int group) const;
  /// A row of the pass list: a step's (`position`), or a target's group row
  /// (`group`, `position` is kInputPosition).
  struct ListRow {
    int position = kInputPosition;
    int group = -1;
    bool isGroup() const { return group >= 0; }
  };
  /// The pass list's rows, as passShown and the groups' folding say: each
  /// step, a target's group row before its steps (shown while its parent
  /// is expanded and it or one of its steps passes the filter). Kept until
  /// what they depend on changes: a view asks for them every frame, and a
  /// recording of many targets has thousands.
  std::vector<ListRow> listRows() const;
  /// The characters of the longest label of listRows() (listLabel or
  /// groupLabel, full), kept as listRows() is.
  size_t longestListLabel() const;
  /// The number a front end shows: `index + 1` for a step, the number within
  /// its target for a nested one (as executor-compile names its file).
  unsigned number(int position) const;
  /// The position findSnapshot names `name` (`4`, `cse`,
  /// `cross-compile-targets/compute/asm`, `compute/asm`), if any.
  std::optional<int> positionNamed(const std::string &name) const;
  /// The same; when there is none, `why` says so, with how many passes there
  /// are and the nearest name (--pass, --print-diff, --graph).
  std::optional<int> positionNamed(const std::string &name, std::string &why) const;
  /// The IR at a position (null when the recording has none there).
  std::shared_ptr<const std::string> irAt(int position) const;
  /// What the snapshot at `position` is (the input is MLIR).
  SnapshotKind snapshotKind(int position) const { return kindAt(position); }
  /// `input`, or `3: cse`; a nested step's `15: cross-compile-targets/compute/asm`.
  std::string positionName(int position) const;
  /// The name the lists show: `input`, `cse`; a nested step's name within
  /// its parent, `compute/asm` (its target and step).
  std::string shortName(int position) const;
  /// The name the pass list shows: shortName(), but a nested step's name
  /// within its target (`asm`; its group row names the target).
  std::string stepName(int position) const;
  /// The pass list's label of `position` (not the input) in parts, for
  /// StepLabel::fit: `[+] ` / `[-] ` before a step with nested steps (as
  /// expanded() says) or four spaces before a nested one (under its group
  /// row), stepName(), what a non-MLIR snapshot or a function pass ran on
  /// (not a nested step's triple: its group row has it), its diagnostics
  /// and whether it was edited.
  StepLabel listLabel(int position) const;
  /// A group row's label: `  [-] compute`, its triple as detail.
  StepLabel groupLabel(int group) const;
  /// The source text (shown by the Source view, where diagnostics point).
  void setSource(std::shared_ptr<const std::string> text, std::string name);
  const std::string &sourceName() const { return srcName; }

  //===--- Stepping --------------------------------------------------------===//
  /// The selected pass, or -1 when there is none.
  int selected() const { return selectedPass; }
  /// Selects pass `index` (clamped); the diff follows it again.
  void select(int index);
  /// Steps to the next / previous pass the pass list shows.
  bool next();
  bool previous();
  /// Steps to the next / previous pass that changed the IR.
  bool nextChanged();
  bool previousChanged();
  bool first();
  bool last();

  //===--- The pass list ---------------------------------------------------===//
  void setPassFilter(std::string text);
  const std::string &passFilter() const { return passFilterText; }
  void setHideUnchanged(bool hide);
  bool hideUnchanged() const { return hideUnchangedPasses; }
  /// Whether pass `i` passes the filter (the selected pass always shows).
  bool passShown(size_t i) const;
  std::vector<int> shownPasses() const;
  /// Passes that changed the IR.
  size_t changedCount() const;

  //===--- What is compared ------------------------------------------------===//
  /// Compare any two positions; stepping returns to before/after.
  void compare(int left, int right);
  bool comparesSelection() const { return followSelection; }
  int leftPosition() const;
  int rightPosition() const;
  void setLineOptions(const LineOptions &options);
  const LineOptions &lineOptions() const { return lineOpts; }
  /// The structural diff (on by default): MLIR snapshots get their values'
  /// and blocks' names aligned (alignSnapshots) before the line diff, which
  /// then shows only what a pass inserted, rewrote or removed; SSA names are
  /// not normalised then. Off: the plain line diff of the texts as printed.
  /// LLVM IR and assembly always get the line diff.
  void setStructural(bool structural);
  bool structural() const { return structuralDiff; }
  /// The structural alignment of texts `left` and `right` (alignSnapshots'
  /// result, or why they could not be aligned), made elsewhere: the studio
  /// aligns the step a recording opens at on its recording thread, so the
  /// frame that takes a large recording in does not parse both texts.
  /// diffView uses it when it compares these texts.
  void addAlignment(std::shared_ptr<const std::string> left,
                    std::shared_ptr<const std::string> right,
                    llvm::Expected<AlignedSnapshots> aligned);
  /// diffView's work on two texts made elsewhere: the studio diffs the step
  /// a recording opens at on its recording thread, so that the frame that
  /// takes a large recording in neither parses both texts nor diffs their
  /// lines (some 10 ms at 512 targets).
  struct PreparedDiff {
    std::shared_ptr<const std::string> left, right;
    /// The structural diff was asked for: `aligned` is the right text as
    /// aligned with the left (null when it could not be: `alignError`),
    /// `origins` its lines' (AlignedSnapshots::rightLineOrigins).
    bool structural = false;
    std::shared_ptr<const std::string> aligned;
    std::shared_ptr<const std::vector<uint32_t>> origins;
    std::string alignError;
    /// The options the lines were prepared with, and their diff.
    LineOptions options;
    LineDiff diff;
  };
  /// What diffView computes comparing `left` with `right` (both non-null),
  /// with line options `options` and the structural diff when `structural`
  /// (for two MLIR texts); on any thread.
  static PreparedDiff prepareDiff(std::shared_ptr<const std::string> left,
                                  std::shared_ptr<const std::string> right,
                                  bool structural, LineOptions options);
  /// Keeps `prepared`: diffView uses it when it compares these texts with
  /// these options.
  void addPreparedDiff(PreparedDiff prepared);
  void setViewMode(ViewMode mode);
  ViewMode viewMode() const { return mode; }
  /// Unified view: every line, or three lines of context around changes.
  void setWholeFile(bool whole);
  bool wholeFile() const { return whole; }
  /// The current diff (computed on first use after a change).
  const DiffView &diffView();

  //===--- Rows of the current view ------------------------------------------===//
  /// Recomputes what changed; views call it once a frame before drawing.
  void refresh();
  /// Rows the view shows after the IR filter.
  size_t rowCount();
  const DiffRow &row(size_t shown);
  /// The text of a row's left / right line (empty when it has none). The
  /// Source view shows the source on the left.
  std::string_view leftText(const DiffRow &row);
  std::string_view rightText(const DiffRow &row);
  /// 1-based line numbers as shown beside rows (0: none).
  uint32_t leftLineNumber(const DiffRow &row);
  uint32_t rightLineNumber(const DiffRow &row);
  /// Bumped whenever the rows change.
  uint64_t rowsGeneration() const { return rowsGen; }
  /// The longest line of the current texts, in characters.
  size_t maxLineLength();

  //===--- The IR filter ---------------------------------------------------===//
  void setIrFilter(IrFilter filter);
  const IrFilter &irFilter() const { return filter; }
  /// Lines at `position` that start the filter's op (or contain its text).
  size_t filterCount(int position);

  //===--- Search ----------------------------------------------------------===//
  void setSearch(std::string query);
  const std::string &search() const { return searchQuery; }
  /// Shown rows that match, in order.
  const std::vector<uint32_t> &searchHits();
  /// The hit after / before the current one (wrapping); its shown row.
  std::optional<size_t> nextHit();
  /// The first hit (a new query starts there).
  std::optional<size_t> firstHit();
  std::optional<size_t> previousHit();
  int currentHit() const { return hitIndex; }

  //===--- Scrolling requests (jump to a line, to a hit) -------------------===//
  void requestScroll(size_t shownRow) { scrollRequest = shownRow; }
  std::optional<size_t> takeScrollRequest();
  /// Scrolls to shown row `shownRow` and marks it (a node clicked in the
  /// Graph view).
  void markRow(size_t shownRow) {
    scrollRequest = shownRow;
    highlight = static_cast<long>(shownRow);
  }
  /// The row to mark (a diagnostic's line, a search hit); -1 none.
  long highlightedRow() const { return highlight; }

  //===--- An op's history -------------------------------------------------===//
  /// Where the ops with one of `locations` (an op's `loc(...)`, fused ones
  /// included; in a target's LLVM IR its `!dbg`, in its assembly its `.loc`:
  /// core's Pipeline/OpHistory.h) are in each snapshot: the input, then every step in the
  /// order the pass list shows them (a target's own steps after their
  /// parent, listed only where the op is). Lines are 1-based lines of that
  /// snapshot's text; a step where none is left is listed with no lines. The
  /// snapshots must be
  /// recorded with their locations (print loc).
  struct HistoryStep {
    int position = kInputPosition;
    std::vector<uint32_t> lines;
  };
  std::vector<HistoryStep> opHistory(const std::vector<SourceLocation> &locations);
  /// The shown row whose right (in the Source view: left) line is 1-based
  /// `line` of the current texts, if any.
  std::optional<size_t> rowOfRightLine(uint32_t line);

  //===--- Diagnostics -----------------------------------------------------===//
  const std::vector<DiagnosticItem> &diagnostics() const { return diags; }
  /// Lists the errors of an edit of position `pass` that did not parse or
  /// verify (lines of the edited text) first among the diagnostics, until
  /// the next call; no errors: none listed.
  void setEditDiagnostics(const std::vector<RecordedDiagnostic> &errors, int pass);
  size_t errorCount() const;
  /// Selects the diagnostic's pass and shows its line in the Source view.
  void jumpTo(const DiagnosticItem &item);
  /// Shows 1-based source line `line` in the Source view.
  void showSourceLine(unsigned line);
  /// What position `position` holds (the input is MLIR).
  SnapshotKind kindAt(int position) const;

private:
  std::shared_ptr<const TextLines> prepared(const std::shared_ptr<const std::string> &text,
                                            const LineOptions &options);
  /// `right` with its names aligned to `left`'s, cached; null with `error`
  /// when either does not parse. `origins`: the printed lines the aligned
  /// lines stand for, when moved functions were put back in place.
  std::shared_ptr<const std::string>
  alignedRight(const std::shared_ptr<const std::string> &left,
               const std::shared_ptr<const std::string> &right, std::string &error,
               std::shared_ptr<const std::vector<uint32_t>> &origins);
  void invalidateDiff();
  void rebuildRows();
  void clampSelection();

  void rebuildEntries();

  Recording rec;
  bool hasRec = false;
  /// Every position's snapshot and where it hangs.
  struct Entry {
    const Snapshot *snapshot = nullptr;
    int parent = -1;   // the step a nested entry is inside of
    int previous = kInputPosition; // what it is compared with
  };
  std::vector<Entry> entries;
  std::vector<int> order;
  std::vector<int> expandedSteps;
  std::vector<TargetGroup> groups;
  /// Each entry's group (-1: none).
  std::vector<int> entryGroups;
  std::vector<int> foldedGroups;
  /// Whether entry `i` passes the pass filter and "hide unchanged".
  bool matchesPassFilter(size_t i) const;
  /// listRows() and longestListLabel(), for listGeneration and the
  /// selection they were made for.
  struct ListCache {
    uint64_t generation = ~uint64_t(0);
    int selected = -2;
    bool made = false;
    std::vector<ListRow> rows;
    std::optional<size_t> longest;
  };
  mutable ListCache listCache;
  /// Bumped by whatever changes which rows the pass list has or their
  /// labels (the recording, the filters, folding, edit diagnostics).
  uint64_t listGeneration = 0;
  const ListCache &currentListCache() const;
  std::shared_ptr<const std::string> source;
  std::string srcName;
  std::shared_ptr<const TextLines> sourceLines;

  int selectedPass = -1;
  std::string passFilterText;
  bool hideUnchangedPasses = false;

  bool followSelection = true;
  int customLeft = kInputPosition, customRight = kInputPosition;
  LineOptions lineOpts;
  bool structuralDiff = true;
  struct AlignedEntry {
    std::shared_ptr<const std::string> left, right, aligned;
    std::string error;
    /// AlignedSnapshots::rightLineOrigins (null when the lines stay).
    std::shared_ptr<const std::vector<uint32_t>> origins;
  };
  std::vector<AlignedEntry> alignedCache;
  static AlignedEntry alignedEntry(std::shared_ptr<const std::string> left,
                                   std::shared_ptr<const std::string> right,
                                   llvm::Expected<AlignedSnapshots> aligned);
  void keepAlignment(AlignedEntry entry);
  /// Line diffs made elsewhere (addPreparedDiff), by the texts compared
  /// (the right one as aligned) and the line options.
  struct DiffEntry {
    std::shared_ptr<const std::string> left, right;
    LineOptions options;
    LineDiff diff;
  };
  std::vector<DiffEntry> diffCache;
  ViewMode mode = ViewMode::SideBySide;
  /// The view a recording that did not parse switched away from.
  std::optional<ViewMode> sourceShownForErrors;
  bool whole = false;

  bool diffValid = false;
  DiffView view;
  /// Prepared texts by (text, options): stepping reuses the last right side.
  struct CacheEntry {
    std::shared_ptr<const std::string> text;
    LineOptions options;
    std::shared_ptr<const TextLines> lines;
  };
  std::vector<CacheEntry> cache;

  bool rowsValid = false;
  std::vector<DiffRow> sourceRows;
  std::vector<uint32_t> shownRows; // indices into the mode's rows
  const std::vector<DiffRow> *modeRows = nullptr;
  uint64_t rowsGen = 0;

  IrFilter filter;
  struct CountEntry {
    std::shared_ptr<const std::string> text;
    std::string filter;
    bool opName;
    size_t count;
  };
  std::vector<CountEntry> counts;

  std::string searchQuery;
  std::vector<uint32_t> hits;
  bool hitsValid = false;
  uint64_t hitsRowsGen = 0;
  int hitIndex = -1;

  std::optional<size_t> scrollRequest;
  long highlight = -1;
  std::optional<unsigned> pendingSourceLine;

  std::vector<DiagnosticItem> diags;
  std::vector<DiagnosticItem> editDiags;
  void rebuildDiagnostics();
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_PIPELINEMODEL_H
