//===- PipelineModel.cpp - the pass stepper and its diff ------------------===//
#include "StudioModel/PipelineModel.h"

#include "ExecutorStudio/Pipeline/OpHistory.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"
#include "ExecutorStudio/Support/Nearest.h"

#include <algorithm>

namespace executor_studio::gui {

const char *viewModeName(ViewMode mode) {
  switch (mode) {
  case ViewMode::SideBySide:
    return "side-by-side";
  case ViewMode::Unified:
    return "unified";
  case ViewMode::Source:
    return "source";
  }
  return "side-by-side";
}

std::optional<ViewMode> viewModeNamed(const std::string &name) {
  for (ViewMode m : {ViewMode::SideBySide, ViewMode::Unified, ViewMode::Source})
    if (name == viewModeName(m))
      return m;
  return std::nullopt;
}

const char *severityName(RecordedDiagnostic::Severity severity) {
  switch (severity) {
  case RecordedDiagnostic::Severity::Error:
    return "error";
  case RecordedDiagnostic::Severity::Warning:
    return "warning";
  case RecordedDiagnostic::Severity::Remark:
    return "remark";
  case RecordedDiagnostic::Severity::Note:
    return "note";
  }
  return "error";
}

bool IrFilter::matches(std::string_view line) const {
  if (text.empty())
    return true;
  if (opName)
    return lineHasOp(line, text);
  return findCaseInsensitive(line, text) != std::string_view::npos;
}

PipelineModel::PipelineModel() = default;

//===----------------------------------------------------------------------===//
// The recording
//===----------------------------------------------------------------------===//

namespace {
void flatten(const RecordedDiagnostic &d, int snapshot, bool note,
             std::vector<DiagnosticItem> &out) {
  DiagnosticItem item;
  item.severity = d.severity;
  item.message = d.message;
  item.file = d.file;
  item.line = d.line;
  item.column = d.column;
  item.pass = d.pass;
  item.snapshot = snapshot;
  item.isNote = note;
  out.push_back(std::move(item));
  for (const RecordedDiagnostic &n : d.notes)
    flatten(n, snapshot, true, out);
}
} // namespace

void PipelineModel::rebuildEntries() {
  entries.clear();
  order.clear();
  groups.clear();
  entryGroups.clear();
  int steps = static_cast<int>(rec.snapshots.size());
  for (int i = 0; i < steps; ++i)
    entries.push_back({&rec.snapshots[i], -1, i - 1});
  for (int i = 0; i < steps; ++i) {
    order.push_back(i);
    const Snapshot &step = rec.snapshots[i];
    // Each target's steps follow on from the IR before the step; the
    // next target's start there again.
    const Snapshot *before = nullptr;
    for (const Snapshot &nested : step.nested) {
      int position = static_cast<int>(entries.size());
      int previous = before && before->target == nested.target
                         ? position - 1
                         : i - 1;
      entries.push_back({&nested, i, previous});
      order.push_back(position);
      if (!before || before->target != nested.target) {
        TargetGroup group;
        group.parent = i;
        group.target = nested.target;
        groups.push_back(std::move(group));
      }
      TargetGroup &group = groups.back();
      group.steps.push_back(position);
      group.milliseconds += nested.milliseconds;
      group.changed |= nested.changed;
      if (group.triple.empty() && nested.kind != SnapshotKind::MLIR)
        group.triple = nested.anchor;
      before = &nested;
    }
  }
  entryGroups.assign(entries.size(), -1);
  for (size_t g = 0; g < groups.size(); ++g)
    for (int position : groups[g].steps)
      entryGroups[position] = static_cast<int>(g);
}

int PipelineModel::groupOf(int position) const {
  if (position < 0 || position >= static_cast<int>(entryGroups.size()))
    return -1;
  return entryGroups[position];
}

void PipelineModel::setGroupExpanded(int group, bool expand) {
  ++listGeneration;
  auto it = std::find(foldedGroups.begin(), foldedGroups.end(), group);
  if (!expand && it == foldedGroups.end())
    foldedGroups.push_back(group);
  else if (expand && it != foldedGroups.end())
    foldedGroups.erase(it);
}

bool PipelineModel::groupExpanded(int group) const {
  return std::find(foldedGroups.begin(), foldedGroups.end(), group) == foldedGroups.end();
}

const PipelineModel::ListCache &PipelineModel::currentListCache() const {
  if (listCache.generation != listGeneration || listCache.selected != selectedPass) {
    listCache = ListCache();
    listCache.generation = listGeneration;
    listCache.selected = selectedPass;
  }
  return listCache;
}

std::vector<PipelineModel::ListRow> PipelineModel::listRows() const {
  const ListCache &cached = currentListCache();
  if (cached.made)
    return cached.rows;
  listCache.made = true;
  std::vector<ListRow> &rows = listCache.rows;
  int lastGroup = -1;
  for (int position : order) {
    int g = groupOf(position);
    if (g >= 0 && g != lastGroup) {
      lastGroup = g;
      const TargetGroup &group = groups[g];
      // Shown while one of its steps is, or it is folded under an
      // expanded parent and one of its steps would be.
      bool shown = false;
      for (int step : group.steps)
        shown |= passShown(static_cast<size_t>(step)) ||
                 (!groupExpanded(g) && expanded(group.parent) &&
                  matchesPassFilter(static_cast<size_t>(step)));
      if (shown)
        rows.push_back({kInputPosition, g});
    }
    if (passShown(static_cast<size_t>(position)))
      rows.push_back({position, -1});
  }
  return rows;
}

size_t PipelineModel::longestListLabel() const {
  std::vector<ListRow> rows = listRows();
  if (listCache.longest)
    return *listCache.longest;
  size_t longest = 0;
  for (const ListRow &row : rows)
    longest = std::max(longest, characterCount(row.isGroup() ? groupLabel(row.group).full()
                                                             : listLabel(row.position).full()));
  listCache.longest = longest;
  return longest;
}

bool PipelineModel::isNested(int position) const {
  return parentOf(position) >= 0;
}

int PipelineModel::parentOf(int position) const {
  if (position < 0 || position >= static_cast<int>(entries.size()))
    return -1;
  return entries[position].parent;
}

int PipelineModel::previousOf(int position) const {
  if (position < 0 || position >= static_cast<int>(entries.size()))
    return kInputPosition;
  return entries[position].previous;
}

bool PipelineModel::hasNested(int step) const {
  return step >= 0 && step < static_cast<int>(passCount()) &&
         !rec.snapshots[step].nested.empty();
}

void PipelineModel::setExpanded(int step, bool expand) {
  ++listGeneration;
  auto it = std::find(expandedSteps.begin(), expandedSteps.end(), step);
  if (expand && it == expandedSteps.end())
    expandedSteps.push_back(step);
  else if (!expand && it != expandedSteps.end())
    expandedSteps.erase(it);
}

bool PipelineModel::expanded(int step) const {
  return std::find(expandedSteps.begin(), expandedSteps.end(), step) !=
         expandedSteps.end();
}

unsigned PipelineModel::number(int position) const {
  if (position < 0 || position >= static_cast<int>(entries.size()))
    return 0;
  return isNested(position) ? entries[position].snapshot->index
                            : static_cast<unsigned>(position) + 1;
}

std::optional<int> PipelineModel::positionNamed(const std::string &name) const {
  const Snapshot *found = findSnapshot(rec, name);
  for (size_t i = 0; i < entries.size(); ++i)
    if (found && entries[i].snapshot == found)
      return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> PipelineModel::positionNamed(const std::string &name,
                                                std::string &why) const {
  if (std::optional<int> position = positionNamed(name))
    return position;
  why = "the recording has no pass " + name + " (it has " + std::to_string(passCount()) +
        " passes, numbered from 1; a target's own steps are TARGET/STEP)";
  std::vector<std::string> names;
  for (size_t position = 0; position < entryCount(); ++position)
    names.push_back(shortName(static_cast<int>(position)));
  if (std::optional<std::string> meant = nearestName(name, names))
    why += "; did you mean '" + *meant + "'?";
  return std::nullopt;
}

void PipelineModel::setRecording(Recording recording) {
  ++listGeneration;
  rec = std::move(recording);
  hasRec = true;
  rebuildEntries();
  rebuildDiagnostics();
  if (selectedPass < 0 && !rec.snapshots.empty())
    selectedPass = 0;
  clampSelection();
  if (customLeft >= static_cast<int>(entryCount()) ||
      customRight >= static_cast<int>(entryCount()))
    followSelection = true;
  // Nothing to step through (the input did not parse): show the source,
  // where the diagnostics point.
  if (rec.snapshots.empty() && !diags.empty()) {
    if (mode != ViewMode::Source)
      sourceShownForErrors = mode;
    mode = ViewMode::Source;
  } else if (sourceShownForErrors && !rec.snapshots.empty()) {
    // Fixed: back to the view the errors replaced.
    if (mode == ViewMode::Source)
      mode = *sourceShownForErrors;
    sourceShownForErrors.reset();
  }
  invalidateDiff();
  counts.clear();
}

std::vector<PipelineModel::HistoryStep>
PipelineModel::opHistory(const std::vector<SourceLocation> &locations) {
  std::vector<HistoryStep> steps;
  if (locations.empty())
    return steps;
  // Core's mechanism (Pipeline/OpHistory.h), as executor/opHistory uses it:
  // MLIR's loc(...), a target's LLVM IR `!dbg` and its assembly's `.loc`.
  const std::vector<SourcePlace> &places = locations;
  std::vector<int> positions = {kInputPosition};
  positions.insert(positions.end(), order.begin(), order.end());
  for (int position : positions) {
    std::shared_ptr<const std::string> text = irAt(position);
    if (!text)
      continue;
    HistoryStep step;
    step.position = position;
    for (unsigned line : SnapshotPlaces(*text, kindAt(position)).linesOf(places))
      step.lines.push_back(line + 1);
    // A target's own steps are listed where the op is (a kernel's op), not
    // for every op of the host.
    if (step.lines.empty() && isNested(position))
      continue;
    steps.push_back(std::move(step));
  }
  return steps;
}

std::optional<size_t> PipelineModel::rowOfRightLine(uint32_t line) {
  for (size_t i = 0; i < rowCount(); ++i) {
    const DiffRow &r = row(i);
    uint32_t shown = mode == ViewMode::Source ? leftLineNumber(r) : rightLineNumber(r);
    if (shown == line)
      return i;
  }
  return std::nullopt;
}

void PipelineModel::rebuildDiagnostics() {
  diags = editDiags;
  for (const RecordedDiagnostic &d : rec.diagnostics)
    flatten(d, -1, false, diags);
  for (size_t i = 0; i < entries.size(); ++i)
    for (const RecordedDiagnostic &d : entries[i].snapshot->diagnostics)
      flatten(d, static_cast<int>(i), false, diags);
}

void PipelineModel::setEditDiagnostics(const std::vector<RecordedDiagnostic> &errors,
                                       int pass) {
  editDiags.clear();
  for (const RecordedDiagnostic &d : errors)
    flatten(d, pass, false, editDiags);
  for (DiagnosticItem &item : editDiags) {
    item.edit = true;
    item.pass = "edit of " + positionName(pass);
  }
  rebuildDiagnostics();
  ++listGeneration; // (the labels count diagnostics)
}

void PipelineModel::clear() {
  ++listGeneration;
  rec = Recording();
  hasRec = false;
  entries.clear();
  order.clear();
  groups.clear();
  entryGroups.clear();
  diags.clear();
  selectedPass = -1;
  followSelection = true;
  invalidateDiff();
  counts.clear();
}

void PipelineModel::clampSelection() {
  int n = static_cast<int>(entryCount());
  if (n == 0)
    selectedPass = -1;
  else
    selectedPass = std::clamp(selectedPass, 0, n - 1);
}

std::shared_ptr<const std::string> PipelineModel::irAt(int position) const {
  if (position == kInputPosition)
    return rec.inputIR;
  if (position < 0 || position >= static_cast<int>(entryCount()))
    return nullptr;
  return entries[position].snapshot->ir;
}

std::string PipelineModel::positionName(int position) const {
  if (position == kInputPosition)
    return "input";
  if (position < 0 || position >= static_cast<int>(entryCount()))
    return "none";
  const Entry &entry = entries[position];
  if (entry.parent >= 0) // `15: cross-compile-targets/compute/asm`
    return std::to_string(number(position)) + ": " +
           rec.snapshots[entry.parent].pass + "/" + entry.snapshot->pass;
  return std::to_string(position + 1) + ": " + entry.snapshot->pass;
}

std::string PipelineModel::shortName(int position) const {
  if (position == kInputPosition)
    return "input";
  if (position < 0 || position >= static_cast<int>(entryCount()))
    return "none";
  return entries[position].snapshot->pass;
}

std::string PipelineModel::stepName(int position) const {
  std::string name = shortName(position);
  int g = groupOf(position);
  if (g < 0)
    return name;
  const std::string &target = groups[g].target;
  if (name.size() > target.size() + 1 && name.compare(0, target.size(), target) == 0 &&
      name[target.size()] == '/')
    return name.substr(target.size() + 1);
  return name;
}

StepLabel PipelineModel::listLabel(int position) const {
  StepLabel label;
  label.name = stepName(position);
  if (position < 0 || position >= static_cast<int>(entryCount()))
    return label;
  // Each target's own steps hang under their target's row under
  // cross-compile-targets, folded until it is opened.
  label.prefix = isNested(position) ? "    "
                 : hasNested(position) ? (expanded(position) ? "[-] " : "[+] ")
                                       : "";
  const Snapshot &s = *entries[position].snapshot;
  int g = groupOf(position);
  if (s.kind != SnapshotKind::MLIR && (g < 0 || s.anchor != groups[g].triple))
    label.detail = "  (" + s.anchor + ")";
  if (s.anchor.rfind("func.func", 0) == 0 || s.anchor.rfind("llvm.func", 0) == 0) {
    size_t at = s.anchor.find('@');
    label.detail += "  (" + s.anchor.substr(at == std::string::npos ? 0 : at) + ")";
  }
  if (!s.diagnostics.empty())
    label.marks += "  [" + std::to_string(s.diagnostics.size()) + " diag]";
  if (s.edited)
    label.marks += "  [edited]";
  return label;
}

StepLabel PipelineModel::groupLabel(int group) const {
  StepLabel label;
  if (group < 0 || group >= static_cast<int>(groups.size()))
    return label;
  label.prefix = groupExpanded(group) ? "  [-] " : "  [+] ";
  label.name = groups[group].target;
  if (!groups[group].triple.empty())
    label.detail = "  " + groups[group].triple;
  return label;
}

void PipelineModel::setSource(std::shared_ptr<const std::string> text,
                              std::string name) {
  source = std::move(text);
  srcName = std::move(name);
  sourceLines = source ? std::make_shared<const TextLines>(TextLines::prepare(*source))
                       : nullptr;
  sourceRows.clear();
  if (sourceLines) {
    sourceRows.reserve(sourceLines->size());
    for (size_t i = 0; i < sourceLines->size(); ++i)
      sourceRows.push_back({static_cast<int32_t>(i), -1, RowKind::Same});
  }
  rowsValid = false;
}

//===----------------------------------------------------------------------===//
// Stepping
//===----------------------------------------------------------------------===//

void PipelineModel::select(int index) {
  int before = selectedPass;
  bool wasFollowing = followSelection;
  selectedPass = index;
  clampSelection();
  if (int parent = parentOf(selectedPass); parent >= 0) {
    setExpanded(parent, true); // a nested step selected shows
    setGroupExpanded(groupOf(selectedPass), true);
  }
  followSelection = true;
  if (before != selectedPass || !wasFollowing)
    invalidateDiff();
}

namespace {
/// Where `position` is in `order` (-1: before the first).
int orderIndex(const std::vector<int> &order, int position) {
  auto it = std::find(order.begin(), order.end(), position);
  return it == order.end() ? -1 : static_cast<int>(it - order.begin());
}
} // namespace

bool PipelineModel::next() {
  for (int k = orderIndex(order, selectedPass) + 1;
       k < static_cast<int>(order.size()); ++k)
    if (passShown(order[k])) {
      select(order[k]);
      return true;
    }
  return false;
}

bool PipelineModel::previous() {
  for (int k = orderIndex(order, selectedPass) - 1; k >= 0; --k)
    if (passShown(order[k])) {
      select(order[k]);
      return true;
    }
  return false;
}

bool PipelineModel::nextChanged() {
  for (int k = orderIndex(order, selectedPass) + 1;
       k < static_cast<int>(order.size()); ++k)
    if (pass(order[k]).changed && (!isNested(order[k]) || passShown(order[k]))) {
      select(order[k]);
      return true;
    }
  return false;
}

bool PipelineModel::previousChanged() {
  for (int k = orderIndex(order, selectedPass) - 1; k >= 0; --k)
    if (pass(order[k]).changed && (!isNested(order[k]) || passShown(order[k]))) {
      select(order[k]);
      return true;
    }
  return false;
}

bool PipelineModel::first() {
  for (int position : order)
    if (passShown(position)) {
      bool moved = position != selectedPass;
      select(position);
      return moved;
    }
  return false;
}

bool PipelineModel::last() {
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (passShown(*it)) {
      bool moved = *it != selectedPass;
      select(*it);
      return moved;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// The pass list
//===----------------------------------------------------------------------===//

void PipelineModel::setPassFilter(std::string text) {
  passFilterText = std::move(text);
  ++listGeneration;
}

void PipelineModel::setHideUnchanged(bool hide) {
  hideUnchangedPasses = hide;
  ++listGeneration;
}

bool PipelineModel::passShown(size_t i) const {
  if (i >= entryCount())
    return false;
  if (static_cast<int>(i) == selectedPass)
    return true;
  if (int parent = parentOf(static_cast<int>(i));
      parent >= 0 && (!expanded(parent) || !groupExpanded(groupOf(static_cast<int>(i)))))
    return false;
  return matchesPassFilter(i);
}

bool PipelineModel::matchesPassFilter(size_t i) const {
  if (i >= entryCount())
    return false;
  const Snapshot &s = pass(i);
  if (hideUnchangedPasses && !s.changed && !s.failed && s.diagnostics.empty())
    return false;
  if (passFilterText.empty())
    return true;
  return findCaseInsensitive(s.pass, passFilterText) != std::string_view::npos ||
         findCaseInsensitive(s.options, passFilterText) != std::string_view::npos ||
         findCaseInsensitive(s.anchor, passFilterText) != std::string_view::npos;
}

std::vector<int> PipelineModel::shownPasses() const {
  std::vector<int> shown;
  for (int position : order)
    if (passShown(position))
      shown.push_back(position);
  return shown;
}

size_t PipelineModel::changedCount() const {
  return std::count_if(rec.snapshots.begin(), rec.snapshots.end(),
                       [](const Snapshot &s) { return s.changed; });
}

//===----------------------------------------------------------------------===//
// What is compared
//===----------------------------------------------------------------------===//

void PipelineModel::compare(int left, int right) {
  int n = static_cast<int>(entryCount());
  customLeft = std::clamp(left, kInputPosition, n - 1);
  customRight = std::clamp(right, kInputPosition, n - 1);
  followSelection = false;
  invalidateDiff();
}

int PipelineModel::leftPosition() const {
  if (!followSelection)
    return customLeft;
  return previousOf(selectedPass);
}

int PipelineModel::rightPosition() const {
  if (!followSelection)
    return customRight;
  return selectedPass < 0 ? kInputPosition : selectedPass;
}

void PipelineModel::setLineOptions(const LineOptions &options) {
  if (options == lineOpts)
    return;
  lineOpts = options;
  invalidateDiff();
}

void PipelineModel::setStructural(bool value) {
  if (value == structuralDiff)
    return;
  structuralDiff = value;
  invalidateDiff();
}

void PipelineModel::setViewMode(ViewMode newMode) {
  sourceShownForErrors.reset(); // the user chose
  if (newMode == mode)
    return;
  mode = newMode;
  rowsValid = false;
  highlight = -1;
}

void PipelineModel::setWholeFile(bool value) {
  if (value == whole)
    return;
  whole = value;
  invalidateDiff();
}

void PipelineModel::invalidateDiff() {
  diffValid = false;
  rowsValid = false;
  highlight = -1;
}

std::shared_ptr<const TextLines>
PipelineModel::prepared(const std::shared_ptr<const std::string> &text,
                        const LineOptions &options) {
  static const std::shared_ptr<const TextLines> empty =
      std::make_shared<const TextLines>();
  if (!text)
    return empty;
  for (size_t i = 0; i < cache.size(); ++i)
    if (cache[i].text == text && cache[i].options == options) {
      CacheEntry hit = cache[i];
      cache.erase(cache.begin() + i);
      cache.push_back(hit);
      return hit.lines;
    }
  auto lines = std::make_shared<const TextLines>(TextLines::prepare(*text, options));
  cache.push_back({text, options, lines});
  if (cache.size() > 6)
    cache.erase(cache.begin());
  return lines;
}

SnapshotKind PipelineModel::kindAt(int position) const {
  if (position < 0 || position >= static_cast<int>(entryCount()))
    return SnapshotKind::MLIR;
  return entries[position].snapshot->kind;
}

std::shared_ptr<const std::string>
PipelineModel::alignedRight(const std::shared_ptr<const std::string> &left,
                            const std::shared_ptr<const std::string> &right, std::string &error,
                            std::shared_ptr<const std::vector<uint32_t>> &origins) {
  for (size_t i = 0; i < alignedCache.size(); ++i)
    if (alignedCache[i].left == left && alignedCache[i].right == right) {
      AlignedEntry hit = alignedCache[i];
      alignedCache.erase(alignedCache.begin() + i);
      alignedCache.push_back(hit);
      error = hit.error;
      origins = hit.origins;
      return hit.aligned;
    }
  addAlignment(left, right, alignSnapshots(*left, *right));
  const AlignedEntry &entry = alignedCache.back();
  error = entry.error;
  origins = entry.origins;
  return entry.aligned;
}

PipelineModel::AlignedEntry
PipelineModel::alignedEntry(std::shared_ptr<const std::string> left,
                            std::shared_ptr<const std::string> right,
                            llvm::Expected<AlignedSnapshots> aligned) {
  AlignedEntry entry{left, right, nullptr, {}, nullptr};
  if (aligned) {
    entry.aligned = aligned->renamed || aligned->moved
                        ? std::make_shared<const std::string>(std::move(aligned->right))
                        : right;
    if (!aligned->rightLineOrigins.empty())
      entry.origins = std::make_shared<const std::vector<uint32_t>>(
          std::move(aligned->rightLineOrigins));
  } else
    entry.error = llvm::toString(aligned.takeError());
  return entry;
}

void PipelineModel::addAlignment(std::shared_ptr<const std::string> left,
                                 std::shared_ptr<const std::string> right,
                                 llvm::Expected<AlignedSnapshots> aligned) {
  keepAlignment(alignedEntry(std::move(left), std::move(right), std::move(aligned)));
}

void PipelineModel::keepAlignment(AlignedEntry entry) {
  for (size_t i = 0; i < alignedCache.size(); ++i)
    if (alignedCache[i].left == entry.left && alignedCache[i].right == entry.right) {
      alignedCache.erase(alignedCache.begin() + i);
      break;
    }
  alignedCache.push_back(std::move(entry));
  if (alignedCache.size() > 4)
    alignedCache.erase(alignedCache.begin());
}

PipelineModel::PreparedDiff
PipelineModel::prepareDiff(std::shared_ptr<const std::string> left,
                           std::shared_ptr<const std::string> right, bool structural,
                           LineOptions options) {
  PreparedDiff prepared;
  prepared.left = left;
  prepared.right = right;
  prepared.structural = structural;
  std::shared_ptr<const std::string> compared = right;
  // As diffView: the right text aligned with the left, SSA names then kept.
  if (structural && left != right) {
    AlignedEntry entry = alignedEntry(left, right, alignSnapshots(*left, *right));
    prepared.aligned = entry.aligned;
    prepared.origins = entry.origins;
    prepared.alignError = entry.error;
    if (entry.aligned) {
      compared = entry.aligned;
      options.normaliseSsaNames = false;
    }
  } else if (structural) {
    options.normaliseSsaNames = false;
  }
  prepared.options = options;
  if (left != compared) {
    TextLines leftLines = TextLines::prepare(*left, options);
    TextLines rightLines = TextLines::prepare(*compared, options);
    if (prepared.origins)
      rightLines = rightLines.renumbered(*prepared.origins);
    prepared.diff = diffLines(leftLines, rightLines);
  }
  return prepared;
}

void PipelineModel::addPreparedDiff(PreparedDiff prepared) {
  std::shared_ptr<const std::string> compared = prepared.right;
  if (prepared.structural && prepared.left != prepared.right) {
    keepAlignment({prepared.left, prepared.right, prepared.aligned,
                   prepared.alignError, prepared.origins});
    if (prepared.aligned)
      compared = prepared.aligned;
  }
  if (prepared.left == compared)
    return; // diffView needs no diff
  diffCache.push_back(
      {prepared.left, compared, prepared.options, std::move(prepared.diff)});
  if (diffCache.size() > 2)
    diffCache.erase(diffCache.begin());
}

const DiffView &PipelineModel::diffView() {
  if (diffValid)
    return view;
  view = DiffView();
  view.leftPosition = leftPosition();
  view.rightPosition = rightPosition();
  std::shared_ptr<const std::string> leftText = irAt(view.leftPosition);
  std::shared_ptr<const std::string> rightText = irAt(view.rightPosition);
  LineOptions options = lineOpts;
  std::shared_ptr<const std::vector<uint32_t>> origins;
  if (structuralDiff && leftText && rightText && leftText != rightText &&
      kindAt(view.leftPosition) == SnapshotKind::MLIR &&
      kindAt(view.rightPosition) == SnapshotKind::MLIR) {
    if (auto aligned = alignedRight(leftText, rightText, view.structuralError, origins)) {
      rightText = aligned;
      options.normaliseSsaNames = false; // the names are aligned already
      view.structural = true;
    }
  } else if (structuralDiff && leftText == rightText) {
    options.normaliseSsaNames = false;
  }
  view.left = prepared(leftText, options);
  view.right = prepared(rightText, options);
  if (origins) // moved functions put back in place: number by the printed lines
    view.right = std::make_shared<const TextLines>(view.right->renumbered(*origins));
  if (view.left == view.right) {
    // An unchanged pass shares its text with the one before: no diff to run.
    if (!view.left->empty())
      view.diff.blocks.push_back({0, static_cast<uint32_t>(view.left->size()), 0,
                                  static_cast<uint32_t>(view.right->size()), true});
  } else {
    // A diff made on the recording thread (addPreparedDiff), else now.
    auto made = std::find_if(diffCache.begin(), diffCache.end(), [&](const DiffEntry &entry) {
      return entry.left == leftText && entry.right == rightText && entry.options == options;
    });
    view.diff = made != diffCache.end() ? made->diff : diffLines(*view.left, *view.right);
  }
  view.sideBySide = sideBySideRows(view.diff);
  view.unified = unifiedRows(view.diff, whole ? kWholeFile : 3);
  diffValid = true;
  rowsValid = false;
  return view;
}

//===----------------------------------------------------------------------===//
// Rows
//===----------------------------------------------------------------------===//

void PipelineModel::rebuildRows() {
  if (mode == ViewMode::Source) {
    modeRows = &sourceRows;
  } else {
    diffView();
    modeRows = mode == ViewMode::Unified ? &view.unified : &view.sideBySide;
  }
  rowsValid = true; // before leftText/rightText, which consult the mode
  shownRows.clear();
  shownRows.reserve(modeRows->size());
  for (size_t i = 0; i < modeRows->size(); ++i) {
    const DiffRow &r = (*modeRows)[i];
    if (!filter.empty()) {
      if (r.kind == RowKind::Hunk)
        continue;
      if (!filter.matches(leftText(r)) && !filter.matches(rightText(r)))
        continue;
    }
    shownRows.push_back(static_cast<uint32_t>(i));
  }
  ++rowsGen;
  hitsValid = false;
}

void PipelineModel::refresh() {
  if (!diffValid && mode != ViewMode::Source)
    diffView();
  if (!rowsValid)
    rebuildRows();
  if (pendingSourceLine && mode == ViewMode::Source && sourceLines) {
    size_t line = sourceLines->indexOfSourceLine(*pendingSourceLine);
    pendingSourceLine.reset();
    // The shown row of that line (the filter may hide it: the next shown).
    auto it = std::lower_bound(shownRows.begin(), shownRows.end(),
                               static_cast<uint32_t>(line));
    if (it != shownRows.end()) {
      size_t shown = it - shownRows.begin();
      requestScroll(shown);
      highlight = static_cast<long>(shown);
    }
  }
}

size_t PipelineModel::rowCount() {
  refresh();
  return shownRows.size();
}

const DiffRow &PipelineModel::row(size_t shown) {
  refresh();
  return (*modeRows)[shownRows[shown]];
}

std::string_view PipelineModel::leftText(const DiffRow &r) {
  if (r.left < 0 || r.kind == RowKind::Hunk)
    return {};
  if (mode == ViewMode::Source)
    return sourceLines ? sourceLines->line(r.left) : std::string_view();
  return view.left ? view.left->line(r.left) : std::string_view();
}

std::string_view PipelineModel::rightText(const DiffRow &r) {
  if (r.right < 0 || r.kind == RowKind::Hunk || mode == ViewMode::Source)
    return {};
  return view.right ? view.right->line(r.right) : std::string_view();
}

uint32_t PipelineModel::leftLineNumber(const DiffRow &r) {
  if (r.left < 0 || r.kind == RowKind::Hunk)
    return 0;
  if (mode == ViewMode::Source)
    return sourceLines ? sourceLines->sourceLine(r.left) : 0;
  return view.left ? view.left->sourceLine(r.left) : 0;
}

uint32_t PipelineModel::rightLineNumber(const DiffRow &r) {
  if (r.right < 0 || r.kind == RowKind::Hunk || mode == ViewMode::Source)
    return 0;
  return view.right ? view.right->sourceLine(r.right) : 0;
}

size_t PipelineModel::maxLineLength() {
  refresh();
  if (mode == ViewMode::Source)
    return sourceLines ? sourceLines->maxLength() : 0;
  size_t n = 0;
  if (view.left)
    n = std::max(n, view.left->maxLength());
  if (view.right)
    n = std::max(n, view.right->maxLength());
  return n;
}

//===----------------------------------------------------------------------===//
// The IR filter
//===----------------------------------------------------------------------===//

void PipelineModel::setIrFilter(IrFilter newFilter) {
  ++listGeneration;
  if (newFilter.text == filter.text && newFilter.opName == filter.opName)
    return;
  filter = std::move(newFilter);
  rowsValid = false;
  highlight = -1;
}

size_t PipelineModel::filterCount(int position) {
  std::shared_ptr<const std::string> text = irAt(position);
  if (!text || filter.empty())
    return 0;
  for (const CountEntry &e : counts)
    if (e.text == text && e.filter == filter.text && e.opName == filter.opName)
      return e.count;
  size_t n = 0;
  std::string_view all(*text);
  size_t at = 0;
  while (at < all.size()) {
    size_t end = all.find('\n', at);
    if (end == std::string_view::npos)
      end = all.size();
    if (filter.matches(all.substr(at, end - at)))
      ++n;
    at = end + 1;
  }
  counts.push_back({text, filter.text, filter.opName, n});
  if (counts.size() > 256)
    counts.erase(counts.begin());
  return n;
}

//===----------------------------------------------------------------------===//
// Search
//===----------------------------------------------------------------------===//

void PipelineModel::setSearch(std::string query) {
  if (query == searchQuery)
    return;
  searchQuery = std::move(query);
  hitsValid = false;
  hitIndex = -1;
}

const std::vector<uint32_t> &PipelineModel::searchHits() {
  refresh();
  if (hitsValid && hitsRowsGen == rowsGen)
    return hits;
  hits.clear();
  if (!searchQuery.empty()) {
    for (size_t i = 0; i < shownRows.size(); ++i) {
      const DiffRow &r = (*modeRows)[shownRows[i]];
      if (findCaseInsensitive(leftText(r), searchQuery) != std::string_view::npos ||
          findCaseInsensitive(rightText(r), searchQuery) != std::string_view::npos)
        hits.push_back(static_cast<uint32_t>(i));
    }
  }
  if (hitsRowsGen != rowsGen)
    hitIndex = -1;
  hitsValid = true;
  hitsRowsGen = rowsGen;
  return hits;
}

std::optional<size_t> PipelineModel::nextHit() {
  const std::vector<uint32_t> &h = searchHits();
  if (h.empty())
    return std::nullopt;
  if (hitIndex < 0 && highlight >= 0) {
    // Start from the marked row.
    auto it = std::upper_bound(h.begin(), h.end(), static_cast<uint32_t>(highlight));
    hitIndex = it == h.end() ? 0 : static_cast<int>(it - h.begin());
  } else {
    hitIndex = (hitIndex + 1) % static_cast<int>(h.size());
  }
  highlight = h[hitIndex];
  requestScroll(h[hitIndex]);
  return h[hitIndex];
}

std::optional<size_t> PipelineModel::firstHit() {
  const std::vector<uint32_t> &h = searchHits();
  if (h.empty())
    return std::nullopt;
  hitIndex = 0;
  highlight = h[0];
  requestScroll(h[0]);
  return h[0];
}

std::optional<size_t> PipelineModel::previousHit() {
  const std::vector<uint32_t> &h = searchHits();
  if (h.empty())
    return std::nullopt;
  int n = static_cast<int>(h.size());
  hitIndex = hitIndex < 0 ? n - 1 : (hitIndex - 1 + n) % n;
  highlight = h[hitIndex];
  requestScroll(h[hitIndex]);
  return h[hitIndex];
}

std::optional<size_t> PipelineModel::takeScrollRequest() {
  std::optional<size_t> r = scrollRequest;
  scrollRequest.reset();
  return r;
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

size_t PipelineModel::errorCount() const {
  return std::count_if(diags.begin(), diags.end(), [](const DiagnosticItem &d) {
    return !d.isNote && d.severity == RecordedDiagnostic::Severity::Error;
  });
}

void PipelineModel::jumpTo(const DiagnosticItem &item) {
  if (item.snapshot >= 0)
    select(item.snapshot);
  if (item.edit)
    return; // a line of the edited text: the editor shows it
  if (item.line > 0)
    showSourceLine(item.line);
}

void PipelineModel::showSourceLine(unsigned line) {
  std::optional<ViewMode> keep = sourceShownForErrors;
  setViewMode(ViewMode::Source);
  sourceShownForErrors = keep;
  pendingSourceLine = line;
  rowsValid = rowsValid && mode == ViewMode::Source;
}

} // namespace executor_studio::gui
