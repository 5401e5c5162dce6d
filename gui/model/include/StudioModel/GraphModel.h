//===- GraphModel.h - the Graph view's state --------------------*- C++ -*-===//
//
// What the studio's Graph view shows: the graph of one function (core's
// Graph/IrGraph.h) of the selected step, the function at the IR view's
// cursor unless one is asked for by name, laid out by Graphviz once per step
// and function (IrGraphCache), and which node the cursor is on. A click on a
// node moves the cursor to its line. Nothing here draws (gui/ui/lib/
// GraphView.cpp does).
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_GRAPHMODEL_H
#define STUDIOMODEL_GRAPHMODEL_H

#include "ExecutorStudio/Graph/IrGraph.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace executor_studio::gui {

class GraphModel {
public:
  void setShown(bool on) { visible = on; }
  bool shown() const { return visible; }
  /// The function to draw (`main`, `compute::square`); empty: the one at
  /// the cursor (the first one when the cursor is in none).
  void setFunction(std::string name);
  const std::string &requestedFunction() const { return requested; }
  /// The IR view's cursor: a 1-based line of the selected step's text.
  void setCursorLine(unsigned line) { cursor = line; }
  unsigned cursorLine() const { return cursor; }
  /// Brings the graph up to date with the step at `position` (its text;
  /// `isMlir` false for a target's LLVM IR or assembly, which has no graph).
  void update(int position, const std::shared_ptr<const std::string> &text, bool isMlir);
  /// The graph shown, or null (error() says why).
  const LaidOutGraph *graph() const { return current.get(); }
  const std::string &error() const { return problem; }
  /// The function shown (qualified).
  const std::string &function() const { return shownFunction; }
  int position() const { return shownPosition; }
  /// The node of the op at the cursor's line, if the graph has one.
  std::optional<size_t> cursorNode() const;
  /// A click on node `node`: its line becomes the cursor; the line (0 when
  /// it has none).
  unsigned selectNode(size_t node);
  /// Bumped whenever another graph is shown.
  uint64_t generation() const { return gen; }
  /// Whether the graph shown came from the cache, and how long Graphviz
  /// took for it when it was laid out.
  bool fromCache() const { return cached; }
  IrGraphCache &cache() { return graphs; }
  void setOptions(const GraphOptions &o) { options = o; }

private:
  bool visible = false;
  std::string requested;
  unsigned cursor = 0;
  GraphOptions options;
  IrGraphCache graphs;
  std::shared_ptr<const std::string> shownText, listedText;
  std::optional<FunctionList> functions;
  std::string functionsError;
  std::string shownFunction, shownWanted;
  int shownPosition = -2;
  std::shared_ptr<const LaidOutGraph> current;
  std::string problem;
  uint64_t gen = 0;
  bool cached = false;
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_GRAPHMODEL_H
