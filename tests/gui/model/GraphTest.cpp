//===- GraphTest.cpp - the graph of the IR (core's Graph/IrGraph.h) -------===//
//
// Hand-written programs (nested regions, several functions, a launch on an
// executor) give the nodes, edges and clusters counted here by hand; a
// generated function over the limit collapses its regions; Graphviz lays
// them out; the cache and the studio's GraphModel follow steps and the
// cursor.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Graph/IrGraph.h"
#include "StudioModel/GraphModel.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace executor_studio;
using namespace executor_studio::gui;

namespace {
// Line numbers matter: the tests name lines of this text.
const char *kNested = R"(module {
  func.func @prep(%n: index, %m: memref<8xf64>) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f64
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
      %v = memref.load %m[%i] : memref<8xf64>
      %c = arith.cmpf ogt, %v, %z : f64
      %s = scf.if %c -> (f64) {
        %a = arith.addf %acc, %v : f64
        scf.yield %a : f64
      } else {
        scf.yield %acc : f64
      }
      scf.yield %s : f64
    }
    return %r : f64
  }
  func.func @other(%x: f64) -> f64 {
    %y = arith.mulf %x, %x : f64
    return %y : f64
  }
}
)";

const char *kLaunch = R"(module {
  func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
    %s = executor.open("10.0.0.9:4711") : !executor.session
    executor.send_binary %s("/tmp/compute.o") : !executor.session
    %y = executor.launch %s("square", "/tmp/compute.o")(%x) : !executor.session, (memref<4xf64>) -> memref<4xf64>
    return %y : memref<4xf64>
  }
  module @compute {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
)";

/// A function of `loops` scf.for loops, each with `body` adds inside.
std::string generated(int loops, int body) {
  std::string text = "func.func @big(%a: f64, %n: index) -> f64 {\n"
                     "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n";
  std::string last = "%a";
  for (int l = 0; l < loops; ++l) {
    std::string r = "%r" + std::to_string(l);
    text += "  " + r + " = scf.for %i" + std::to_string(l) + " = %c0 to %n step %c1 iter_args(%acc" +
            std::to_string(l) + " = " + last + ") -> (f64) {\n";
    std::string v = "%acc" + std::to_string(l);
    for (int b = 0; b < body; ++b) {
      std::string next = "%v" + std::to_string(l) + "_" + std::to_string(b);
      text += "    " + next + " = arith.addf " + v + ", %a : f64\n";
      v = next;
    }
    text += "    scf.yield " + v + " : f64\n  }\n";
    last = r;
  }
  text += "  return " + last + " : f64\n}\n";
  return text;
}

size_t countKind(const IrGraph &g, IrGraphNode::Kind kind) {
  return std::count_if(g.nodes.begin(), g.nodes.end(),
                       [&](const IrGraphNode &n) { return n.kind == kind; });
}
} // namespace

TEST(IrGraph, OpsAreNodesValuesEdgesRegionsClusters) {
  llvm::Expected<IrGraph> graph = buildIrGraph(kNested, "prep");
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  EXPECT_EQ(graph->function, "prep");
  EXPECT_EQ(graph->opCount, 12u);
  EXPECT_FALSE(graph->collapsed);
  // Two arguments and twelve ops.
  EXPECT_EQ(graph->nodes.size(), 14u);
  EXPECT_EQ(countKind(*graph, IrGraphNode::Kind::Argument), 2u);
  // scf.for, scf.if and the if's two regions.
  ASSERT_EQ(graph->clusters.size(), 4u);
  EXPECT_EQ(graph->clusters[0].label, "scf.for (line 6)");
  EXPECT_EQ(graph->clusters[1].label, "scf.if (line 9)");
  EXPECT_EQ(graph->clusters[2].parent, 1);
  EXPECT_EQ(graph->clusters[3].parent, 1);
  // Counted by hand: the for's four operands, load (2), cmpf (2), if (1),
  // addf (2), the three yields (1 each), return (1).
  EXPECT_EQ(graph->edges.size(), 15u);
  // Lines: the addf on line 10, in the if's first region.
  std::optional<size_t> addf = graph->nodeAtLine(10);
  ASSERT_TRUE(addf);
  EXPECT_EQ(graph->nodes[*addf].opName, "arith.addf");
  EXPECT_EQ(graph->nodes[*addf].cluster, 2);
  EXPECT_EQ(graph->nodes[*addf].column, 14u); // its name's
  // Its operands: %acc (the loop's block argument: from the for) and %v.
  std::vector<std::string> into;
  for (const IrGraphEdge &e : graph->edges)
    if (e.to == *addf)
      into.push_back(graph->nodes[e.from].opName + " " + e.value);
  std::sort(into.begin(), into.end());
  EXPECT_EQ(into, (std::vector<std::string>{"memref.load %v", "scf.for %acc"}));
  EXPECT_EQ(graph->nodes[*graph->nodeAtLine(5)].label, "arith.constant 0");

  llvm::Expected<IrGraph> other = buildIrGraph(kNested, "@other");
  ASSERT_TRUE(static_cast<bool>(other)) << llvm::toString(other.takeError());
  EXPECT_EQ(other->nodes.size(), 3u);
  EXPECT_EQ(other->edges.size(), 2u); // %x twice into mulf is one edge, %y
  EXPECT_TRUE(other->clusters.empty());
}

TEST(IrGraph, LaunchesNameTheirKernelAndExecutor) {
  llvm::Expected<IrGraph> graph = buildIrGraph(kLaunch, "main");
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  std::optional<size_t> launch = graph->nodeAtLine(5);
  ASSERT_TRUE(launch);
  EXPECT_TRUE(graph->nodes[*launch].isLaunch);
  EXPECT_EQ(graph->nodes[*launch].label, "executor.launch\nsquare @ 10.0.0.9:4711");
  // A kernel by its own name or its qualified one.
  llvm::Expected<IrGraph> kernel = buildIrGraph(kLaunch, "square");
  ASSERT_TRUE(static_cast<bool>(kernel)) << llvm::toString(kernel.takeError());
  EXPECT_EQ(kernel->function, "compute::square");
  llvm::Expected<IrGraph> qualified = buildIrGraph(kLaunch, "@compute::@square");
  ASSERT_TRUE(static_cast<bool>(qualified)) << llvm::toString(qualified.takeError());
  EXPECT_EQ(qualified->nodes.size(), 2u);

  llvm::Expected<FunctionList> functions = listFunctions(kLaunch);
  ASSERT_TRUE(static_cast<bool>(functions)) << llvm::toString(functions.takeError());
  EXPECT_EQ(functions->names, (std::vector<std::string>{"main", "compute::square"}));
  EXPECT_EQ(functions->functionAtLine(4), "main");
  EXPECT_EQ(functions->functionAtLine(10), "compute::square");
  EXPECT_FALSE(functions->functionAtLine(13));
}

TEST(IrGraph, UnknownFunctionsAndBadTextSayWhy) {
  llvm::Expected<IrGraph> missing = buildIrGraph(kNested, "prepp");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "the step has no function prepp; did you mean 'prep'? (its functions: prep other)");
  llvm::Expected<IrGraph> bad = buildIrGraph("func.func @f( {\n", "f");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("the step's IR does not parse: line 1"),
            std::string::npos);
}

TEST(IrGraph, FunctionsOverTheLimitCollapseTheirRegions) {
  std::string text = generated(4, 30); // 2 + 4 * 32 + 1 = 131 ops
  GraphOptions small;
  small.maxOps = 100;
  llvm::Expected<IrGraph> graph = buildIrGraph(text, "big", small);
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  EXPECT_EQ(graph->opCount, 131u);
  EXPECT_TRUE(graph->collapsed);
  EXPECT_TRUE(graph->clusters.empty());
  // Two arguments, two constants, four loops, the return.
  EXPECT_EQ(graph->nodes.size(), 9u);
  ASSERT_EQ(countKind(*graph, IrGraphNode::Kind::Region), 4u);
  const IrGraphNode &loop = graph->nodes[4];
  EXPECT_EQ(loop.kind, IrGraphNode::Kind::Region);
  EXPECT_EQ(loop.ops, 32u);
  EXPECT_EQ(loop.label, "scf.for\n(32 ops)");
  // A line inside a collapsed loop is its node.
  EXPECT_EQ(graph->nodeAtLine(loop.line + 3), std::optional<size_t>(4));

  llvm::Expected<IrGraph> whole = buildIrGraph(text, "big");
  ASSERT_TRUE(static_cast<bool>(whole));
  EXPECT_FALSE(whole->collapsed);
  EXPECT_EQ(whole->clusters.size(), 4u);
  // 133 nodes: %a, used by 121 ops (each add and the first loop's init),
  // is named on each of them, not a node more above each.
  EXPECT_EQ(whole->nodes.size(), 133u);
  size_t usingA = 0;
  for (const IrGraphNode &node : whole->nodes)
    usingA += llvm::count_if(node.farUses, [](const IrGraphNode::Use &use) {
      return use.value == "%a" && use.definition == 0;
    });
  EXPECT_EQ(usingA, 121u);
}

TEST(IrGraph, ValuesWithManyUsersAreNamedOnEachUser) {
  // %k has eight users: named on each (no node or long edge more); %x has
  // two: edges.
  std::string text = "func.func @fan(%x: f64) -> f64 {\n"
                     "  %k = arith.constant 2.5 : f64\n";
  std::string last = "%x";
  for (int i = 0; i < 8; ++i) {
    text += "  %v" + std::to_string(i) + " = arith.mulf " + last + ", %k : f64\n";
    last = "%v" + std::to_string(i);
  }
  text += "  %s = arith.addf " + last + ", %x : f64\n  return %s : f64\n}\n";
  llvm::Expected<IrGraph> graph = buildIrGraph(text, "fan");
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  // %x, the constant, eight mulf, addf, return.
  EXPECT_EQ(graph->nodes.size(), 12u);
  for (size_t i = 2; i < 10; ++i) {
    const IrGraphNode &mulf = graph->nodes[i];
    ASSERT_EQ(mulf.farUses.size(), 1u) << i;
    EXPECT_EQ(mulf.farUses[0].value, "%k");
    EXPECT_EQ(mulf.farUses[0].definition, 1u); // the constant's node
    EXPECT_EQ(mulf.label, "arith.mulf\nuses %k");
  }
  EXPECT_TRUE(graph->nodes[10].farUses.empty());
  // No edge leaves the constant.
  for (const IrGraphEdge &e : graph->edges)
    EXPECT_NE(e.from, 1u);
  // 8 from mulf to mulf or addf, %x twice, addf to return.
  EXPECT_EQ(graph->edges.size(), 8u + 2u + 1u);
  EXPECT_EQ(graph->nodeAtLine(2), std::optional<size_t>(1));
}

TEST(IrGraph, ManyFarUsesWrapOnTheBox) {
  // Five constants, each with more users than GraphOptions::maxUsers.
  std::string text = "func.func @wide(%x: f64) -> f64 {\n";
  for (int c = 0; c < 5; ++c)
    text += "  %const" + std::to_string(c) + " = arith.constant " + std::to_string(c) +
            ".0 : f64\n";
  std::string last = "%x";
  for (int i = 0; i < 8; ++i) {
    std::string v = "%v" + std::to_string(i);
    text += "  " + v + " = \"test.op\"(" + last +
            ", %const0, %const1, %const2, %const3, %const4) : (f64, f64, f64, f64, f64, f64) "
            "-> f64\n";
    last = v;
  }
  text += "  return " + last + " : f64\n}\n";
  llvm::Expected<IrGraph> graph = buildIrGraph(text, "wide");
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  const IrGraphNode &op = graph->nodes[6];
  EXPECT_EQ(op.opName, "test.op");
  EXPECT_EQ(op.farUses.size(), 5u);
  EXPECT_EQ(op.label, "test.op\nuses %const0, %const1, %const2,\n     %const3, %const4");
}

TEST(GraphLayout, GraphvizPlacesNodesInsideTheirClusters) {
  llvm::Expected<IrGraph> graph = buildIrGraph(kNested, "prep");
  ASSERT_TRUE(static_cast<bool>(graph));
  llvm::Expected<GraphLayout> layout = layoutGraph(*graph);
  ASSERT_TRUE(static_cast<bool>(layout)) << llvm::toString(layout.takeError());
  ASSERT_EQ(layout->nodes.size(), graph->nodes.size());
  ASSERT_EQ(layout->edges.size(), graph->edges.size());
  ASSERT_EQ(layout->clusters.size(), graph->clusters.size());
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    const GraphLayout::Node &n = layout->nodes[i];
    EXPECT_GT(n.width, 0);
    EXPECT_GE(n.x - n.width / 2, -0.5);
    EXPECT_LE(n.y + n.height / 2, layout->height + 0.5);
    for (int c = graph->nodes[i].cluster; c >= 0; c = graph->clusters[c].parent) {
      const GraphLayout::Cluster &box = layout->clusters[c];
      EXPECT_LE(box.x0, n.x - n.width / 2 + 0.5) << graph->nodes[i].label;
      EXPECT_GE(box.y1, n.y + n.height / 2 - 0.5) << graph->nodes[i].label;
    }
    EXPECT_EQ(layout->nodeAt({n.x, n.y}), std::optional<size_t>(i));
  }
  for (const GraphLayout::Edge &e : layout->edges)
    EXPECT_EQ(e.points.size() % 3, 1u);
  std::string svg = renderSvg(*graph, *layout);
  EXPECT_NE(svg.find("<g class=\"node\" id=\"op9\" data-line=\"10\">"), std::string::npos);
  EXPECT_NE(svg.find("<text x="), std::string::npos);
  EXPECT_NE(svg.find("scf.for (line 6)"), std::string::npos);
}

TEST(IrGraphCache, EachStepAndFunctionIsLaidOutOnce) {
  IrGraphCache cache;
  auto text = std::make_shared<const std::string>(kNested);
  auto first = cache.get(text, "prep");
  ASSERT_TRUE(static_cast<bool>(first));
  EXPECT_FALSE(cache.lastWasCached());
  auto again = cache.get(std::make_shared<const std::string>(kNested), "prep");
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_TRUE(cache.lastWasCached());
  EXPECT_EQ(first->get(), again->get());
  auto other = cache.get(text, "other");
  ASSERT_TRUE(static_cast<bool>(other));
  EXPECT_FALSE(cache.lastWasCached());
}

TEST(GraphModel, FollowsTheFunctionAtTheCursor) {
  GraphModel model;
  auto text = std::make_shared<const std::string>(kNested);
  model.update(0, text, true);
  ASSERT_TRUE(model.graph()) << model.error();
  EXPECT_EQ(model.function(), "prep"); // the first, with no cursor
  model.setCursorLine(20);
  model.update(0, text, true);
  ASSERT_TRUE(model.graph()) << model.error();
  EXPECT_EQ(model.function(), "other");
  ASSERT_TRUE(model.cursorNode());
  EXPECT_EQ(model.graph()->graph.nodes[*model.cursorNode()].opName, "arith.mulf");
  // A click on a node moves the cursor to its line.
  EXPECT_EQ(model.selectNode(0), 19u);
  EXPECT_EQ(model.cursorLine(), 19u);
  model.update(1, nullptr, true);
  EXPECT_FALSE(model.graph());
  model.update(2, std::make_shared<const std::string>("define void @f() {\n}\n"), false);
  EXPECT_FALSE(model.graph());
  EXPECT_NE(model.error().find("MLIR steps"), std::string::npos);
}
