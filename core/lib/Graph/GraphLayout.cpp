//===- GraphLayout.cpp - Graphviz's layout of an IrGraph --------*- C++ -*-===//
//
// libgvc's dot lays the graph out (its plugin linked in and preloaded, so no
// plugin configuration is read); nodes are boxes of a fixed size made for
// their labels in a monospace font, so the studio's drawing and the SVG fit
// the boxes without Graphviz measuring text. Graphviz keeps global state:
// one layout at a time.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Graph/IrGraph.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <sstream>

extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
}

using namespace executor_studio;

namespace {
constexpr double kFontSize = 10;
/// A monospace character's advance at kFontSize, in points.
constexpr double kCharWidth = 0.6 * kFontSize;
constexpr double kLineHeight = 1.3 * kFontSize;

std::mutex graphvizMutex;

GVC_t *graphviz() {
  static GVC_t *context = [] {
    static lt_symlist_t preloaded[] = {
        {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
        {nullptr, nullptr}};
    return gvContextPlugins(preloaded, 0);
  }();
  return context;
}

/// Graphviz's errors, collected instead of printed.
std::string *graphvizErrors = nullptr;
int collectError(char *message) {
  if (graphvizErrors)
    *graphvizErrors += message;
  return 0;
}

std::vector<std::string> linesOf(const std::string &label) {
  std::vector<std::string> lines;
  std::stringstream in(label);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  if (lines.empty())
    lines.emplace_back();
  return lines;
}

void set(void *object, const char *name, const std::string &value) {
  agsafeset(object, const_cast<char *>(name), const_cast<char *>(value.c_str()),
            const_cast<char *>(""));
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}
} // namespace

std::optional<size_t> GraphLayout::nodeAt(GraphPoint p) const {
  for (size_t i = nodes.size(); i-- > 0;) {
    const Node &n = nodes[i];
    if (std::abs(p.x - n.x) <= n.width / 2 && std::abs(p.y - n.y) <= n.height / 2)
      return i;
  }
  return std::nullopt;
}

llvm::Expected<GraphLayout> executor_studio::layoutGraph(const IrGraph &graph) {
  std::lock_guard<std::mutex> lock(graphvizMutex);
  auto start = std::chrono::steady_clock::now();
  std::string errors;
  graphvizErrors = &errors;
  agseterrf(collectError);
  agseterr(AGERR);

  Agraph_t *g = agopen(const_cast<char *>("ir"), Agdirected, nullptr);
  set(g, "rankdir", "TB");
  set(g, "nodesep", "0.2");
  set(g, "ranksep", "0.3");
  set(g, "fontsize", number(kFontSize));
  set(g, "fontname", "monospace");
  set(g, "labeljust", "l");
  // Crossing minimisation is most of dot's time on large graphs; fewer
  // rounds keep a 2,000-op function well under a second.
  if (graph.nodes.size() > 300) {
    set(g, "mclimit", "0.2");
    set(g, "nslimit", "2");
    set(g, "nslimit1", "2");
    set(g, "searchsize", "10");
  }

  std::vector<Agraph_t *> clusters;
  for (const IrGraphCluster &cluster : graph.clusters) {
    Agraph_t *parent = cluster.parent >= 0 ? clusters[cluster.parent] : g;
    Agraph_t *sub = agsubg(parent, const_cast<char *>(("cluster_" + cluster.id).c_str()), 1);
    set(sub, "label", cluster.label);
    set(sub, "fontsize", number(kFontSize));
    set(sub, "fontname", "monospace");
    set(sub, "labeljust", "l");
    set(sub, "margin", "8");
    clusters.push_back(sub);
  }
  std::vector<Agnode_t *> nodes;
  for (const IrGraphNode &node : graph.nodes) {
    Agraph_t *owner = node.cluster >= 0 ? clusters[node.cluster] : g;
    Agnode_t *n = agnode(owner, const_cast<char *>(node.id.c_str()), 1);
    std::vector<std::string> lines = linesOf(node.label);
    size_t longest = 0;
    for (const std::string &line : lines)
      longest = std::max(longest, line.size());
    double width = longest * kCharWidth + 12;
    double height = lines.size() * kLineHeight + 8;
    set(n, "shape", "box");
    set(n, "fixedsize", "true");
    set(n, "label", "");
    set(n, "width", number(width / 72));
    set(n, "height", number(height / 72));
    nodes.push_back(n);
  }
  std::vector<Agedge_t *> edges;
  for (const IrGraphEdge &edge : graph.edges) {
    Agedge_t *e = agedge(g, nodes[edge.from], nodes[edge.to],
                         const_cast<char *>(("e" + std::to_string(edges.size())).c_str()), 1);
    edges.push_back(e);
  }

  GVC_t *gvc = graphviz();
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    graphvizErrors = nullptr;
    return llvm::createStringError("Graphviz could not lay the graph out: " +
                                   (errors.empty() ? std::string("no message") : errors));
  }
  GraphLayout layout;
  layout.fontSize = kFontSize;
  boxf bb = GD_bb(g);
  double top = bb.UR.y, left = bb.LL.x;
  layout.width = bb.UR.x - bb.LL.x;
  layout.height = bb.UR.y - bb.LL.y;
  auto point = [&](pointf p) { return GraphPoint{p.x - left, top - p.y}; };
  for (Agnode_t *n : nodes) {
    GraphPoint c = point(ND_coord(n));
    layout.nodes.push_back({c.x, c.y, ND_width(n) * 72, ND_height(n) * 72});
  }
  for (Agedge_t *e : edges) {
    GraphLayout::Edge out;
    if (splines *spl = ED_spl(e); spl && spl->size > 0) {
      const bezier &bz = spl->list[0];
      for (int i = 0; i < bz.size; ++i)
        out.points.push_back(point(bz.list[i]));
      if (bz.eflag)
        out.arrowTip = point(bz.ep);
    }
    layout.edges.push_back(std::move(out));
  }
  for (Agraph_t *sub : clusters) {
    boxf box = GD_bb(sub);
    GraphPoint a = point(box.LL), b = point(box.UR);
    layout.clusters.push_back({std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x),
                               std::max(a.y, b.y)});
  }
  gvFreeLayout(gvc, g);
  agclose(g);
  graphvizErrors = nullptr;
  layout.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
          .count();
  return layout;
}

namespace {
std::string escape(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}
} // namespace

std::string executor_studio::renderSvg(const IrGraph &graph, const GraphLayout &layout) {
  std::string out;
  double margin = 4;
  double w = layout.width + 2 * margin, h = layout.height + 2 * margin;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(w) + "pt\" height=\"" +
         number(h) + "pt\" viewBox=\"0 0 " + number(w) + " " + number(h) +
         "\" font-family=\"monospace\" font-size=\"" + number(layout.fontSize) + "\">\n";
  out += "<title>" + escape(graph.function) + "</title>\n";
  out += "<style>.cluster rect{fill:#f3f6fa;stroke:#8a9ab0}"
         ".node rect{fill:#ffffff;stroke:#4a5563}.node.launch rect{fill:#fff1d6;stroke:#c07a00}"
         ".node.argument rect{fill:#e6f4ea;stroke:#3c7d4a}.node.region rect{fill:#e8e4f6;"
         "stroke:#6b5ca5}.edge path{fill:none;stroke:#56606e}.edge polygon{fill:#56606e}"
         "</style>\n";
  out += "<g transform=\"translate(" + number(margin) + " " + number(margin) + ")\">\n";
  for (size_t i = 0; i < graph.clusters.size() && i < layout.clusters.size(); ++i) {
    const GraphLayout::Cluster &c = layout.clusters[i];
    out += "<g class=\"cluster\" id=\"" + graph.clusters[i].id + "\" data-line=\"" +
           std::to_string(graph.clusters[i].line) + "\"><rect x=\"" + number(c.x0) +
           "\" y=\"" + number(c.y0) + "\" width=\"" + number(c.x1 - c.x0) + "\" height=\"" +
           number(c.y1 - c.y0) + "\" rx=\"4\"/><text x=\"" + number(c.x0 + 6) + "\" y=\"" +
           number(c.y0 + layout.fontSize + 3) + "\">" + escape(graph.clusters[i].label) +
           "</text></g>\n";
  }
  for (size_t i = 0; i < graph.edges.size() && i < layout.edges.size(); ++i) {
    const GraphLayout::Edge &e = layout.edges[i];
    if (e.points.empty())
      continue;
    out += "<g class=\"edge\" id=\"edge" + std::to_string(i) + "\"><title>" +
           escape(graph.edges[i].value) + "</title><path d=\"M" + number(e.points[0].x) + "," +
           number(e.points[0].y);
    for (size_t p = 1; p + 2 < e.points.size(); p += 3)
      out += " C" + number(e.points[p].x) + "," + number(e.points[p].y) + " " +
             number(e.points[p + 1].x) + "," + number(e.points[p + 1].y) + " " +
             number(e.points[p + 2].x) + "," + number(e.points[p + 2].y);
    out += "\"/>";
    if (e.arrowTip) {
      GraphPoint from = e.points.back(), tip = *e.arrowTip;
      double dx = tip.x - from.x, dy = tip.y - from.y;
      double len = std::max(1e-6, std::sqrt(dx * dx + dy * dy));
      double nx = -dy / len * 3.5, ny = dx / len * 3.5;
      out += "<polygon points=\"" + number(tip.x) + "," + number(tip.y) + " " +
             number(from.x + nx) + "," + number(from.y + ny) + " " + number(from.x - nx) +
             "," + number(from.y - ny) + "\"/>";
    }
    out += "</g>\n";
  }
  for (size_t i = 0; i < graph.nodes.size() && i < layout.nodes.size(); ++i) {
    const IrGraphNode &node = graph.nodes[i];
    const GraphLayout::Node &n = layout.nodes[i];
    std::string kind = node.kind == IrGraphNode::Kind::Argument ? " argument"
                       : node.kind == IrGraphNode::Kind::Region ? " region"
                       : node.isLaunch                          ? " launch"
                                                                : "";
    out += "<g class=\"node" + kind + "\" id=\"" + node.id + "\" data-line=\"" +
           std::to_string(node.line) + "\"";
    if (!node.sourceLocation.empty())
      out += " data-loc=\"" + escape(node.sourceLocation) + "\"";
    out += "><title>" + escape(node.opName) + " (line " + std::to_string(node.line) + ")" +
           "</title><rect x=\"" + number(n.x - n.width / 2) + "\" y=\"" +
           number(n.y - n.height / 2) + "\" width=\"" + number(n.width) + "\" height=\"" +
           number(n.height) + "\" rx=\"3\"/>";
    std::vector<std::string> lines = linesOf(node.label);
    double y = n.y - (lines.size() * kLineHeight) / 2 + kFontSize;
    for (const std::string &line : lines) {
      out += "<text x=\"" + number(n.x) + "\" y=\"" + number(y) +
             "\" text-anchor=\"middle\">" + escape(line) + "</text>";
      y += kLineHeight;
    }
    out += "</g>\n";
  }
  out += "</g>\n</svg>\n";
  return out;
}
