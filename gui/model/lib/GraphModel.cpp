//===- GraphModel.cpp - the Graph view's state ------------------*- C++ -*-===//
#include "StudioModel/GraphModel.h"

#include <algorithm>

using namespace executor_studio;
using namespace executor_studio::gui;

void GraphModel::setFunction(std::string name) { requested = std::move(name); }

void GraphModel::update(int position, const std::shared_ptr<const std::string> &text,
                        bool isMlir) {
  if (!text) {
    if (current || problem.empty()) {
      current.reset();
      ++gen;
    }
    problem = "no IR at this step";
    shownText.reset();
    return;
  }
  if (!isMlir) {
    if (current || shownText != text) {
      current.reset();
      ++gen;
    }
    shownText = text;
    problem = "the graph is drawn for MLIR steps; this step is LLVM IR or assembly";
    return;
  }
  // The functions of the text, listed once per text.
  if (listedText != text) {
    listedText = text;
    functions.reset();
    functionsError.clear();
    llvm::Expected<FunctionList> listed = listFunctions(*text);
    if (listed)
      functions = std::move(*listed);
    else
      functionsError = llvm::toString(listed.takeError());
  }
  std::string wanted = requested;
  if (wanted.empty() && functions) {
    if (std::optional<std::string> at = functions->functionAtLine(cursor))
      wanted = *at;
    else if (std::find(functions->names.begin(), functions->names.end(), shownFunction) !=
             functions->names.end())
      wanted = shownFunction;
    else if (!functions->names.empty())
      wanted = functions->names.front();
  }
  if (wanted.empty() && !functionsError.empty()) {
    if (problem != functionsError || current) {
      current.reset();
      problem = functionsError;
      ++gen;
    }
    shownText = text;
    return;
  }
  if (text == shownText && wanted == shownWanted && position == shownPosition) {
    cached = true; // shown as it is: nothing laid out
    return;
  }
  shownText = text;
  shownWanted = wanted;
  shownFunction = wanted;
  shownPosition = position;
  ++gen;
  if (wanted.empty()) {
    current.reset();
    problem = "the step has no function";
    return;
  }
  llvm::Expected<std::shared_ptr<const LaidOutGraph>> laidOut =
      graphs.get(text, wanted, options);
  if (!laidOut) {
    current.reset();
    problem = llvm::toString(laidOut.takeError());
    return;
  }
  cached = graphs.lastWasCached();
  current = std::move(*laidOut);
  shownFunction = current->graph.function;
  problem.clear();
}

std::optional<size_t> GraphModel::cursorNode() const {
  if (!current || cursor == 0)
    return std::nullopt;
  return current->graph.nodeAtLine(cursor);
}

unsigned GraphModel::selectNode(size_t node) {
  if (!current || node >= current->graph.nodes.size())
    return 0;
  unsigned line = current->graph.nodes[node].line;
  if (line)
    cursor = line;
  return line;
}
