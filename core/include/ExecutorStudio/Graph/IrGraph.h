//===- IrGraph.h - one function of a snapshot as a graph --------*- C++ -*-===//
//
// The graph of the IR (issue 37): one function (a host's or a kernel's) of
// one recorded step, its operations as nodes and its SSA values as edges
// (from the op or block that defines a value to each op that uses it), each
// region a box nested in the box of its op (a Graphviz cluster), an
// `executor.launch` labelled with its kernel and the executor its session
// opened. Every node knows its op's line in that step's text (and the
// `loc(...)` it carries), so a view goes from a node to the line and back.
// Past `GraphOptions::maxOps` operations each region of the function's body
// is one node instead (its op count on it), so a large function is drawn
// rather than frozen on.
//
// The layout is Graphviz's (libgvc's `dot`; GraphLayout.cpp): positions in
// points, y down, and the SVG the CLI and the language server hand out is
// drawn from it. The studio, `executor-studio --graph` and the language
// server's `executor/graph` all go through this one library; IrGraphCache
// keeps each step's function laid out once.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_GRAPH_IRGRAPH_H
#define EXECUTORSTUDIO_GRAPH_IRGRAPH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace executor_studio {

struct GraphOptions {
  /// Functions with more operations than this show each region of their
  /// body as one node.
  size_t maxOps = 2000;
  /// A value defined by a node with more users than this is named on each
  /// user's box (`uses %a, %c1`) instead of drawn as an edge to each.
  size_t maxUsers = 6;
};

struct IrGraphNode {
  enum class Kind {
    Op,       ///< an operation
    Argument, ///< an argument of the function
    Region,   ///< an op whose regions were collapsed into it
  };
  Kind kind = Kind::Op;
  /// `op12`: the Graphviz name, the SVG element's id.
  std::string id;
  /// What the box says: the op's name; `executor.launch` adds
  /// `compute @ HOST:PORT`; a collapsed op adds its op count.
  std::string label;
  /// The op's name (`arith.addf`), or the argument's (`%x`).
  std::string opName;
  /// 1-based line and column of the op in the step's text (0: none).
  unsigned line = 0, column = 0;
  /// The op's last line (its regions' end; `line` for an op without).
  unsigned endLine = 0;
  /// `file:line:col` of the op's own `loc(...)`, when it has one that is
  /// not the step's text.
  std::string sourceLocation;
  /// The innermost cluster it is drawn in (-1: the function's body).
  int cluster = -1;
  /// Operations it stands for (itself and, collapsed, those inside it).
  size_t ops = 1;
  bool isLaunch = false;
  /// A value with many users (GraphOptions::maxUsers) this node uses: named
  /// on its box (the label's last line, `uses %a, %c1`) rather than drawn
  /// as an edge from its definition, which dot would lay out as a chain of
  /// nodes down every rank between them.
  struct Use {
    std::string value;
    /// The node that defines it.
    size_t definition = 0;
  };
  std::vector<Use> farUses;
};

/// An SSA value from its definition to one user.
struct IrGraphEdge {
  size_t from = 0, to = 0;
  /// The value as printed (`%3`, `%arg0`); empty when unnamed.
  std::string value;
};

/// A region (or an op with regions): a box around its ops.
struct IrGraphCluster {
  std::string id;
  std::string label;
  /// The enclosing cluster (-1: the function's body).
  int parent = -1;
  /// The line of the op that owns it.
  unsigned line = 0;
};

struct IrGraph {
  /// The function's qualified name (`compute::square`, `main`).
  std::string function;
  std::vector<IrGraphNode> nodes;
  std::vector<IrGraphEdge> edges;
  std::vector<IrGraphCluster> clusters;
  /// Operations in the function (its own op not counted).
  size_t opCount = 0;
  /// Whether regions were collapsed (opCount > GraphOptions::maxOps).
  bool collapsed = false;

  /// The node of the op at 1-based `line` of the text (the innermost op
  /// that starts there), if any.
  std::optional<size_t> nodeAtLine(unsigned line) const;
};

/// Functions (FunctionOpInterface ops with a symbol) of a parsed text, by
/// qualified name: nested symbol tables' names joined with `::`
/// (`compute::square`); a function of the top module is its own name.
struct FunctionList {
  std::vector<std::string> names;
  /// Their 1-based first and last lines in the text.
  std::vector<std::pair<unsigned, unsigned>> lines;
  /// The function whose lines contain `line` (innermost), if any.
  std::optional<std::string> functionAtLine(unsigned line) const;
};

/// Parses `text` (a step's MLIR as recorded; unregistered dialects let
/// through) and lists its functions. Fails with the line and message when
/// it does not parse.
llvm::Expected<FunctionList> listFunctions(llvm::StringRef text);

/// Parses `text` and builds the graph of `function`: a qualified name
/// (`compute::square`, `@compute::@square`), or a function's own name when
/// only one function has it. An unknown function fails with the functions
/// there are (and the nearest, if one is near).
llvm::Expected<IrGraph> buildIrGraph(llvm::StringRef text, llvm::StringRef function,
                                     const GraphOptions &options = {});

/// A point, in points (1/72 inch), y down from the top left.
struct GraphPoint {
  double x = 0, y = 0;
};

/// Graphviz's layout of an IrGraph: the same indices as its nodes, edges
/// and clusters.
struct GraphLayout {
  double width = 0, height = 0;
  struct Node {
    /// Centre and size.
    double x = 0, y = 0, width = 0, height = 0;
  };
  struct Edge {
    /// Cubic Bézier pieces: points[0], then three points per piece.
    std::vector<GraphPoint> points;
    /// The arrow head's tip at the user (when Graphviz drew one).
    std::optional<GraphPoint> arrowTip;
  };
  struct Cluster {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  /// The font size the node sizes were made for, in points.
  double fontSize = 10;
  /// How long Graphviz took.
  double milliseconds = 0;

  /// The node at `p`, if any (the innermost drawn last).
  std::optional<size_t> nodeAt(GraphPoint p) const;
};

/// Lays `graph` out with Graphviz's dot (rank direction top to bottom).
/// Fails with Graphviz's message.
llvm::Expected<GraphLayout> layoutGraph(const IrGraph &graph);

/// The layout as SVG: each node a `<g id="op12" class="node" data-line="14">`
/// with its box and label, each edge a path, each cluster a box.
std::string renderSvg(const IrGraph &graph, const GraphLayout &layout);

/// A graph and its layout.
struct LaidOutGraph {
  IrGraph graph;
  GraphLayout layout;
};

/// Laid-out graphs by (text, function): a step's function is built and laid
/// out once. Thread-safe; keeps the `capacity` most recently used.
class IrGraphCache {
public:
  explicit IrGraphCache(size_t capacity = 16) : capacity(capacity) {}
  /// The graph of `function` in `text`, from the cache or built now.
  llvm::Expected<std::shared_ptr<const LaidOutGraph>>
  get(const std::shared_ptr<const std::string> &text, llvm::StringRef function,
      const GraphOptions &options = {});
  /// Whether the last get() found its graph in the cache.
  bool lastWasCached() const { return lastHit; }
  void clear();

private:
  struct Entry {
    std::shared_ptr<const std::string> text;
    std::string function;
    size_t maxOps, maxUsers;
    std::shared_ptr<const LaidOutGraph> graph;
    uint64_t used;
  };
  std::mutex mutex;
  std::vector<Entry> entries;
  size_t capacity;
  uint64_t clock = 0;
  bool lastHit = false;
};

} // namespace executor_studio

#endif // EXECUTORSTUDIO_GRAPH_IRGRAPH_H
