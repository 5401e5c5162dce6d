//===- StudioView.h - executor-studio's window, in Dear ImGui ---*- C++ -*-===//
//
// Draws the studio into the current ImGui frame: toolbar, pass list, the
// before/after IR (side by side, unified or the source), diagnostics, the
// executor panel and the status bar. It holds only view state (scroll
// positions, text being typed); everything else is in the Studio model.
// No window system here: the app (GLFW + OpenGL3) and the tests (a null
// backend) drive it the same way.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOUI_STUDIOVIEW_H
#define STUDIOUI_STUDIOVIEW_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace executor_studio::gui {

class Studio;
struct Settings;

/// Dear ImGui style and fonts for the studio. Call once after
/// ImGui::CreateContext(); `fontSize` in pixels. Uses DejaVu Sans Mono when
/// installed, ImGui's built-in font otherwise.
void setupStyle(float fontSize);

class StudioView {
public:
  /// Reads the layout and view options from `settings`, and writes them
  /// back as the user changes them (the app saves the file).
  StudioView(Studio &studio, Settings &settings);
  ~StudioView();

  /// The io.KeysDown index of F5 (Dear ImGui 1.86 has no named F keys; the
  /// GLFW app passes GLFW_KEY_F5).
  void setLaunchKey(int keyIndex);

  /// Draws one frame, filling the display. Call between ImGui::NewFrame()
  /// and ImGui::Render(); it calls studio.update() first.
  void draw();

  /// Opens the result inspector on input (or result) `index` of launch `id`.
  void openInspector(uint64_t id, bool input, int index);
  /// Follows the op at 1-based line `line` of position `position`'s text
  /// through every snapshot (as its context menu's "history of this op");
  /// false when there is no such line or it names no location (`why`, if
  /// given, says which: "line 500 is past the end of input (42 lines)").
  bool openOpHistory(int position, unsigned line, std::string *why = nullptr);
  /// The same for the op at `line` (1-based) of the document's file, at
  /// `column` (0: the ops of the line): a line of the file, not of the
  /// printed input (findOpsAtFileLine); `why`: "line 9 of prog.mlir holds
  /// no op: `// a comment`".
  bool openOpHistoryAtFileLine(unsigned line, unsigned column = 0, std::string *why = nullptr);
  /// What the inspector shows (type, shape, min/max/mean/NaN) in the last
  /// frame; empty when it is closed.
  const std::string &inspectorSummary() const;
  /// The element the cursor is over in the inspector's plot or heatmap
  /// (`[2] = 9`); empty when none.
  const std::string &inspectorHover() const;
  /// Opens the source file panel on `path` at `line` (1-based; as "go to
  /// source" does); false when the file cannot be read.
  bool openSourceFile(const std::string &path, unsigned line);
  /// The inspector panel's corners in the last frame (false: closed).
  bool inspectorBounds(float &x0, float &y0, float &x1, float &y1) const;
  /// A panel's corners in the last frame: "passes", "ir", "executor", and
  /// the docked ones while open, "op-history", "inspector", "source-file".
  bool panelBounds(const std::string &name, float &x0, float &y0, float &x1, float &y1) const;
  /// The width of one IR pane in the last frame (half the view side by
  /// side), text and line numbers.
  float irPaneWidth() const;
  /// Starts editing the IR after pass `pass` (0-based) with `text`
  /// (headless screenshots); the view re-runs it on the next frame.
  void editAndRerun(int pass, const std::string &text);

  /// Types `text` into the search field (headless screenshots).
  void setSearch(const std::string &text);

  /// Where a named widget was drawn in the last frame (its centre), for
  /// tests that click it: "launch", "launch-async", "start-local",
  /// "connect", "next-pass", "search". False when it was not drawn.
  bool widgetCenter(const std::string &name, float &x, float &y) const;
  /// The right edge of a named widget drawn whole in its window; -1 when
  /// the window's edge cut it, false when it was not drawn.
  bool widgetRight(const std::string &name, float &right) const;
  /// The text a named widget drew in the last frame, fitted to its column,
  /// and the column's width for it in pixels: a pass list row's name
  /// ("pass-POSITION"; its time, when that column is shown, is
  /// "pass-ms-POSITION"), an op history row ("history-I"). False when it
  /// was not drawn or draws no text.
  bool widgetText(const std::string &name, std::string &text, float &room) const;
  /// Whether the named widget was drawn enabled.
  bool widgetEnabled(const std::string &name) const;

  /// The linked view (the source beside a step): the highlighted source
  /// line (1-based; 0: none), the step lines (0-based) it became, and the
  /// step line `]`/`[` went to (-1: none).
  unsigned linkedSourceLine() const;
  std::vector<unsigned> linkedStepLines() const;
  int linkedStepCursor() const;

  /// Scrolls the IR view by `pixels` on the next frame (wrapping to the
  /// top at the end): the frame-time benchmark.
  void scrollIrBy(float pixels);
  float irScroll() const;
  float irScrollMax() const;
  /// How many IR rows the last frame drew.
  int irRowsDrawn() const;

  /// Reference mode for the benchmark: draw every IR row instead of only
  /// the visible ones (what ImGuiListClipper saves).
  void setDrawAllRows(bool all);

  struct State;

private:
  Studio &studio;
  Settings &settings;
  std::unique_ptr<State> state;
};

} // namespace executor_studio::gui

#endif // STUDIOUI_STUDIOVIEW_H
