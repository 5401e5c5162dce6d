//===- IrGraph.cpp - one function of a snapshot as a graph ------*- C++ -*-===//
//
// The text is parsed (not verified) with an AsmParserState, which knows
// where each op, value and block is in the text: nodes get their lines and
// edges the values' names as printed. See IrGraph.h.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Graph/IrGraph.h"
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Pipeline/StructuralDiff.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Support/Nearest.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace mlir;
using namespace executor_studio;

namespace {
constexpr const char *kBufferName = "<step>";

/// A parsed step.
struct Parsed {
  llvm::SourceMgr sourceMgr;
  Block top;
  AsmParserState state;

  std::pair<unsigned, unsigned> lineColumn(llvm::SMLoc loc) const {
    if (!loc.isValid())
      return {0, 0};
    return sourceMgr.getLineAndColumn(loc);
  }
  unsigned lineOf(llvm::SMLoc loc) const { return lineColumn(loc).first; }
};

const DialectRegistry &registry() {
  static const DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

/// Parses `text` into `parsed` (in `context`); the first error on failure.
llvm::Error parse(MLIRContext &context, llvm::StringRef text, Parsed &parsed) {
  if (llvm::Error err = parseStepText(context, parsed.sourceMgr, text, kBufferName,
                                      parsed.top, parsed.state))
    return llvm::createStringError("the step's IR does not parse: " +
                                   llvm::toString(std::move(err)));
  return llvm::Error::success();
}

/// Runs `work` on the parser's stack in a context with every dialect, after
/// the nesting check.
template <class T>
llvm::Expected<T> withParsed(llvm::StringRef text,
                             const std::function<llvm::Expected<T>(Parsed &)> &work) {
  if (std::optional<size_t> at = findExcessiveNesting(text)) {
    (void)at;
    return llvm::createStringError(nestingRefusal("the step's IR", "it is not drawn"));
  }
  std::optional<llvm::Expected<T>> result;
  runOnParserStack([&] {
    MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(true);
    Parsed parsed;
    if (llvm::Error err = parse(context, text, parsed)) {
      result.emplace(std::move(err));
      return;
    }
    result.emplace(work(parsed));
    // The ops go before the context.
    parsed.top.clear();
  });
  return std::move(*result);
}

/// `@a::@b` -> `a::b`.
std::string plainName(llvm::StringRef name) {
  std::string out;
  for (char c : name)
    if (c != '@' && c != '"')
      out += c;
  return out;
}

/// Every function in the parsed text with its qualified name.
std::vector<std::pair<std::string, Operation *>> functionsOf(Parsed &parsed) {
  std::vector<std::pair<std::string, Operation *>> out;
  std::function<void(Operation *, const std::string &, bool)> visit =
      [&](Operation *op, const std::string &prefix, bool top) {
        auto symbol = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (llvm::isa<FunctionOpInterface>(op) && symbol) {
          out.emplace_back(prefix + symbol.getValue().str(), op);
          return;
        }
        std::string inner = prefix;
        // The top module's name is not part of its functions' names.
        if (!top && symbol && op->hasTrait<OpTrait::SymbolTable>())
          inner += symbol.getValue().str() + "::";
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (Operation &child : block)
              visit(&child, inner, false);
      };
  bool single = !parsed.top.empty() && std::next(parsed.top.begin()) == parsed.top.end();
  for (Operation &op : parsed.top)
    visit(&op, "", single);
  return out;
}

/// The first file-line-column location inside `loc` that is not the step's
/// own text.
std::string sourceLocationOf(Location loc) {
  std::string found;
  loc->walk([&](Location inner) {
    if (auto file = llvm::dyn_cast<FileLineColLoc>(inner)) {
      if (file.getFilename().getValue() != kBufferName) {
        found = (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) + ":" +
                 llvm::Twine(file.getColumn()))
                    .str();
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found;
}

std::string textOf(llvm::SMRange range) {
  if (!range.isValid())
    return "";
  return std::string(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
}

/// The name `value` is printed with in the text.
std::string valueName(Parsed &parsed, Value value) {
  if (auto result = llvm::dyn_cast<OpResult>(value)) {
    const AsmParserState::OperationDefinition *def = parsed.state.getOpDef(result.getOwner());
    if (!def)
      return "";
    unsigned number = result.getResultNumber();
    for (size_t i = def->resultGroups.size(); i-- > 0;) {
      const auto &group = def->resultGroups[i];
      if (group.startIndex > number)
        continue;
      std::string name = textOf(group.definition.loc);
      unsigned groupSize = (i + 1 < def->resultGroups.size()
                                ? def->resultGroups[i + 1].startIndex
                                : result.getOwner()->getNumResults()) -
                           group.startIndex;
      if (groupSize > 1)
        name += "#" + std::to_string(number - group.startIndex);
      return name;
    }
    return "";
  }
  auto argument = llvm::cast<BlockArgument>(value);
  const AsmParserState::BlockDefinition *def = parsed.state.getBlockDef(argument.getOwner());
  if (def && argument.getArgNumber() < def->arguments.size())
    return textOf(def->arguments[argument.getArgNumber()].loc);
  return "";
}

/// A short form of a constant's value for its label.
std::string constantSuffix(Operation *op) {
  if (!op->getName().getStringRef().ends_with("constant"))
    return "";
  Attribute value = op->getAttr("value");
  if (!value)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto integer = llvm::dyn_cast<IntegerAttr>(value))
    os << integer.getValue();
  else if (auto real = llvm::dyn_cast<FloatAttr>(value))
    os << llvm::format("%g", real.getValueAsDouble());
  else
    return "";
  return " " + text;
}

/// `compute @ 10.0.0.9:4711` for an executor.launch; the callee of a
/// catalyst.launch_kernel.
std::string launchLine(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  if (name == "executor.launch" || name == "executor.launch_async") {
    std::string kernel;
    if (auto callee = op->getAttrOfType<StringAttr>("kernel_callee"))
      kernel = callee.getValue().str();
    std::string executor = "?";
    if (op->getNumOperands() > 0)
      if (Operation *open = op->getOperand(0).getDefiningOp())
        if (auto address = open->getAttrOfType<StringAttr>("address"))
          executor = address.getValue().str();
    return kernel + " @ " + executor;
  }
  if (name == "catalyst.launch_kernel")
    if (auto callee = op->getAttrOfType<SymbolRefAttr>("callee")) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << callee;
      return plainName(text);
    }
  return "";
}

/// Builds the graph of `function` (parsed).
llvm::Expected<IrGraph> build(Parsed &parsed, Operation *function, const std::string &name,
                              const GraphOptions &options) {
  IrGraph graph;
  graph.function = name;
  function->walk([&](Operation *op) {
    if (op != function)
      ++graph.opCount;
  });
  graph.collapsed = graph.opCount > options.maxOps;

  llvm::DenseMap<Operation *, size_t> nodeOf;
  llvm::DenseMap<Block *, size_t> firstArgumentNode;
  auto lineOf = [&](Operation *op, IrGraphNode &node) {
    if (const AsmParserState::OperationDefinition *def = parsed.state.getOpDef(op)) {
      auto [line, column] = parsed.lineColumn(def->loc.Start);
      node.line = line;
      node.column = column;
      node.endLine = parsed.lineOf(def->scopeLoc.End);
      if (node.endLine < node.line)
        node.endLine = node.line;
    }
    node.sourceLocation = sourceLocationOf(op->getLoc());
  };
  auto addNode = [&](IrGraphNode node) {
    node.id = "op" + std::to_string(graph.nodes.size());
    graph.nodes.push_back(std::move(node));
    return graph.nodes.size() - 1;
  };

  // The function's arguments.
  Region &body = function->getRegion(0);
  if (!body.empty()) {
    Block &entry = body.front();
    firstArgumentNode[&entry] = graph.nodes.size();
    for (BlockArgument argument : entry.getArguments()) {
      IrGraphNode node;
      node.kind = IrGraphNode::Kind::Argument;
      node.opName = valueName(parsed, argument);
      node.label = node.opName.empty() ? "arg" + std::to_string(argument.getArgNumber())
                                       : node.opName;
      node.ops = 0;
      if (const AsmParserState::BlockDefinition *def = parsed.state.getBlockDef(&entry))
        if (argument.getArgNumber() < def->arguments.size()) {
          auto [line, column] = parsed.lineColumn(def->arguments[argument.getArgNumber()].loc.Start);
          node.line = node.endLine = line;
          node.column = column;
        }
      addNode(std::move(node));
    }
  }

  // The ops, each region a cluster inside its op's.
  std::function<void(Operation *, int)> visit = [&](Operation *op, int cluster) {
    // An implicit terminator (a `scf.yield` the printer leaves out) is not
    // in the text: no node.
    if (!parsed.state.getOpDef(op) && op->getNumOperands() == 0 && op->getNumRegions() == 0)
      return;
    IrGraphNode node;
    node.opName = op->getName().getStringRef().str();
    node.label = node.opName + constantSuffix(op);
    std::string launch = launchLine(op);
    if (!launch.empty()) {
      node.isLaunch = true;
      node.label += "\n" + launch;
    }
    node.cluster = cluster;
    lineOf(op, node);
    bool hasBody = llvm::any_of(op->getRegions(), [](Region &r) { return !r.empty(); });
    if (hasBody && graph.collapsed && cluster == -1) {
      size_t inner = 0;
      op->walk([&](Operation *) { ++inner; });
      node.kind = IrGraphNode::Kind::Region;
      node.ops = inner;
      node.label += "\n(" + std::to_string(inner) + " ops)";
      size_t index = addNode(std::move(node));
      op->walk([&](Operation *nested) { nodeOf[nested] = index; });
      return;
    }
    if (!hasBody) {
      nodeOf[op] = addNode(std::move(node));
      return;
    }
    IrGraphCluster box;
    box.label = node.opName + " (line " + std::to_string(node.line) + ")";
    box.parent = cluster;
    box.line = node.line;
    box.id = "cluster" + std::to_string(graph.clusters.size());
    graph.clusters.push_back(box);
    int own = static_cast<int>(graph.clusters.size() - 1);
    node.cluster = own;
    nodeOf[op] = addNode(std::move(node));
    size_t regions = llvm::count_if(op->getRegions(), [](Region &r) { return !r.empty(); });
    unsigned number = 0;
    for (Region &region : op->getRegions()) {
      if (region.empty()) {
        ++number;
        continue;
      }
      int inner = own;
      if (regions > 1) {
        IrGraphCluster sub;
        sub.label = "region " + std::to_string(number);
        sub.parent = own;
        sub.line = graph.nodes[nodeOf[op]].line;
        sub.id = "cluster" + std::to_string(graph.clusters.size());
        graph.clusters.push_back(sub);
        inner = static_cast<int>(graph.clusters.size() - 1);
      }
      ++number;
      for (Block &block : region)
        for (Operation &child : block)
          visit(&child, inner);
    }
  };
  if (!body.empty())
    for (Block &block : body)
      for (Operation &op : block)
        visit(&op, -1);

  size_t hardLimit = 2 * options.maxOps;
  if (graph.nodes.size() > hardLimit)
    return llvm::createStringError(
        "@" + name + " has " + std::to_string(graph.nodes.size()) +
        " operations outside regions even with its regions collapsed; the graph draws at most " +
        std::to_string(hardLimit));

  // The edges: each operand from where its value is defined.
  std::set<std::pair<size_t, size_t>> seen;
  llvm::DenseMap<std::pair<size_t, size_t>, size_t> edgeOf;
  auto sourceOf = [&](Value value) -> std::optional<size_t> {
    if (Operation *def = value.getDefiningOp()) {
      auto it = nodeOf.find(def);
      if (it != nodeOf.end())
        return it->second;
      return std::nullopt;
    }
    auto argument = llvm::cast<BlockArgument>(value);
    Block *block = argument.getOwner();
    if (block->getParentOp() == function) {
      auto it = firstArgumentNode.find(block);
      if (it != firstArgumentNode.end())
        return it->second + argument.getArgNumber();
      return std::nullopt; // a later block of the body
    }
    auto it = nodeOf.find(block->getParentOp());
    if (it != nodeOf.end())
      return it->second;
    return std::nullopt;
  };
  function->walk([&](Operation *op) {
    if (op == function)
      return;
    auto user = nodeOf.find(op);
    if (user == nodeOf.end())
      return;
    for (Value operand : op->getOperands()) {
      std::optional<size_t> from = sourceOf(operand);
      if (!from || *from == user->second)
        continue;
      std::pair<size_t, size_t> key{*from, user->second};
      std::string value = valueName(parsed, operand);
      auto found = edgeOf.find(key);
      if (found != edgeOf.end()) {
        std::string &names = graph.edges[found->second].value;
        if (!value.empty() && ("," + names + ",").find("," + value + ",") == std::string::npos)
          names += (names.empty() ? "" : ",") + value;
        continue;
      }
      edgeOf[key] = graph.edges.size();
      graph.edges.push_back({key.first, key.second, value});
    }
  });
  // A value with many users (a constant, an argument, a loop's induction
  // variable) is named on each user's box instead of drawn as one long edge
  // to each: dot lays out a long edge as a node on every rank it crosses,
  // and a value used all through a 2,000-op function would make millions of
  // them (and a node of its own above each user would double the nodes dot
  // orders on each rank).
  std::vector<size_t> users(graph.nodes.size(), 0);
  for (const IrGraphEdge &edge : graph.edges)
    ++users[edge.from];
  std::vector<IrGraphEdge> edges;
  edges.reserve(graph.edges.size());
  std::vector<size_t> withFarUses;
  for (IrGraphEdge &edge : graph.edges) {
    if (users[edge.from] <= options.maxUsers) {
      edges.push_back(std::move(edge));
      continue;
    }
    IrGraphNode &user = graph.nodes[edge.to];
    if (user.farUses.empty())
      withFarUses.push_back(edge.to);
    llvm::StringRef names(edge.value);
    if (names.empty())
      names = graph.nodes[edge.from].opName;
    // One edge stands for each value of its definition the user takes.
    do {
      auto [name, rest] = names.split(',');
      user.farUses.push_back({name.str(), edge.from});
      names = rest;
    } while (!names.empty());
  }
  // Their names on the box: `uses %a, %c1`, a line of at most about 32
  // characters each.
  for (size_t index : withFarUses) {
    IrGraphNode &user = graph.nodes[index];
    std::string line = "uses";
    for (size_t i = 0; i < user.farUses.size(); ++i) {
      const std::string &name = user.farUses[i].value;
      if (i > 0 && line.size() + name.size() > 32) {
        user.label += "\n" + line + ",";
        line = "    ";
      } else if (i > 0) {
        line += ",";
      }
      line += " " + name;
    }
    user.label += "\n" + line;
  }
  graph.edges = std::move(edges);
  return graph;
}
} // namespace

std::optional<size_t> IrGraph::nodeAtLine(unsigned line) const {
  std::optional<size_t> best;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].line == line && nodes[i].kind != IrGraphNode::Kind::Argument)
      return i;
  // A line inside a collapsed op, or an argument's.
  for (size_t i = 0; i < nodes.size(); ++i) {
    const IrGraphNode &n = nodes[i];
    if (n.line && n.line <= line && line <= n.endLine &&
        (!best || n.line >= nodes[*best].line))
      if (n.kind != IrGraphNode::Kind::Op || n.line == line)
        best = i;
  }
  return best;
}

std::optional<std::string> FunctionList::functionAtLine(unsigned line) const {
  std::optional<size_t> best;
  for (size_t i = 0; i < names.size(); ++i)
    if (lines[i].first <= line && line <= lines[i].second &&
        (!best || lines[i].first >= lines[*best].first))
      best = i;
  if (!best)
    return std::nullopt;
  return names[*best];
}

llvm::Expected<FunctionList> executor_studio::listFunctions(llvm::StringRef text) {
  return withParsed<FunctionList>(text, [](Parsed &parsed) -> llvm::Expected<FunctionList> {
    FunctionList list;
    for (auto &[name, op] : functionsOf(parsed)) {
      list.names.push_back(name);
      std::pair<unsigned, unsigned> lines{0, 0};
      if (const AsmParserState::OperationDefinition *def = parsed.state.getOpDef(op))
        lines = {parsed.lineOf(def->scopeLoc.Start), parsed.lineOf(def->scopeLoc.End)};
      list.lines.push_back(lines);
    }
    return list;
  });
}

llvm::Expected<IrGraph> executor_studio::buildIrGraph(llvm::StringRef text,
                                                      llvm::StringRef function,
                                                      const GraphOptions &options) {
  std::string wanted = plainName(function);
  return withParsed<IrGraph>(text, [&](Parsed &parsed) -> llvm::Expected<IrGraph> {
    std::vector<std::pair<std::string, Operation *>> functions = functionsOf(parsed);
    for (auto &[name, op] : functions)
      if (name == wanted)
        return build(parsed, op, name, options);
    // A function's own name, when only one function has it.
    std::vector<std::pair<std::string, Operation *> *> byLeaf;
    for (auto &entry : functions) {
      llvm::StringRef name(entry.first);
      size_t colons = name.rfind("::");
      if ((colons == llvm::StringRef::npos ? name : name.substr(colons + 2)) == wanted)
        byLeaf.push_back(&entry);
    }
    if (byLeaf.size() == 1)
      return build(parsed, byLeaf.front()->second, byLeaf.front()->first, options);
    std::vector<std::string> names;
    for (auto &entry : functions)
      names.push_back(entry.first);
    std::string message;
    if (byLeaf.size() > 1) {
      message = "more than one function is named " + wanted + ":";
      for (auto *entry : byLeaf)
        message += " " + entry->first;
      message += " (name one of them)";
      return llvm::createStringError(message);
    }
    message = "the step has no function " + wanted;
    if (std::optional<std::string> meant = nearestName(wanted, names))
      message += "; did you mean '" + *meant + "'?";
    message += " (its functions:";
    for (const std::string &name : names)
      message += " " + name;
    if (names.empty())
      message += " none";
    message += ")";
    return llvm::createStringError(message);
  });
}

llvm::Expected<std::shared_ptr<const LaidOutGraph>>
IrGraphCache::get(const std::shared_ptr<const std::string> &text, llvm::StringRef function,
                  const GraphOptions &options) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (Entry &entry : entries)
      if (entry.function == function && entry.maxOps == options.maxOps &&
          entry.maxUsers == options.maxUsers &&
          (entry.text == text || *entry.text == *text)) {
        entry.used = ++clock;
        lastHit = true;
        return entry.graph;
      }
  }
  llvm::Expected<IrGraph> graph = buildIrGraph(*text, function, options);
  if (!graph)
    return graph.takeError();
  llvm::Expected<GraphLayout> layout = layoutGraph(*graph);
  if (!layout)
    return layout.takeError();
  auto laidOut = std::make_shared<LaidOutGraph>();
  laidOut->graph = std::move(*graph);
  laidOut->layout = std::move(*layout);
  std::lock_guard<std::mutex> lock(mutex);
  lastHit = false;
  if (entries.size() >= capacity && !entries.empty())
    entries.erase(std::min_element(entries.begin(), entries.end(),
                                   [](const Entry &a, const Entry &b) { return a.used < b.used; }));
  entries.push_back({text, function.str(), options.maxOps, options.maxUsers, laidOut, ++clock});
  return std::shared_ptr<const LaidOutGraph>(laidOut);
}

void IrGraphCache::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  entries.clear();
}
