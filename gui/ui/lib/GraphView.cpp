//===- GraphView.cpp - the graph of the function at the cursor --*- C++ -*-===//
//
// The Graph view: the function at the IR view's cursor at the selected step
// (GraphModel, core's IrGraph), drawn with ImGui's draw lists from
// Graphviz's coordinates: cluster boxes, edge splines (cubic Béziers) with
// arrow heads, node boxes with their labels. Drag pans, the wheel zooms
// about the mouse, a click on a node selects its line in the IR view, and a
// line clicked in the IR view marks its node. Shown below the IR view when
// the toolbar's "graph" box is ticked.
//
//===----------------------------------------------------------------------===//
#include "Panels.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace executor_studio::gui {

struct GraphViewState {
  float zoom = 1;
  ImVec2 pan{0, 0};
  uint64_t fittedGeneration = ~uint64_t(0);
  unsigned followedCursor = 0;
  long followedHighlight = -1;
  bool dragged = false;
  /// Fit the whole graph on the next frame.
  bool fit = false;
};

namespace {
GraphViewState &viewState(StudioView::State &state) {
  if (!state.graphView)
    state.graphView = std::make_shared<GraphViewState>();
  return *state.graphView;
}

ImU32 nodeFill(const IrGraphNode &node) {
  if (node.kind == IrGraphNode::Kind::Argument)
    return IM_COL32(40, 80, 52, 255);
  if (node.kind == IrGraphNode::Kind::Region)
    return IM_COL32(70, 60, 110, 255);
  if (node.isLaunch)
    return IM_COL32(110, 76, 20, 255);
  return IM_COL32(48, 54, 66, 255);
}

/// Centres the graph in `size` at a zoom that shows all of it (at most
/// 1.5): "fit", and a graph opening that is readable so. One too large
/// for that (a zoom under 0.5) opens at zoom 1 with its top at the top of
/// the pane, centred across on the node `focus` (the cursor's, else the
/// top one).
void fitGraph(GraphViewState &view, const LaidOutGraph &laidOut, ImVec2 size, bool opening,
              std::optional<size_t> focus) {
  const GraphLayout &layout = laidOut.layout;
  float zx = size.x / static_cast<float>(layout.width + 20);
  float zy = size.y / static_cast<float>(layout.height + 20);
  view.zoom = std::clamp(std::min(zx, zy), 0.02f, 1.5f);
  view.pan = ImVec2((size.x - static_cast<float>(layout.width) * view.zoom) / 2,
                    std::max(4.0f, (size.y - static_cast<float>(layout.height) * view.zoom) / 2));
  if (!opening || view.zoom >= 0.5f || layout.nodes.empty())
    return;
  view.zoom = 1;
  double top = layout.nodes[0].y - layout.nodes[0].height / 2;
  size_t topNode = 0;
  for (size_t i = 0; i < layout.nodes.size(); ++i)
    if (double y = layout.nodes[i].y - layout.nodes[i].height / 2; y < top)
      top = y, topNode = i;
  for (const GraphLayout::Cluster &c : layout.clusters)
    top = std::min(top, c.y0);
  const GraphLayout::Node &n = layout.nodes[focus.value_or(topNode)];
  view.pan.x = size.x / 2 - static_cast<float>(n.x);
  view.pan.y = 4 - static_cast<float>(top);
  // The cursor's node further down: in sight, a third of the way down.
  if (focus && n.y - top > size.y * 0.8)
    view.pan.y = size.y / 3 - static_cast<float>(n.y);
}
} // namespace

void drawGraphToggle(Studio &studio, StudioView::State &state) {
  bool shown = studio.graph().shown();
  if (ImGui::Checkbox("graph", &shown)) {
    studio.graph().setShown(shown);
    viewState(state).fittedGeneration = ~uint64_t(0);
  }
  state.probe("graph-toggle");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the graph of the function at the cursor, below the IR");
}

void drawGraphView(Studio &studio, StudioView::State &state) {
  PipelineModel &m = studio.passes();
  GraphModel &g = studio.graph();
  GraphViewState &view = viewState(state);
  int position = m.rightPosition();

  // The IR view's marked line (a search hit, a diagnostic) moves the cursor.
  if (m.highlightedRow() != view.followedHighlight) {
    view.followedHighlight = m.highlightedRow();
    if (m.highlightedRow() >= 0 && static_cast<size_t>(m.highlightedRow()) < m.rowCount())
      if (uint32_t line = m.rightLineNumber(m.row(static_cast<size_t>(m.highlightedRow()))))
        g.setCursorLine(line);
  }
  if (m.hasRecording())
    g.update(position, m.irAt(position), m.snapshotKind(position) == SnapshotKind::MLIR);

  const LaidOutGraph *laidOut = g.graph();
  if (!laidOut) {
    ImGui::TextColored(colors::dim(), "graph: %s",
                       m.hasRecording() ? g.error().c_str() : "open a .mlir file");
    return;
  }
  const IrGraph &graph = laidOut->graph;
  const GraphLayout &layout = laidOut->layout;
  ImGui::TextColored(colors::accent(), "@%s", graph.function.c_str());
  ImGui::SameLine();
  ImGui::TextColored(colors::dim(), "at %s: %zu ops, %zu nodes, %zu edges%s",
                     m.shortName(position).c_str(), graph.opCount, graph.nodes.size(),
                     graph.edges.size(),
                     graph.collapsed ? " (regions collapsed: too many ops)" : "");
  ImGui::SameLine();
  if (ImGui::SmallButton("fit"))
    view.fit = true;
  state.probe("graph-fit");

  ImGui::BeginChild("##graph", ImVec2(0, 0), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                        ImGuiWindowFlags_NoMove);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 size = ImGui::GetContentRegionAvail();
  size.x = std::max(size.x, 10.0f);
  size.y = std::max(size.y, 10.0f);
  if (view.fit || view.fittedGeneration != g.generation()) {
    // A new graph opens fitted to the pane, as "fit" shows it (one too
    // large to read so, at its top).
    fitGraph(view, *laidOut, size, !view.fit, g.cursorNode());
    view.fit = false;
    view.fittedGeneration = g.generation();
  }
  ImGui::InvisibleButton("##graph-canvas", size);
  bool hovered = ImGui::IsItemHovered();
  ImGuiIO &io = ImGui::GetIO();
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3)) {
    view.pan.x += io.MouseDelta.x;
    view.pan.y += io.MouseDelta.y;
    view.dragged = true;
  }
  auto toWorld = [&](ImVec2 s) {
    return GraphPoint{(s.x - origin.x - view.pan.x) / view.zoom,
                      (s.y - origin.y - view.pan.y) / view.zoom};
  };
  auto toScreen = [&](double x, double y) {
    return ImVec2(origin.x + view.pan.x + static_cast<float>(x) * view.zoom,
                  origin.y + view.pan.y + static_cast<float>(y) * view.zoom);
  };
  if (hovered && io.MouseWheel != 0) {
    GraphPoint under = toWorld(io.MousePos);
    float zoom = std::clamp(view.zoom * std::pow(1.15f, io.MouseWheel), 0.02f, 8.0f);
    view.zoom = zoom;
    view.pan.x = io.MousePos.x - origin.x - static_cast<float>(under.x) * zoom;
    view.pan.y = io.MousePos.y - origin.y - static_cast<float>(under.y) * zoom;
  }
  std::optional<size_t> under =
      hovered ? layout.nodeAt(toWorld(io.MousePos)) : std::optional<size_t>();
  if (ImGui::IsItemDeactivated()) {
    if (!view.dragged && under) {
      // A click: the node's line in the IR view.
      if (unsigned line = g.selectNode(*under)) {
        view.followedCursor = line;
        if (std::optional<size_t> row = m.rowOfRightLine(line)) {
          m.markRow(*row);
          view.followedHighlight = static_cast<long>(*row);
        }
      }
    }
    view.dragged = false;
  }
  std::optional<size_t> cursorNode = g.cursorNode();
  // A cursor moved in the IR view brings its node into view.
  if (g.cursorLine() != view.followedCursor) {
    view.followedCursor = g.cursorLine();
    if (cursorNode) {
      const GraphLayout::Node &n = layout.nodes[*cursorNode];
      ImVec2 s = toScreen(n.x, n.y);
      if (s.x < origin.x || s.y < origin.y || s.x > origin.x + size.x ||
          s.y > origin.y + size.y) {
        view.pan.x += origin.x + size.x / 2 - s.x;
        view.pan.y += origin.y + size.y / 2 - s.y;
      }
    }
  }

  ImDrawList *draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  // Only what is in view is drawn (a 2,000-op function has thousands of
  // nodes and edges).
  GraphPoint seen0 = toWorld(origin), seen1 = toWorld(ImVec2(origin.x + size.x, origin.y + size.y));
  auto inView = [&](double x0, double y0, double x1, double y1) {
    return x1 >= seen0.x && x0 <= seen1.x && y1 >= seen0.y && y0 <= seen1.y;
  };
  ImFont *font = ImGui::GetFont();
  float fontSize = static_cast<float>(layout.fontSize) * view.zoom * 1.0f;
  bool labels = fontSize >= 5;
  float thickness = std::max(1.0f, view.zoom);
  for (size_t i = 0; i < graph.clusters.size(); ++i) {
    const GraphLayout::Cluster &c = layout.clusters[i];
    if (!inView(c.x0, c.y0, c.x1, c.y1))
      continue;
    ImVec2 a = toScreen(c.x0, c.y0), b = toScreen(c.x1, c.y1);
    draw->AddRectFilled(a, b, IM_COL32(255, 255, 255, 12), 4 * view.zoom);
    draw->AddRect(a, b, IM_COL32(120, 135, 160, 200), 4 * view.zoom, 0, 1);
    if (labels)
      draw->AddText(font, fontSize, ImVec2(a.x + 6 * view.zoom, a.y + 3 * view.zoom),
                    IM_COL32(150, 165, 190, 255), graph.clusters[i].label.c_str());
  }
  ImU32 edgeColor = IM_COL32(150, 158, 172, 220);
  // A whole large graph (it opens fitted) is small on screen: its curves
  // take a few segments each, not the dozens ImGui would tessellate.
  int curveSegments = view.zoom < 0.25f ? 3 : view.zoom < 0.6f ? 6 : 0;
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const GraphLayout::Edge &e = layout.edges[i];
    if (e.points.empty())
      continue;
    double x0 = e.points[0].x, y0 = e.points[0].y, x1 = x0, y1 = y0;
    for (const GraphPoint &p : e.points) {
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
      y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
    if (e.arrowTip) {
      x0 = std::min(x0, e.arrowTip->x), x1 = std::max(x1, e.arrowTip->x);
      y0 = std::min(y0, e.arrowTip->y), y1 = std::max(y1, e.arrowTip->y);
    }
    if (!inView(x0, y0, x1, y1))
      continue;
    for (size_t p = 0; p + 3 < e.points.size(); p += 3)
      draw->AddBezierCubic(toScreen(e.points[p].x, e.points[p].y),
                           toScreen(e.points[p + 1].x, e.points[p + 1].y),
                           toScreen(e.points[p + 2].x, e.points[p + 2].y),
                           toScreen(e.points[p + 3].x, e.points[p + 3].y), edgeColor,
                           thickness, curveSegments);
    if (e.arrowTip) {
      GraphPoint from = e.points.back(), tip = *e.arrowTip;
      double dx = tip.x - from.x, dy = tip.y - from.y;
      double len = std::max(1e-6, std::sqrt(dx * dx + dy * dy));
      double nx = -dy / len * 3.5, ny = dx / len * 3.5;
      draw->AddLine(toScreen(from.x, from.y), toScreen(tip.x, tip.y), edgeColor, thickness);
      draw->AddTriangleFilled(toScreen(tip.x, tip.y), toScreen(from.x + nx, from.y + ny),
                              toScreen(from.x - nx, from.y - ny), edgeColor);
    }
  }
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const IrGraphNode &node = graph.nodes[i];
    const GraphLayout::Node &n = layout.nodes[i];
    if (!inView(n.x - n.width / 2, n.y - n.height / 2, n.x + n.width / 2, n.y + n.height / 2))
      continue;
    ImVec2 a = toScreen(n.x - n.width / 2, n.y - n.height / 2);
    ImVec2 b = toScreen(n.x + n.width / 2, n.y + n.height / 2);
    bool atCursor = cursorNode && *cursorNode == i;
    bool isUnder = under && *under == i;
    draw->AddRectFilled(a, b, nodeFill(node), 3 * view.zoom);
    draw->AddRect(a, b,
                  atCursor  ? IM_COL32(255, 200, 80, 255)
                  : isUnder ? IM_COL32(220, 225, 235, 255)
                            : IM_COL32(110, 120, 138, 255),
                  3 * view.zoom, 0, atCursor ? 3.0f : 1.0f);
    if (labels) {
      std::stringstream lines(node.label);
      float y = (a.y + b.y) / 2 -
                static_cast<float>(std::count(node.label.begin(), node.label.end(), '\n') + 1) *
                    fontSize * 0.65f;
      for (std::string line; std::getline(lines, line);) {
        ImVec2 extent = font->CalcTextSizeA(fontSize, FLT_MAX, 0, line.c_str());
        draw->AddText(font, fontSize, ImVec2((a.x + b.x) / 2 - extent.x / 2, y),
                      IM_COL32(230, 233, 240, 255), line.c_str());
        y += fontSize * 1.3f;
      }
    }
    // For tests that click a node.
    StudioView::State::Probe probe;
    probe.center = ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2);
    probe.right = b.x;
    state.probes["graph-" + node.id] = probe;
  }
  draw->PopClipRect();
  if (under) {
    const IrGraphNode &node = graph.nodes[*under];
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(node.label.c_str());
    if (node.line)
      ImGui::TextColored(colors::dim(), "line %u of %s", node.line,
                         m.shortName(position).c_str());
    if (!node.sourceLocation.empty())
      ImGui::TextColored(colors::dim(), "source %s", node.sourceLocation.c_str());
    if (node.kind == IrGraphNode::Kind::Region)
      ImGui::TextColored(colors::dim(), "%zu ops collapsed into one node", node.ops);
    // Where the values named on the box (not drawn as edges) come from.
    for (const IrGraphNode::Use &use : node.farUses)
      if (unsigned line = graph.nodes[use.definition].line)
        ImGui::TextColored(colors::dim(), "%s: line %u", use.value.c_str(), line);
    ImGui::EndTooltip();
  }
  ImGui::EndChild();
}

void drawIrAndGraph(Studio &studio, StudioView::State &state) {
  if (!studio.graph().shown()) {
    drawIrView(studio, state);
    return;
  }
  float height = ImGui::GetContentRegionAvail().y;
  ImGui::BeginChild("##ir-above-graph", ImVec2(0, std::floor(height * 0.5f)), false);
  drawIrView(studio, state);
  ImGui::EndChild();
  ImGui::BeginChild("##graph-below-ir", ImVec2(0, 0), false);
  drawGraphView(studio, state);
  ImGui::EndChild();
}

} // namespace executor_studio::gui
