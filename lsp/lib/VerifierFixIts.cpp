//===- VerifierFixIts.cpp - fixes for what the verifiers report -*- C++ -*-===//
#include "ExecutorLsp/VerifierFixIts.h"

#include "ExecutorLsp/Kernels.h"
#include "ExecutorLsp/ParsedChunk.h"

#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace executor_studio::lsp;
using llvm::StringRef;

namespace {
//===----------------------------------------------------------------------===//
// Text of an op

/// The printed text of an op: from its name to its end.
struct OpText {
  const ParsedChunk &chunk;
  const AsmParserState::OperationDefinition &def;

  StringRef text() const { return ParsedChunk::getText(def.scopeLoc); }
  SMLoc at(size_t offset) const {
    return SMLoc::getFromPointer(text().data() + offset);
  }
  proto::TextEdit replace(size_t begin, size_t end, std::string with) const {
    return {chunk.getRange(SMRange(at(begin), at(end))), std::move(with)};
  }
  proto::TextEdit insert(size_t offset, std::string with) const {
    return replace(offset, offset, std::move(with));
  }

  /// Calls `fn(offset, char)` for each character outside strings and
  /// brackets (depth 0); stops when it returns true. Returns that offset.
  template <typename Fn> size_t findAtTopLevel(size_t from, Fn fn) const {
    StringRef s = text();
    int depth = 0;
    for (size_t i = from; i < s.size(); ++i) {
      char c = s[i];
      if (c == '"') {
        for (++i; i < s.size() && s[i] != '"'; ++i)
          if (s[i] == '\\')
            ++i;
        continue;
      }
      if (c == '-' && i + 1 < s.size() && s[i + 1] == '>') {
        if (depth == 0 && fn(i, '>'))
          return i;
        ++i;
        continue;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<') {
        if (depth == 0 && fn(i, c))
          return i;
        ++depth;
        continue;
      }
      if (c == ')' || c == ']' || c == '}' || c == '>') {
        --depth;
        continue;
      }
      if (depth == 0 && fn(i, c))
        return i;
    }
    return StringRef::npos;
  }

  /// The string literal that follows `key` (e.g. `address`), as offsets of
  /// its quotes [begin, end).
  std::optional<std::pair<size_t, size_t>> findStringAfter(StringRef key,
                                                           size_t from = 0) {
    StringRef s = text();
    size_t k = s.find(key, from);
    if (k == StringRef::npos)
      return std::nullopt;
    size_t open = s.find('"', k + key.size());
    if (open == StringRef::npos)
      return std::nullopt;
    size_t close = open + 1;
    while (close < s.size() && s[close] != '"') {
      if (s[close] == '\\')
        ++close;
      ++close;
    }
    if (close >= s.size())
      return std::nullopt;
    return std::make_pair(open, close + 1);
  }
};

std::string quote(StringRef value) {
  std::string result = "\"";
  llvm::raw_string_ostream os(result);
  llvm::printEscapedString(value, os);
  os << '"';
  return result;
}

std::string printTypes(TypeRange types, bool parenthesizeOne) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool parens =
      types.size() != 1 || parenthesizeOne || isa<FunctionType>(types.front());
  if (parens)
    os << '(';
  llvm::interleaveComma(types, os);
  if (parens)
    os << ')';
  return text;
}

/// The edit that adds `attribute` (`name = value`) to the `attributes {...}`
/// of an op that prints its attributes after that keyword (builtin.module,
/// func.func), before its region.
std::optional<proto::TextEdit> addToAttributesKeyword(OpText op,
                                                      StringRef attribute) {
  StringRef s = op.text();
  // The region's `{` (or `attributes`) at the top level.
  size_t keyword = StringRef::npos;
  size_t region = op.findAtTopLevel(0, [&](size_t i, char c) {
    if (c == '{')
      return true;
    if (keyword == StringRef::npos && s.substr(i).starts_with("attributes") &&
        (i == 0 || s[i - 1] == ' '))
      keyword = i;
    return false;
  });
  if (keyword != StringRef::npos && region != StringRef::npos &&
      keyword < region) {
    // `attributes {` : the dictionary is the `{` found; its region follows.
    size_t open = region;
    size_t after = open + 1;
    StringRef rest = s.substr(after).ltrim();
    bool empty = rest.starts_with("}");
    return op.insert(after, (attribute + (empty ? "" : ", ")).str());
  }
  if (region == StringRef::npos)
    return std::nullopt;
  return op.insert(region, ("attributes {" + attribute + "} ").str());
}

//===----------------------------------------------------------------------===//
// catalyst.launch_kernel

void fixLaunch(const ParsedChunk &chunk,
               const AsmParserState::OperationDefinition &def,
               catalyst::LaunchKernelOp launch, std::vector<FixIt> &fixes) {
  // A callee that does not resolve but is a few edits from a kernel.
  if (!launch.getCalleeFunction())
    getKernelSpellingFixes(chunk, launch, fixes);
  ModuleOp module = launch.getCalleeModule();
  if (!module)
    return;
  // A module that nothing compiles: make it a target.
  if (!catalyst::isTarget(module) && !catalyst::hasDispatch(module)) {
    if (const auto *moduleDef = chunk.asmState.getOpDef(module)) {
      if (auto edit = addToAttributesKeyword(OpText{chunk, *moduleDef},
                                             "catalyst.target = {}")) {
        fixes.push_back({"Add catalyst.target = {} to @" +
                             catalyst::getTargetName(module) +
                             " (cross-compile-targets then compiles it)",
                         {*edit},
                         true});
      }
    }
    return;
  }
  auto callee =
      dyn_cast_or_null<FunctionOpInterface>(SymbolTable::lookupSymbolIn(
          module, launch.getCalleeAttr().getLeafReference()));
  if (!callee)
    return;
  ArrayRef<Type> expected = callee.getResultTypes();
  TypeRange actual = launch.getResultTypes();
  if (expected.size() != actual.size())
    return; // the SSA results would change too: no text edit of the type.
  if (catalyst::kernelTypesMatch(expected, SmallVector<Type>(actual)))
    return;
  OpText op{chunk, def};
  // The results of the trailing functional type: after its top-level `->`.
  size_t arrow = StringRef::npos;
  op.findAtTopLevel(0, [&](size_t i, char c) {
    if (c == '>')
      arrow = i;
    return false;
  });
  if (arrow == StringRef::npos)
    return;
  std::string types = printTypes(expected, /*parenthesizeOne=*/false);
  fixes.push_back(
      {"Change the result types to @" + callee.getName().str() + "'s: " + types,
       {op.replace(arrow + 2, op.text().size(), " " + types)},
       true});
}

//===----------------------------------------------------------------------===//
// Addresses

/// What an address the verifier rejects can become: the fix's title and
/// the new address.
struct AddressForm {
  std::string title;
  std::string address;
  /// Whether it needs no value the text does not have.
  bool complete = false;
};

/// Whether the blanks of `address` are all at its ends or next to a `:`,
/// `[` or `]` (so removing them joins no words).
bool blanksAreStray(StringRef address) {
  StringRef s = address.trim();
  for (size_t i = 0; i < s.size(); ++i) {
    if (!llvm::isSpace(s[i]))
      continue;
    size_t end = i;
    while (end < s.size() && llvm::isSpace(s[end]))
      ++end;
    char before = s[i - 1], after = s[end];
    if (!StringRef(":[]").contains(before) && !StringRef(":[]").contains(after))
      return false;
    i = end;
  }
  return true;
}

/// The repairs that need no value the text does not have (blanks around
/// the separators removed, an IPv6 host bracketed before its last `:`),
/// then the address's forms with what is missing as a word in capitals to
/// replace: `HOST:PORT` (keeping a host or port the text has), `unix:PATH`
/// (a Unix socket) and the placeholder `ADDR:PORT` that
/// `EXECUTOR_ADDRESS_MAP` maps when the program runs. Each verifies (a word
/// in capitals reads as a placeholder port). No host or port is guessed.
llvm::SmallVector<AddressForm> repairAddress(StringRef address) {
  llvm::SmallVector<AddressForm> candidates;
  auto repair = [&](std::string to, StringRef why) {
    candidates.push_back(
        {"Write the address as " + quote(to) + " (" + why.str() + ")", to,
         true});
  };
  auto form = [&](std::string to, StringRef why) {
    candidates.push_back(
        {"Write the address in the form " + quote(to) + " (" + why.str() + ")",
         to, false});
  };
  std::string compact;
  for (char c : address)
    if (!llvm::isSpace(c))
      compact += c;
  bool stray = blanksAreStray(address);
  if (stray)
    repair(compact, "without blanks");
  StringRef s = compact;
  if (stray && !s.empty() && !s.starts_with("[") && s.count(':') > 1) {
    // An IPv6 host: all but a port after the last colon, or all of it.
    size_t colon = s.rfind(':');
    form(("[" + s + "]:PORT").str(), "replace PORT");
    // Reads the last group as the port: a reading, not a repair.
    form(("[" + s.take_front(colon) + "]" + s.drop_front(colon)).str(),
         "the IPv6 host in brackets, the last group as its port");
  }
  // HOST:PORT, keeping a host or port that the text has.
  StringRef host, port;
  if (stray) {
    if (s.starts_with("[") && s.contains(']')) {
      host = s.take_front(s.find(']') + 1);
      port = s.drop_front(host.size());
      port.consume_front(":");
    } else if (s.count(':') <= 1) {
      std::tie(host, port) = s.split(':');
    }
  }
  bool hasHost = !host.empty() && host != "unix";
  bool hasPort = !port.empty() && llvm::all_of(port, llvm::isDigit);
  if (hasHost || hasPort) {
    std::string why = hasHost && !hasPort   ? "replace PORT"
                      : !hasHost && hasPort ? "replace HOST"
                                            : "";
    form((hasHost ? host.str() : "HOST") + ":" +
             (hasPort ? port.str() : "PORT"),
         why);
  }
  form("HOST:PORT", "replace HOST and PORT");
  form("unix:PATH", "a Unix socket; replace PATH");
  candidates.push_back(
      {"Write the placeholder \"ADDR:PORT\" (EXECUTOR_ADDRESS_MAP maps it "
       "to the executor's address when the program runs)",
       "ADDR:PORT", false});
  llvm::SmallVector<AddressForm> valid;
  for (AddressForm &candidate : candidates)
    if (candidate.address != address &&
        llvm::none_of(valid,
                      [&](const AddressForm &other) {
                        return other.address == candidate.address;
                      }) &&
        catalyst::executor::validateAddress(candidate.address).empty())
      valid.push_back(std::move(candidate));
  return valid;
}

void fixAddress(const ParsedChunk &chunk,
                const AsmParserState::OperationDefinition &def,
                StringRef address, StringRef key, StringRef after,
                std::vector<FixIt> &fixes) {
  if (catalyst::executor::validateAddress(address).empty())
    return;
  OpText op{chunk, def};
  size_t from = after.empty() ? 0 : op.text().find(after);
  if (from == StringRef::npos)
    return;
  auto literal = op.findStringAfter(key, from);
  if (!literal)
    return;
  // Only a first fix that needs no value is preferred ("fix all" applies
  // it); a form is for the user to complete.
  bool first = true;
  for (AddressForm &form : repairAddress(address)) {
    fixes.push_back(
        {std::move(form.title),
         {op.replace(literal->first, literal->second, quote(form.address))},
         first && form.complete});
    first = false;
  }
}

//===----------------------------------------------------------------------===//
// Modules

void fixModule(const ParsedChunk &chunk,
               const AsmParserState::OperationDefinition &def, ModuleOp module,
               std::vector<FixIt> &fixes) {
  if (!catalyst::hasDispatch(module))
    return;
  if (std::optional<std::string> address = catalyst::getDispatchAddress(module))
    fixAddress(chunk, def, *address, "address", "catalyst.dispatch", fixes);
  // dispatch-executor-targets ships catalyst.object_file; without
  // catalyst.target nothing writes one.
  std::optional<std::string> object = catalyst::getObjectFile(module);
  if (catalyst::isTarget(module) || (object && !object->empty()))
    return;
  OpText op{chunk, def};
  std::string name = catalyst::getTargetName(module);
  if (auto edit = addToAttributesKeyword(op, "catalyst.target = {}"))
    fixes.push_back({"Add catalyst.target = {} to @" + name +
                         " (cross-compile-targets then compiles it and "
                         "records its object)",
                     {*edit},
                     true});
  // The object's path is not known: the form, with the word to replace.
  if (auto edit = addToAttributesKeyword(op, "catalyst.object_file = " +
                                                 quote("PATH")))
    fixes.push_back({"Add catalyst.object_file = " + quote("PATH") +
                         " (an object compiled elsewhere; replace PATH)",
                     {*edit},
                     false});
}

//===----------------------------------------------------------------------===//
// executor.call

/// Whether `boundary` as num_input_args satisfies executor.call's verifier,
/// and leaves no result that its bufferization cannot allocate.
bool isGoodBoundary(catalyst::executor::CallOp call, unsigned boundary,
                    bool &verifies) {
  OperandRange outputs = call.getInputs().drop_front(boundary);
  SmallVector<Type> tensorOutputs;
  for (Value out : outputs)
    if (isa<TensorType>(out.getType()))
      tensorOutputs.push_back(out.getType());
  verifies = false;
  if (call.getNumResults() < tensorOutputs.size())
    return false;
  for (auto [index, type] : llvm::enumerate(tensorOutputs))
    if (call.getResult(index).getType() != type)
      return false;
  verifies = true;
  for (Value result : call.getResults().drop_front(tensorOutputs.size()))
    if (auto tensor = dyn_cast<RankedTensorType>(result.getType());
        tensor && !tensor.hasStaticShape())
      return false;
  return true;
}

void fixCall(const ParsedChunk &chunk,
             const AsmParserState::OperationDefinition &def,
             catalyst::executor::CallOp call, std::vector<FixIt> &fixes) {
  unsigned operands = call.getInputs().size();
  std::optional<int64_t> current;
  if (auto attr = call.getNumInputArgsAttr())
    current = attr.getValue().getSExtValue();
  bool currentVerifies = false;
  if (current && *current >= 0 && *current <= operands &&
      isGoodBoundary(call, *current, currentVerifies))
    return;
  if (!current && isGoodBoundary(call, operands, currentVerifies))
    return;
  // The largest boundary that works: the fewest operands become outputs.
  std::optional<unsigned> best;
  for (int64_t k = operands; k >= 0 && !best; --k) {
    bool verifies = false;
    if (isGoodBoundary(call, k, verifies))
      best = k;
  }
  if (!best)
    return;
  std::string value = std::to_string(*best) + " : i32";
  std::string title =
      llvm::formatv("Set num_input_args = {0} (operands {0}..{1} are "
                    "outputs)",
                    *best, operands ? operands - 1 : 0)
          .str();
  if (*best == operands)
    title = llvm::formatv("Set num_input_args = {0} (every operand is an "
                          "input)",
                          *best)
                .str();
  OpText op{chunk, def};
  StringRef s = op.text();
  if (current) {
    size_t key = s.find("num_input_args");
    if (key == StringRef::npos)
      return;
    size_t equals = s.find('=', key);
    if (equals == StringRef::npos)
      return;
    size_t begin = s.find_first_not_of(" \t", equals + 1);
    // The value runs to the `,` or `}` that ends the entry.
    size_t end = s.find_first_of(",}", begin);
    if (begin == StringRef::npos || end == StringRef::npos)
      return;
    StringRef old = s.slice(begin, end).rtrim();
    fixes.push_back(
        {title, {op.replace(begin, begin + old.size(), value)}, true});
    return;
  }
  // No attribute yet: into the attr-dict after `(inputs)`, before the `:`.
  size_t colon = op.findAtTopLevel(0, [](size_t, char c) { return c == ':'; });
  if (colon == StringRef::npos)
    return;
  size_t dict = op.findAtTopLevel(
      0, [&](size_t i, char c) { return c == '{' && i < colon; });
  if (dict != StringRef::npos && dict < colon) {
    bool empty = s.substr(dict + 1).ltrim().starts_with("}");
    fixes.push_back({title,
                     {op.insert(dict + 1, "num_input_args = " + value +
                                              (empty ? "" : ", "))},
                     true});
    return;
  }
  size_t end = s.substr(0, colon).rtrim().size();
  fixes.push_back(
      {title, {op.insert(end, " {num_input_args = " + value + "}")}, true});
}
} // namespace

void executor_studio::lsp::getVerifierFixIts(const ParsedChunk &chunk,
                                             Operation *op,
                                             std::vector<FixIt> &fixes) {
  const AsmParserState::OperationDefinition *def = chunk.asmState.getOpDef(op);
  if (!def)
    return;
  if (auto launch = dyn_cast<catalyst::LaunchKernelOp>(op))
    return fixLaunch(chunk, *def, launch, fixes);
  if (auto module = dyn_cast<ModuleOp>(op))
    return fixModule(chunk, *def, module, fixes);
  if (auto open = dyn_cast<catalyst::executor::OpenOp>(op))
    return fixAddress(chunk, *def, open.getAddress(), "(", "", fixes);
  if (auto call = dyn_cast<catalyst::executor::CallOp>(op))
    return fixCall(chunk, *def, call, fixes);
}
