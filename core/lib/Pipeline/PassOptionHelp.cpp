//===- PassOptionHelp.cpp - what a pass's options are -----------*- C++ -*-===//
#include "ExecutorStudio/Pipeline/PassOptionHelp.h"
#include "ExecutorStudio/Support/Nearest.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace mlir;
using namespace executor_studio;

namespace {
/// Splits `text` at top-level `sep` (outside quotes, braces, brackets and
/// parentheses).
SmallVector<StringRef> splitTopLevel(StringRef text, char sep) {
  SmallVector<StringRef> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    else if (c == '{' || c == '[' || c == '(')
      ++depth;
    else if ((c == '}' || c == ']' || c == ')') && depth > 0)
      --depth;
    else if (c == sep && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push_back(text.drop_front(start).trim());
  return parts;
}

/// The option names in a textual pass such as `name{a=1 b=x}`.
SmallVector<std::string> optionNamesOf(StringRef printed) {
  SmallVector<std::string> names;
  size_t open = printed.find('{');
  if (open == StringRef::npos || !printed.ends_with("}"))
    return names;
  for (StringRef entry :
       splitTopLevel(printed.slice(open + 1, printed.size() - 1), ' '))
    if (!entry.empty())
      names.push_back(entry.split('=').first.str());
  return names;
}
} // namespace

namespace {
/// The option names of registered pass pipelines (registerPipelineOptions):
/// MLIR keeps a pipeline's options out of reach once it is registered.
llvm::StringMap<SmallVector<std::string>> &pipelineOptions() {
  static llvm::StringMap<SmallVector<std::string>> names;
  return names;
}

/// Whether `name` is a registered pass or pass pipeline.
bool isRegistered(StringRef name) {
  return PassInfo::lookup(name) || PassPipelineInfo::lookup(name);
}
} // namespace

void executor_studio::registerPipelineOptions(
    StringRef pipeline, const mlir::detail::PassOptions &options) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  options.print(os);
  pipelineOptions()[pipeline] = optionNamesOf((pipeline + printed).str());
}

SmallVector<std::string> executor_studio::getRegisteredPassNames() {
  // MLIR lists its passes and pipelines only as the command-line flags of a
  // PassPipelineCLParser (mlir-opt's `--canonicalize`): read them there,
  // making one if no tool has (two would register each flag twice; every
  // tool registers this project's passes, lower-runtime-dispatch among
  // them).
  auto &options = llvm::cl::getRegisteredOptions();
  if (!options.count("lower-runtime-dispatch")) {
    // No argument: its passes become flags of their own, as in mlir-opt.
    static mlir::PassPipelineCLParser passes("", "registered passes");
  }
  SmallVector<std::string> names;
  for (auto &entry : llvm::cl::getRegisteredOptions())
    if (isRegistered(entry.first))
      names.push_back(entry.first.str());
  llvm::sort(names);
  return names;
}

SmallVector<std::string>
executor_studio::getPassOptionNames(StringRef passName) {
  const PassInfo *info = PassInfo::lookup(passName);
  if (!info) {
    auto it = pipelineOptions().find(passName);
    return it == pipelineOptions().end() ? SmallVector<std::string>{}
                                         : it->second;
  }
  OpPassManager pm;
  if (failed(info->addToPipeline(pm, "", [](const Twine &) {
        return failure();
      })) ||
      pm.size() != 1)
    return {};
  std::string printed;
  llvm::raw_string_ostream os(printed);
  pm.begin()->printAsTextualPipeline(os, /*pretty=*/false);
  return optionNamesOf(printed);
}

std::string executor_studio::explainPassOptions(StringRef passName,
                                                StringRef options) {
  // A pipeline whose options are not known: MLIR's own message stands.
  if (!PassInfo::lookup(passName) &&
      !(PassPipelineInfo::lookup(passName) &&
        pipelineOptions().count(passName)))
    return "";
  SmallVector<std::string> valid = getPassOptionNames(passName);
  std::string result;
  llvm::raw_string_ostream os(result);
  for (StringRef entry : splitTopLevel(options, ' ')) {
    if (entry.empty())
      continue;
    StringRef key = entry.split('=').first.trim();
    if (llvm::is_contained(valid, key))
      continue;
    if (!result.empty())
      os << "; ";
    os << passName << " has no option '" << key << "'";
    if (std::optional<std::string> meant = nearestName(key, valid))
      os << " (did you mean '" << *meant << "'?)";
    if (valid.empty()) {
      os << "; it takes no options";
    } else {
      os << "; its options are ";
      llvm::interleaveComma(valid, os);
    }
  }
  return result;
}

std::string executor_studio::explainUnknownPass(StringRef name) {
  if (name.empty() || isRegistered(name))
    return "";
  std::string result = "'" + name.str() +
                       "' is not a registered pass or pass pipeline";
  if (std::optional<std::string> meant =
          nearestName(name, getRegisteredPassNames()))
    result += " (did you mean '" + *meant + "'?)";
  return result;
}

namespace {
/// Calls `visit(element, name, options)` for every pass element of a
/// textual pipeline, at every depth (`name{options}` or `name`; options is
/// empty without braces). `name(nested)` anchors are walked into.
void forEachPassElement(
    StringRef pipeline,
    llvm::function_ref<void(StringRef, StringRef, std::optional<StringRef>)>
        visit) {
  std::function<void(StringRef)> walk = [&](StringRef text) {
    for (StringRef element : splitTopLevel(text, ',')) {
      size_t brace = element.find('{');
      size_t paren = element.find('(');
      if (paren != StringRef::npos && (brace == StringRef::npos || paren < brace)) {
        if (element.ends_with(")"))
          walk(element.slice(paren + 1, element.size() - 1));
        continue;
      }
      if (brace == StringRef::npos) {
        visit(element, element, std::nullopt);
        continue;
      }
      if (!element.ends_with("}"))
        continue;
      visit(element, element.take_front(brace).trim(),
            element.slice(brace + 1, element.size() - 1));
    }
  };
  walk(pipeline.trim());
}
} // namespace

std::string executor_studio::addMissingPassOption(
    StringRef pipeline, llvm::ArrayRef<StringRef> passes, StringRef option,
    StringRef value) {
  // Insertions (offset, text), applied from the back.
  SmallVector<std::pair<size_t, std::string>> inserts;
  forEachPassElement(pipeline, [&](StringRef element, StringRef name,
                                   std::optional<StringRef> options) {
    if (!llvm::is_contained(passes, name))
      return;
    size_t end = element.data() + element.size() - pipeline.data();
    std::string entry = (option + "=" + value).str();
    if (!options) {
      inserts.push_back({end, "{" + entry + "}"});
      return;
    }
    for (StringRef given : splitTopLevel(*options, ' '))
      if (given.split('=').first.trim() == option)
        return;
    inserts.push_back(
        {end - 1, (options->trim().empty() ? "" : " ") + entry});
  });
  std::string result = pipeline.str();
  for (auto it = inserts.rbegin(); it != inserts.rend(); ++it)
    result.insert(it->first, it->second);
  return result;
}

std::string executor_studio::explainPipelineOptions(StringRef pipeline) {
  std::string result;
  forEachPassElement(pipeline, [&](StringRef, StringRef name,
                                   std::optional<StringRef> options) {
      std::string problem = explainUnknownPass(name);
      if (problem.empty() && options)
        problem = explainPassOptions(name, *options);
      if (problem.empty())
        return;
      if (!result.empty())
        result += "; ";
      result += problem;
  });
  return result;
}
