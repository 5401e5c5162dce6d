//===- Panels.h - the studio's panels (private to gui/ui) -------*- C++ -*-===//
#ifndef STUDIOUI_PANELS_H
#define STUDIOUI_PANELS_H

#include "StudioUI/StudioView.h"

#include "ExecutorStudio/Pipeline/OpHistory.h"
#include "StudioModel/IrText.h"
#include "StudioModel/Settings.h"
#include "StudioModel/Studio.h"

#include <imgui.h>

#include <map>
#include <memory>
#include <vector>
#include <string>

namespace executor_studio::gui {
struct GraphViewState;

/// The colours the views share.
namespace colors {
ImU32 removedBg();
ImU32 addedBg();
ImU32 changedLeftBg();
ImU32 changedRightBg();
ImU32 hunkBg();
ImU32 highlightBg();
ImU32 matchBg();
ImU32 errorBg();
ImVec4 dim();
ImVec4 error();
ImVec4 warning();
ImVec4 ok();
ImVec4 changed();
ImVec4 accent();
ImVec4 server();
ImU32 text();
ImU32 lineNumber();
} // namespace colors

struct StudioView::State {
  Settings *settings = nullptr;
  int launchKey = -1;

  // Toolbar fields being typed.
  std::string openPath;
  std::string pipelineEdit;
  std::string passFilter;
  std::string irFilter;
  bool irFilterOp = false;
  std::string search;
  bool focusSearch = false;

  // The IR view.
  float hscroll = 0;
  float scrollDelta = 0;
  float lastScroll = 0, lastScrollMax = 0;
  int rowsDrawn = 0;
  bool drawAllRows = false;
  uint64_t lastRowsGen = 0;
  int lastSelected = -2;
  bool scrollPassList = false;

  // Editing the IR after a pass.
  bool editing = false;
  int editPass = -2;
  std::string editBuffer;
  uint64_t seenEditGen = 0;
  bool rerunPending = false;
  /// Move the editor's cursor to this 1-based line on the next frame.
  int editCursorLine = 0;
  std::string savePath;
  std::string saveMessage;
  bool saveFailed = false;

  // The result inspector: one input or result of one launch.
  uint64_t inspectLaunch = 0;
  bool inspectInput = false;
  int inspectIndex = 0;
  std::vector<int> inspectSlice;
  std::string inspectSummary;
  /// The element under the cursor in the plot or heatmap (`[2] = 9`), and
  /// the inspector window's corners, in the last frame.
  std::string inspectHover;

  // An op's history: the locations it is followed by, the line it was
  // picked from, and where they are in each snapshot.
  std::vector<SourceLocation> historyLocations;
  std::string historyLabel;
  std::vector<PipelineModel::HistoryStep> history;
  ImVec2 inspectMin, inspectMax;

  // The source file an IR line's loc(...) names ("go to source").
  std::string sourcePath;
  std::vector<std::string> sourceLines;
  unsigned sourceLine = 0;
  bool sourceScroll = false;

  // The linked view: the source beside a step (LinkedView.cpp). The map
  // of the step's text, the highlighted source line (0: none), whether a
  // click kept it, the step line `]`/`[` went to, and lines to scroll to.
  bool linkedWanted = false;
  std::shared_ptr<const std::string> linkedText;
  int linkedPosition = -2;
  uint64_t linkedSourceGen = 0;
  TextLines linkedStep, linkedSource;
  SourceLineMap linkedMap;
  unsigned linkedLine = 0, linkedShown = 0;
  bool linkedPinned = false;
  int linkedCursor = -1;
  int linkedScrollStep = -1, linkedScrollSource = -1;
  // The Graph view's pan and zoom (GraphView.cpp).
  std::shared_ptr<GraphViewState> graphView;

  // The executor panel.
  std::string address;
  uint64_t lastLogGen = 0;

  // Widgets the last frame drew (centres), for tests.
  struct Probe {
    ImVec2 center;
    bool enabled = true;
    /// Its right edge, as drawn (clipped by its window).
    float right = 0;
    /// The text it drew (a name fitted to its column) and the width the
    /// column had for it, in pixels.
    std::string text;
    float room = 0;
  };
  std::map<std::string, Probe> probes;

  /// Where each panel was drawn in the last frame ("passes", "ir",
  /// "executor", "inspector", "op-history", "source-file"), and the width
  /// of one IR pane (the side-by-side view's half, else the whole view).
  struct Rect {
    ImVec2 min, max;
  };
  std::map<std::string, Rect> panels;
  float irPaneWidth = 0;

  /// Remembers where the last item was drawn as `name`.
  void probe(const std::string &name, bool enabled = true);
  /// The same, with the text it drew in `room` pixels.
  void probeText(const std::string &name, std::string text, float room);
};

void drawPassList(Studio &studio, StudioView::State &state);
/// The width the pass list needs to show every name whole beside its
/// number and time (the automatic width).
float passListWidthNeeded(const PipelineModel &passes);
/// The least width the automatic layout gives it: kNameMinChars of a name.
float passListWidthLeast();
void drawIrView(Studio &studio, StudioView::State &state);
/// Whether the IR view shows the linked view: at a kernel's LLVM IR and
/// assembly (where a text diff means nothing), or when "linked" is ticked.
bool linkedViewWanted(Studio &studio, const StudioView::State &state);
/// The source beside the selected step, line by line linked.
void drawLinkedView(Studio &studio, StudioView::State &state);
/// `]` (1) and `[` (-1): the next or previous step line of the highlighted
/// source line.
void moveLinkedCursor(StudioView::State &state, int step);
/// The IR view and, when the graph is shown, the Graph view below it
/// (GraphView.cpp).
void drawIrAndGraph(Studio &studio, StudioView::State &state);
/// The toolbar's "graph" box.
void drawGraphToggle(Studio &studio, StudioView::State &state);
void drawDiagnostics(Studio &studio, StudioView::State &state);
/// The executor column open: its fold button, the connection, kernels,
/// inputs, launches and log.
void drawExecutorPanel(Studio &studio, StudioView::State &state);
/// The executor column folded: a strip naming it in its state's colour;
/// a click opens it (Settings::executorFolded).
void drawExecutorStrip(Studio &studio, StudioView::State &state);
float executorStripWidth();
/// Opens the inspector on input (or result) `index` of launch `id`.
void inspect(StudioView::State &state, uint64_t id, bool input, int index);
/// The inspector window, when one is open.
void drawInspector(Studio &studio, StudioView::State &state);
/// Follows the ops with `locations` through every snapshot (`label`: the
/// line they were picked from).
void openOpHistory(Studio &studio, StudioView::State &state,
                   std::vector<SourceLocation> locations, std::string label);
/// The op history window, when one is open.
void drawOpHistory(Studio &studio, StudioView::State &state);
/// The source file panel of "go to source", when one is open.
void drawSourceFile(StudioView::State &state);
/// A docked panel's title row: `title` and, at its right, a close button;
/// true when the button was pressed. Remembers the panel (the current
/// child window) as `name` in State::panels.
bool panelHeader(StudioView::State &state, const char *name, const std::string &title);
/// Starts editing the IR after pass `pass` (-1: the input) in the IR view.
void beginEdit(Studio &studio, StudioView::State &state, int pass);
/// The IR view's edit controls (edit, re-run, revert, save) on one row.
void drawEditBar(Studio &studio, StudioView::State &state);
/// The edit an earlier session kept (Studio::recoveredEdit): Restore or
/// Discard. Draws nothing when there is none.
void drawRecoveryBanner(Studio &studio, StudioView::State &state);
/// The editor in place of the IR rows, with the edit's errors at their lines.
void drawEditor(Studio &studio, StudioView::State &state);

/// ImGui::InputText on a std::string (grows as needed).
bool inputString(const char *label, std::string &value,
                 ImGuiInputTextFlags flags = 0, const char *hint = nullptr);
/// The width of a character of the studio's (monospaced) font.
float characterWidth();
/// `label` (StepLabel::fit) in at most `room` pixels.
std::string fitLabel(const StepLabel &label, float room);
/// A small coloured square, as in the pass list.
void marker(ImVec4 color);
/// Text with a tooltip of its full form when it is cut.
void helpTooltip(const char *text);
/// SameLine() when an item `width` wide still fits beside the last one,
/// else nothing (the item goes on a new line): rows of controls wrap in a
/// narrow window instead of running off its edge.
void sameLineOrWrap(float width);
/// The width of a button, a checkbox or a radio button labelled `label`.
float buttonWidth(const char *label);
float checkboxWidth(const char *label);

} // namespace executor_studio::gui

#endif // STUDIOUI_PANELS_H
