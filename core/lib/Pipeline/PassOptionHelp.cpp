//===- PassOptionHelp.cpp - what a pass's options are -----------*- C++ -*-===//
#include "Pipeline/PassOptionHelp.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>

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

SmallVector<std::string>
executor_studio::getPassOptionNames(StringRef passName) {
  const PassInfo *info = PassInfo::lookup(passName);
  if (!info)
    return {};
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
  if (!PassInfo::lookup(passName))
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
    const std::string *nearest = nullptr;
    unsigned best = 0;
    for (const std::string &name : valid) {
      unsigned distance = key.edit_distance(name, /*AllowReplacements=*/true);
      if (distance <= std::max<size_t>(2, name.size() / 3) &&
          (!nearest || distance < best)) {
        nearest = &name;
        best = distance;
      }
    }
    if (nearest)
      os << " (did you mean '" << *nearest << "'?)";
    if (valid.empty()) {
      os << "; it takes no options";
    } else {
      os << "; its options are ";
      llvm::interleaveComma(valid, os);
    }
  }
  return result;
}

std::string executor_studio::explainPipelineOptions(StringRef pipeline) {
  std::string result;
  // Walk `name{options}` and `name(nested)` elements at every depth.
  std::function<void(StringRef)> walk = [&](StringRef text) {
    for (StringRef element : splitTopLevel(text, ',')) {
      size_t brace = element.find('{');
      size_t paren = element.find('(');
      if (paren != StringRef::npos && (brace == StringRef::npos || paren < brace)) {
        if (element.ends_with(")"))
          walk(element.slice(paren + 1, element.size() - 1));
        continue;
      }
      if (brace == StringRef::npos || !element.ends_with("}"))
        continue;
      std::string problem =
          explainPassOptions(element.take_front(brace).trim(),
                             element.slice(brace + 1, element.size() - 1));
      if (problem.empty())
        continue;
      if (!result.empty())
        result += "; ";
      result += problem;
    }
  };
  walk(pipeline.trim());
  return result;
}
