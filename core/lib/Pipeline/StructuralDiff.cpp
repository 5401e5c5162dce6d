//===- StructuralDiff.cpp - the same names for the same values ------------===//
//
// Both texts are parsed (not verified) with an AsmParserState, which knows
// where every value and block is defined and used in the text. Operations
// are matched list by list, from the top down: a block's operations are
// aligned by a common subsequence of keys, first by location (when both
// sides have a real one), then strictly (name, attributes, properties,
// result types, operands that match), then loosely (name, symbol name,
// result types), then by result types alone; each tier runs in the gaps the
// one before left. In a symbol table's body the symbols left over are then
// matched by name wherever they are (a function a pass moved). Matched
// operations map their results and, region by region, their blocks and
// block arguments; their regions are aligned the same way. The right text
// is then rewritten in place: names change, scoped as the parser scopes
// them (sibling regions may share names), and moved symbols go back to
// the left's order.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/StructuralDiff.h"
#include "ExecutorStudio/Pipeline/SequenceMatch.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

using namespace mlir;
using namespace executor_studio;

namespace {

/// A hash as a DenseMap key: never the map's empty (~0) or tombstone (~0 - 1)
/// key, which a hash could otherwise be.
uint64_t mapKey(uint64_t hash) { return hash & ~(uint64_t(1) << 63); }

/// One parsed side.
struct Side {
  llvm::StringRef text;
  std::string bufferName;
  llvm::SourceMgr sourceMgr;
  Block top;
  AsmParserState state;
  size_t ops = 0;

  size_t offsetOf(llvm::SMLoc loc) const {
    return static_cast<size_t>(loc.getPointer() - text.data());
  }
  llvm::StringRef textOf(llvm::SMRange range) const {
    return llvm::StringRef(range.Start.getPointer(),
                           range.End.getPointer() - range.Start.getPointer());
  }
};

llvm::Error parseSide(MLIRContext &context, Side &side, const char *which) {
  if (llvm::Error err = parseStepText(context, side.sourceMgr, side.text,
                                      side.bufferName, side.top, side.state))
    return llvm::createStringError(llvm::Twine("the ") + which +
                                   " snapshot does not parse: " +
                                   llvm::toString(std::move(err)));
  side.top.walk([&](Operation *) { ++side.ops; });
  return llvm::Error::success();
}

/// Whether `op` has a location of its own in the text (`loc(...)`), not the
/// place the parser found it.
bool hasRealLocation(Operation *op, llvm::StringRef bufferName) {
  Location loc = op->getLoc();
  if (llvm::isa<UnknownLoc>(loc))
    return false;
  if (auto fileLoc = llvm::dyn_cast<FileLineColLoc>(loc))
    return fileLoc.getFilename().getValue() != bufferName;
  return true;
}

enum class Tier { Location, Strict, Loose, Results, Count };

class Matcher {
public:
  Matcher(Side &left, Side &right) : left(left), right(right) {}

  void run() { alignOps(opsOf(left.top), opsOf(right.top), &left.top, &right.top); }

  llvm::DenseMap<Operation *, Operation *> opsLR, opsRL;
  llvm::DenseMap<Value, Value> valuesRL;
  llvm::DenseMap<Block *, Block *> blocksRL;
  /// Right blocks with symbols matched out of order (a function the pass
  /// moved): the rewrite puts their ops in the left's order.
  std::vector<Block *> moved;

private:
  /// The symbol `op` defines, if any.
  static StringAttr symbolOf(Operation *op) {
    return op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
  }

  /// In a symbol table's body, where order means nothing, matches the
  /// symbols the in-order alignment left over by kind and name, wherever
  /// they are (a function a pass moved is the same function). Whether any
  /// was matched out of order.
  bool matchMovedSymbols(const std::vector<Operation *> &l, const std::vector<Operation *> &r,
                         Block *lList, std::vector<std::pair<uint32_t, uint32_t>> &pairs) {
    Operation *table = lList->getParentOp();
    if (!table || !table->hasTrait<OpTrait::SymbolTable>())
      return false;
    std::vector<bool> lUsed(l.size()), rUsed(r.size());
    for (auto [i, j] : pairs) {
      lUsed[i] = true;
      rUsed[j] = true;
    }
    auto keyOf = [](Operation *op) -> std::optional<std::pair<const void *, const void *>> {
      StringAttr name = symbolOf(op);
      if (!name)
        return std::nullopt;
      return std::make_pair(op->getName().getAsOpaquePointer(), name.getAsOpaquePointer());
    };
    // Symbol names are unique in a table; a text that repeats one (it does
    // not verify) matches nothing here.
    std::map<std::pair<const void *, const void *>, std::optional<uint32_t>> left;
    for (uint32_t i = 0; i < l.size(); ++i)
      if (!lUsed[i])
        if (auto k = keyOf(l[i])) {
          auto [it, inserted] = left.try_emplace(*k, i);
          if (!inserted)
            it->second.reset();
        }
    bool any = false;
    for (uint32_t j = 0; j < r.size(); ++j) {
      if (rUsed[j])
        continue;
      auto k = keyOf(r[j]);
      if (!k)
        continue;
      auto it = left.find(*k);
      if (it == left.end() || !it->second)
        continue;
      pairs.emplace_back(*it->second, j);
      it->second.reset();
      any = true;
    }
    return any;
  }

  static std::vector<Operation *> opsOf(Block &block) {
    std::vector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    return ops;
  }

  /// What an operand is, for the strict key: a value of the aligned list by
  /// the op and result that define it, else the left value it is (a right
  /// value that matches nothing is only itself).
  uint64_t operandKey(Value value, bool isRight, Block *list) {
    if (Operation *def = value.getDefiningOp())
      if (def->getBlock() == list)
        return llvm::hash_combine(
            1, def->getName().getAsOpaquePointer(),
            llvm::cast<OpResult>(value).getResultNumber());
    if (!isRight)
      return llvm::hash_value(value.getAsOpaquePointer());
    auto it = valuesRL.find(value);
    if (it != valuesRL.end())
      return llvm::hash_value(it->second.getAsOpaquePointer());
    return llvm::hash_combine(2, value.getAsOpaquePointer());
  }

  uint64_t resultTypesKey(Operation *op) {
    llvm::hash_code h = llvm::hash_value(op->getNumResults());
    for (Type type : op->getResultTypes())
      h = llvm::hash_combine(h, type.getAsOpaquePointer());
    return h;
  }

  /// The op's key in `tier`, or nullopt when it matches nothing there.
  std::optional<uint64_t> key(Operation *op, Tier tier, bool isRight, Block *list) {
    switch (tier) {
    case Tier::Location:
      if (!hasRealLocation(op, isRight ? right.bufferName : left.bufferName))
        return std::nullopt;
      return llvm::hash_combine(op->getName().getAsOpaquePointer(),
                                op->getLoc().getAsOpaquePointer());
    case Tier::Strict: {
      llvm::hash_code h = llvm::hash_combine(
          op->getName().getAsOpaquePointer(),
          op->getRawDictionaryAttrs().getAsOpaquePointer(), op->hashProperties(),
          resultTypesKey(op), op->getNumRegions(), op->getNumSuccessors());
      for (Value operand : op->getOperands())
        h = llvm::hash_combine(h, operandKey(operand, isRight, list));
      return h;
    }
    case Tier::Loose: {
      llvm::hash_code h = llvm::hash_combine(op->getName().getAsOpaquePointer(),
                                             resultTypesKey(op));
      if (auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
        h = llvm::hash_combine(h, name.getAsOpaquePointer());
      return h;
    }
    case Tier::Results:
      // An op replaced by another of other kind but the same results (a
      // launch_kernel rewritten into executor.launch): its users keep their
      // lines.
      if (op->getNumResults() == 0)
        return std::nullopt;
      return llvm::hash_combine(3, resultTypesKey(op));
    case Tier::Count:
      break;
    }
    return std::nullopt;
  }

  void alignOps(const std::vector<Operation *> &l, const std::vector<Operation *> &r,
                Block *lList, Block *rList) {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    alignRange(l, r, lList, rList, 0, l.size(), 0, r.size(), Tier::Location, pairs);
    if (matchMovedSymbols(l, r, lList, pairs))
      moved.push_back(rList);
    std::sort(pairs.begin(), pairs.end());
    for (auto [i, j] : pairs)
      matchOp(l[i], r[j]);
    for (auto [i, j] : pairs)
      matchRegions(l[i], r[j]);
  }

  /// Aligns l[lLo, lHi) with r[rLo, rHi) in `tier`, then the gaps in the
  /// tiers after it.
  void alignRange(const std::vector<Operation *> &l, const std::vector<Operation *> &r,
                  Block *lList, Block *rList, size_t lLo, size_t lHi, size_t rLo,
                  size_t rHi, Tier tier, std::vector<std::pair<uint32_t, uint32_t>> &out) {
    if (lLo >= lHi || rLo >= rHi || tier == Tier::Count)
      return;
    llvm::DenseMap<uint64_t, uint32_t> ids;
    uint32_t next = 0;
    auto keys = [&](const std::vector<Operation *> &ops, size_t lo, size_t hi, bool isRight,
                    Block *list) {
      std::vector<uint32_t> result;
      result.reserve(hi - lo);
      for (size_t i = lo; i < hi; ++i) {
        std::optional<uint64_t> k = key(ops[i], tier, isRight, list);
        if (!k) {
          result.push_back(next++); // matches nothing
          continue;
        }
        auto [it, inserted] = ids.try_emplace(mapKey(*k), next);
        if (inserted)
          ++next;
        result.push_back(it->second);
      }
      return result;
    };
    std::vector<uint32_t> a = keys(l, lLo, lHi, false, lList);
    std::vector<uint32_t> b = keys(r, rLo, rHi, true, rList);
    std::vector<std::pair<uint32_t, uint32_t>> found =
        matchSequences(std::move(a), std::move(b), next);
    Tier nextTier = static_cast<Tier>(static_cast<int>(tier) + 1);
    size_t li = lLo, ri = rLo;
    for (auto [x, y] : found) {
      alignRange(l, r, lList, rList, li, lLo + x, ri, rLo + y, nextTier, out);
      out.emplace_back(lLo + x, rLo + y);
      li = lLo + x + 1;
      ri = rLo + y + 1;
    }
    alignRange(l, r, lList, rList, li, lHi, ri, rHi, nextTier, out);
  }

  void matchOp(Operation *l, Operation *r) {
    opsLR[l] = r;
    opsRL[r] = l;
    unsigned n = std::min(l->getNumResults(), r->getNumResults());
    for (unsigned i = 0; i < n; ++i)
      if (l->getResult(i).getType() == r->getResult(i).getType() ||
          l->getNumResults() == r->getNumResults())
        valuesRL[r->getResult(i)] = l->getResult(i);
  }

  void matchRegions(Operation *l, Operation *r) {
    unsigned n = std::min(l->getNumRegions(), r->getNumRegions());
    for (unsigned i = 0; i < n; ++i)
      matchRegion(l->getRegion(i), r->getRegion(i));
  }

  void matchRegion(Region &l, Region &r) {
    std::vector<Block *> lb, rb;
    for (Block &b : l)
      lb.push_back(&b);
    for (Block &b : r)
      rb.push_back(&b);
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (lb.size() == rb.size()) {
      for (uint32_t i = 0; i < lb.size(); ++i)
        pairs.emplace_back(i, i);
    } else {
      // Blocks by their arguments' types and their terminator.
      llvm::DenseMap<uint64_t, uint32_t> ids;
      auto keys = [&](const std::vector<Block *> &blocks) {
        std::vector<uint32_t> result;
        for (Block *block : blocks) {
          llvm::hash_code h = llvm::hash_value(block->getNumArguments());
          for (Type type : block->getArgumentTypes())
            h = llvm::hash_combine(h, type.getAsOpaquePointer());
          if (!block->empty())
            h = llvm::hash_combine(h, block->back().getName().getAsOpaquePointer());
          uint32_t id = static_cast<uint32_t>(ids.size());
          result.push_back(ids.try_emplace(mapKey(h), id).first->second);
        }
        return result;
      };
      std::vector<uint32_t> a = keys(lb), b = keys(rb);
      pairs = matchSequences(std::move(a), std::move(b), static_cast<uint32_t>(ids.size()));
    }
    for (auto [i, j] : pairs) {
      Block *lBlock = lb[i], *rBlock = rb[j];
      blocksRL[rBlock] = lBlock;
      unsigned n = std::min(lBlock->getNumArguments(), rBlock->getNumArguments());
      for (unsigned a = 0; a < n; ++a)
        if (lBlock->getArgument(a).getType() == rBlock->getArgument(a).getType())
          valuesRL[rBlock->getArgument(a)] = lBlock->getArgument(a);
    }
    for (auto [i, j] : pairs)
      alignOps(opsOf(*lb[i]), opsOf(*rb[j]), lb[i], rb[j]);
  }

  Side &left, &right;
};

/// The op whose names a value's or block's name must differ from: the
/// closest isolated-from-above op around it (null: the top level).
Operation *nameScope(Operation *parent) {
  while (parent && !parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
    parent = parent->getParentOp();
  return parent;
}

/// A name defined in a text: a result group, a block argument or a block
/// label, with the places it is used.
struct NameUnit {
  const AsmParserState::SMDefinition *definition = nullptr;
  /// Values: the isolated op around; blocks: their region.
  const void *scope = nullptr;
  bool isBlock = false;
  /// Values: the region that defines them (null: the top level). A value's
  /// name is visible in its region and the regions nested in it up to the
  /// next isolated op, so sibling regions may use the same names (the
  /// printer gives both loops of a function `%arg0`).
  Region *region = nullptr;
  std::string name;
  /// The left unit's name it takes, when it matches one.
  std::optional<std::string> wanted;
  /// Whether `name` is not the name the text gives it.
  bool renamed = false;
};

/// Every result group, block argument and block label in `side`'s text.
std::vector<NameUnit> nameUnits(Side &side) {
  std::vector<NameUnit> units;
  for (const AsmParserState::OperationDefinition &def : side.state.getOpDefs())
    for (const auto &group : def.resultGroups) {
      if (!group.definition.loc.isValid())
        continue;
      units.push_back({&group.definition, nameScope(def.op->getParentOp()), false,
                       def.op->getParentRegion(), side.textOf(group.definition.loc).str(),
                       std::nullopt, false});
    }
  for (const AsmParserState::BlockDefinition &def : side.state.getBlockDefs()) {
    for (const auto &arg : def.arguments) {
      if (!arg.loc.isValid())
        continue;
      units.push_back({&arg, nameScope(def.block->getParentOp()), false,
                       def.block->getParent(), side.textOf(arg.loc).str(), std::nullopt,
                       false});
    }
    if (def.definition.loc.isValid())
      units.push_back({&def.definition, def.block->getParent(), true,
                       def.block->getParent(), side.textOf(def.definition.loc).str(),
                       std::nullopt, false});
  }
  return units;
}

/// The result group of `def` that starts at result `start`, and its size.
std::optional<std::pair<const AsmParserState::SMDefinition *, unsigned>>
resultGroup(const AsmParserState::OperationDefinition &def, unsigned start) {
  for (size_t g = 0; g < def.resultGroups.size(); ++g) {
    if (def.resultGroups[g].startIndex != start)
      continue;
    unsigned end = g + 1 < def.resultGroups.size() ? def.resultGroups[g + 1].startIndex
                                                   : def.op->getNumResults();
    return std::make_pair(&def.resultGroups[g].definition, end - start);
  }
  return std::nullopt;
}

/// `%12` -> 12; nullopt for other names.
std::optional<unsigned long> numberOf(llvm::StringRef name) {
  unsigned long n;
  if (name.size() < 2 || name[0] != '%' || name.drop_front().getAsInteger(10, n))
    return std::nullopt;
  return n;
}

/// The names of the left side: by definition, and the names used in each
/// left scope.
struct LeftNames {
  llvm::DenseMap<const AsmParserState::SMDefinition *, llvm::StringRef> byDefinition;
  llvm::DenseMap<const void *, llvm::StringSet<>> byScope;
};

LeftNames leftNamesOf(Side &left) {
  LeftNames names;
  for (const NameUnit &unit : nameUnits(left)) {
    names.byDefinition[unit.definition] = left.textOf(unit.definition->loc);
    names.byScope[unit.scope].insert(unit.name);
  }
  return names;
}

/// Sets each right unit's `wanted` name: the left name of what it matches
/// (an op's result group of the same size, a block's argument or label).
void wantLeftNames(Side &left, Side &right, Matcher &matcher, const LeftNames &names,
                   std::vector<NameUnit> &units) {
  llvm::DenseMap<const AsmParserState::SMDefinition *, size_t> unitOf;
  for (size_t i = 0; i < units.size(); ++i)
    unitOf[units[i].definition] = i;
  auto want = [&](const AsmParserState::SMDefinition *mine,
                  const AsmParserState::SMDefinition *theirs) {
    auto it = unitOf.find(mine);
    auto name = names.byDefinition.find(theirs);
    if (it != unitOf.end() && name != names.byDefinition.end())
      units[it->second].wanted = name->second.str();
  };
  for (const AsmParserState::OperationDefinition &def : right.state.getOpDefs()) {
    auto match = matcher.opsRL.find(def.op);
    if (match == matcher.opsRL.end())
      continue;
    const AsmParserState::OperationDefinition *leftDef = left.state.getOpDef(match->second);
    if (!leftDef)
      continue;
    for (size_t g = 0; g < def.resultGroups.size(); ++g) {
      auto mine = resultGroup(def, def.resultGroups[g].startIndex);
      auto theirs = resultGroup(*leftDef, def.resultGroups[g].startIndex);
      if (!mine || !theirs || mine->second != theirs->second)
        continue;
      Value first = def.op->getResult(def.resultGroups[g].startIndex);
      if (matcher.valuesRL.find(first) == matcher.valuesRL.end())
        continue;
      want(mine->first, theirs->first);
    }
  }
  for (const AsmParserState::BlockDefinition &def : right.state.getBlockDefs()) {
    auto match = matcher.blocksRL.find(def.block);
    if (match == matcher.blocksRL.end())
      continue;
    const AsmParserState::BlockDefinition *leftDef = left.state.getBlockDef(match->second);
    if (!leftDef)
      continue;
    for (size_t a = 0; a < def.arguments.size() && a < leftDef->arguments.size(); ++a) {
      auto mapped = matcher.valuesRL.find(def.block->getArgument(a));
      if (mapped == matcher.valuesRL.end() || mapped->second != match->second->getArgument(a))
        continue;
      want(&def.arguments[a], &leftDef->arguments[a]);
    }
    want(&def.definition, &leftDef->definition);
  }
}

/// The left scope that a right unit's scope matches: null for no scope,
/// `noScope` when its scope matches none.
const void *leftScopeOf(const NameUnit &unit, Matcher &matcher, const void *noScope) {
  if (!unit.scope)
    return nullptr;
  if (unit.isBlock) {
    auto *region = static_cast<Region *>(const_cast<void *>(unit.scope));
    auto op = matcher.opsRL.find(region->getParentOp());
    if (op == matcher.opsRL.end() ||
        op->second->getNumRegions() <= region->getRegionNumber())
      return noScope;
    return &op->second->getRegion(region->getRegionNumber());
  }
  auto op = matcher.opsRL.find(static_cast<Operation *>(const_cast<void *>(unit.scope)));
  return op == matcher.opsRL.end() ? noScope : static_cast<const void *>(op->second);
}

/// The names the right text uses, scoped as the parser scopes them. A
/// value's name clashes with the values defined in its region, in the
/// regions around it and in the regions nested in it, up to isolated ops:
/// sibling regions (two loops of one function, the branches of an scf.if)
/// may reuse names, and do in printed text. A block's label clashes with the
/// labels of its region only.
class UsedNames {
public:
  bool taken(const NameUnit &unit, llvm::StringRef name) const {
    if (unit.isBlock)
      return contains(labels, unit.region, name);
    std::vector<const void *> chain = regionChain(unit.region);
    if (contains(below, chain.front(), name))
      return true;
    for (size_t i = 1; i < chain.size(); ++i)
      if (contains(direct, chain[i], name))
        return true;
    return false;
  }

  void add(const NameUnit &unit, llvm::StringRef name) {
    if (std::optional<unsigned long> n = numberOf(name)) {
      unsigned long &top = highest[unit.scope];
      top = std::max(top, *n + 1);
    }
    if (unit.isBlock) {
      labels[unit.region].insert(name);
      return;
    }
    std::vector<const void *> chain = regionChain(unit.region);
    direct[chain.front()].insert(name);
    for (const void *region : chain)
      below[region].insert(name);
  }

  /// Past the highest `%N` named in `unit`'s isolated scope.
  unsigned long nextNumber(const NameUnit &unit) const {
    auto it = highest.find(unit.scope);
    return it == highest.end() ? 0 : it->second;
  }

private:
  using Sets = llvm::DenseMap<const void *, llvm::StringSet<>>;

  static bool contains(const Sets &sets, const void *key, llvm::StringRef name) {
    auto it = sets.find(key);
    return it != sets.end() && it->second.contains(name);
  }

  /// `region` and the regions around it whose names it sees: up to the
  /// first isolated op, or to the top level (the parsed block, no region).
  static std::vector<const void *> regionChain(Region *region) {
    static const char topLevel = 0;
    std::vector<const void *> chain;
    while (region) {
      chain.push_back(region);
      Operation *op = region->getParentOp();
      if (!op || op->hasTrait<OpTrait::IsIsolatedFromAbove>())
        return chain;
      region = op->getParentRegion();
    }
    chain.push_back(&topLevel);
    return chain;
  }

  Sets direct, below, labels;
  llvm::DenseMap<const void *, unsigned long> highest;
};

/// `unit`'s own name, or where `used` (or the left scope it matches,
/// `theirs`) has it, a fresh one: past the highest number used for a `%N`,
/// else `%foo_1` / `^bb3_1`.
std::string freshName(const NameUnit &unit, const UsedNames &used,
                      const llvm::StringSet<> *theirs) {
  auto taken = [&](llvm::StringRef candidate) {
    return used.taken(unit, candidate) || (theirs && theirs->contains(candidate));
  };
  const std::string &name = unit.name;
  if (!taken(name))
    return name;
  if (numberOf(name)) {
    unsigned long n = used.nextNumber(unit);
    if (theirs)
      for (const auto &entry : *theirs)
        if (std::optional<unsigned long> k = numberOf(entry.getKey()))
          n = std::max(n, *k + 1);
    while (taken("%" + std::to_string(n)))
      ++n;
    return "%" + std::to_string(n);
  }
  for (unsigned k = 1;; ++k) {
    std::string candidate = name + "_" + std::to_string(k);
    if (!taken(candidate))
      return candidate;
  }
}

/// Names `units` of the right side: the matched ones their left names, the
/// others their own or, where that is taken where they are seen (or names
/// something else on the left), a fresh one.
size_t assignNames(Side &left, Side &right, Matcher &matcher, std::vector<NameUnit> &units) {
  LeftNames names = leftNamesOf(left);
  wantLeftNames(left, right, matcher, names, units);

  static const char noScopeObject = 0;
  UsedNames used;
  std::vector<std::optional<std::string>> chosen(units.size());
  // The matched first, so that their names are theirs.
  for (size_t i = 0; i < units.size(); ++i)
    if (units[i].wanted && !used.taken(units[i], *units[i].wanted)) {
      used.add(units[i], *units[i].wanted);
      chosen[i] = *units[i].wanted;
    }
  for (size_t i = 0; i < units.size(); ++i) {
    if (chosen[i])
      continue;
    auto found = names.byScope.find(leftScopeOf(units[i], matcher, &noScopeObject));
    std::string name =
        freshName(units[i], used, found != names.byScope.end() ? &found->second : nullptr);
    used.add(units[i], name);
    chosen[i] = name;
  }

  size_t renamed = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    if (*chosen[i] == units[i].name)
      continue;
    ++renamed;
    units[i].name = *chosen[i];
    units[i].renamed = true;
  }
  return renamed;
}

/// A right block whose ops the rewrite puts in another order: the text
/// [begin, end) becomes its `segments` (one op's lines each) in that order.
struct Reorder {
  size_t begin = 0, end = 0;
  std::vector<std::pair<size_t, size_t>> segments;
};

/// Whether `text` is only blanks.
bool isBlank(llvm::StringRef text) { return text.find_first_not_of(" \t\r\n") == llvm::StringRef::npos; }

/// How `block` of the right side is put in the left's order: its ops
/// matched out of order follow their left counterparts' order, the ops that
/// match nothing stay before the op that followed them. Nullopt when the
/// order stays, or when the text does not have one op per line (only then
/// can its lines move without breaking it).
std::optional<Reorder> reorderOf(const Side &left, const Side &right, Matcher &matcher,
                                 Block *block) {
  auto leftBlock = matcher.blocksRL.find(block);
  Operation *parent = block->getParentOp();
  if (leftBlock == matcher.blocksRL.end() || !parent || block->empty())
    return std::nullopt;
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, size_t> index;
  for (Operation &op : *block) {
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  // Groups: the unmatched ops before the first matched one, then each
  // matched op with the unmatched ones after it; the matched ones' groups
  // in the order of their left counterparts.
  std::vector<size_t> order;
  size_t first = 0;
  while (first < ops.size() && !matcher.opsRL.count(ops[first]))
    order.push_back(first++);
  auto group = [&](size_t r) {
    order.push_back(r);
    for (size_t i = r + 1; i < ops.size() && !matcher.opsRL.count(ops[i]); ++i)
      order.push_back(i);
  };
  std::vector<bool> placed(ops.size());
  for (Operation &lop : *leftBlock->second) {
    auto match = matcher.opsLR.find(&lop);
    if (match == matcher.opsLR.end() || match->second->getBlock() != block)
      continue;
    size_t r = index[match->second];
    if (!placed[r])
      group(r);
    placed[r] = true;
  }
  for (size_t r = first; r < ops.size(); ++r)
    if (matcher.opsRL.count(ops[r]) && !placed[r])
      group(r);
  if (order.size() != ops.size())
    return std::nullopt;
  bool same = true;
  for (size_t i = 0; i < order.size(); ++i)
    same = same && order[i] == i;
  if (same)
    return std::nullopt;

  // Each op from the start of its line to the start of the next op's line;
  // the last to the end of its line, before the parent's closing brace.
  llvm::StringRef text = right.text;
  std::vector<size_t> starts;
  for (Operation *op : ops) {
    const AsmParserState::OperationDefinition *def = right.state.getOpDef(op);
    if (!def || !def->scopeLoc.isValid())
      return std::nullopt;
    size_t at = right.offsetOf(def->scopeLoc.Start);
    size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    if (!isBlank(text.slice(lineStart, at)))
      return std::nullopt;
    starts.push_back(lineStart);
  }
  const AsmParserState::OperationDefinition *lastDef = right.state.getOpDef(ops.back());
  const AsmParserState::OperationDefinition *parentDef = right.state.getOpDef(parent);
  if (!parentDef || !parentDef->scopeLoc.isValid())
    return std::nullopt;
  size_t lastEnd = text.find('\n', right.offsetOf(lastDef->scopeLoc.End));
  size_t parentEnd = right.offsetOf(parentDef->scopeLoc.End);
  if (lastEnd == llvm::StringRef::npos || lastEnd >= parentEnd)
    return std::nullopt;
  ++lastEnd;
  // Only blanks before the parent's closing brace (which a location may
  // follow: `} loc(#loc3)`).
  if (!text.slice(lastEnd, parentEnd).ltrim().starts_with("}"))
    return std::nullopt;
  for (size_t i = 0; i + 1 < ops.size(); ++i)
    if (starts[i + 1] <= right.offsetOf(right.state.getOpDef(ops[i])->scopeLoc.End) ||
        starts[i + 1] <= starts[i])
      return std::nullopt;
  Reorder reorder;
  reorder.begin = starts.front();
  reorder.end = lastEnd;
  for (size_t i : order)
    reorder.segments.emplace_back(starts[i], i + 1 < ops.size() ? starts[i + 1] : lastEnd);
  (void)left;
  return reorder;
}

/// `side`'s text with the renamed units' definitions and uses replaced and
/// the blocks of `reorders` in their new order.
std::string rewrite(const Side &side, const std::vector<NameUnit> &units,
                    std::vector<Reorder> reorders, std::vector<uint32_t> *lineOrigins) {
  struct Edit {
    size_t offset, length;
    const std::string *name;
  };
  std::vector<Edit> edits;
  for (const NameUnit &unit : units) {
    if (!unit.renamed)
      continue;
    auto add = [&](llvm::SMRange range) {
      if (range.isValid())
        edits.push_back({side.offsetOf(range.Start), side.textOf(range).size(), &unit.name});
    };
    add(unit.definition->loc);
    for (llvm::SMRange use : unit.definition->uses)
      add(use);
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit &a, const Edit &b) { return a.offset < b.offset; });
  std::sort(reorders.begin(), reorders.end(),
            [](const Reorder &a, const Reorder &b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(side.text.size() + edits.size() * 4);
  // Where each emitted piece of the text comes from: every piece starts at
  // a line start (the reordered segments are whole lines) and names hold
  // no newline, so each output line shows one line of the text.
  std::vector<std::pair<size_t, size_t>> pieces;
  // The text of [begin, end) with its edits (an edit must lie inside).
  auto renamed = [&](size_t begin, size_t end) {
    if (begin < end)
      pieces.emplace_back(begin, end);
    auto it = std::lower_bound(edits.begin(), edits.end(), begin,
                               [](const Edit &e, size_t at) { return e.offset < at; });
    size_t at = begin;
    for (; it != edits.end() && it->offset + it->length <= end; ++it) {
      if (it->offset < at)
        continue; // one place named twice: keep the first
      out.append(side.text.data() + at, it->offset - at);
      out += *it->name;
      at = it->offset + it->length;
    }
    out.append(side.text.data() + at, end - at);
  };
  // [begin, end) with the reordered blocks inside it in their new order.
  std::function<void(size_t, size_t)> emit = [&](size_t begin, size_t end) {
    size_t at = begin;
    for (const Reorder &reorder : reorders) {
      if (reorder.begin < at || reorder.end > end)
        continue; // outside, or inside one emitted already
      renamed(at, reorder.begin);
      for (auto [segmentBegin, segmentEnd] : reorder.segments)
        emit(segmentBegin, segmentEnd);
      at = reorder.end;
    }
    renamed(at, end);
  };
  emit(0, side.text.size());
  if (lineOrigins && !reorders.empty()) {
    std::vector<size_t> lineStarts{0};
    for (size_t i = 0; i < side.text.size(); ++i)
      if (side.text[i] == '\n')
        lineStarts.push_back(i + 1);
    lineOrigins->clear();
    for (auto [begin, end] : pieces) {
      size_t line = std::upper_bound(lineStarts.begin(), lineStarts.end(), begin) -
                    lineStarts.begin(); // 1-based line of `begin`
      for (; line <= lineStarts.size() && lineStarts[line - 1] < end; ++line)
        lineOrigins->push_back(static_cast<uint32_t>(line));
    }
  }
  return out;
}

} // namespace

llvm::Expected<AlignedSnapshots>
executor_studio::alignSnapshots(MLIRContext &context, llvm::StringRef leftText,
                                llvm::StringRef rightText) {
  Side left, right;
  left.text = leftText;
  left.bufferName = "<structural-diff-left>";
  right.text = rightText;
  right.bufferName = "<structural-diff-right>";
  if (llvm::Error err = parseSide(context, left, "left"))
    return std::move(err);
  if (llvm::Error err = parseSide(context, right, "right"))
    return std::move(err);

  Matcher matcher(left, right);
  matcher.run();
  std::vector<NameUnit> units = nameUnits(right);

  AlignedSnapshots aligned;
  aligned.renamed = assignNames(left, right, matcher, units);
  aligned.left = leftText.str();
  std::vector<Reorder> reorders;
  for (Block *block : matcher.moved)
    if (std::optional<Reorder> reorder = reorderOf(left, right, matcher, block))
      reorders.push_back(std::move(*reorder));
  aligned.moved = reorders.size();
  aligned.right = aligned.renamed || !reorders.empty()
                      ? rewrite(right, units, std::move(reorders), &aligned.rightLineOrigins)
                      : rightText.str();
  aligned.leftOps = left.ops;
  aligned.rightOps = right.ops;
  aligned.matchedOps = matcher.opsRL.size();
  return aligned;
}

llvm::Error executor_studio::parseStepText(MLIRContext &context,
                                           llvm::SourceMgr &sourceMgr,
                                           llvm::StringRef text,
                                           llvm::StringRef bufferName,
                                           Block &top, AsmParserState &state) {
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, bufferName,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  std::string firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty()) {
      llvm::raw_string_ostream os(firstError);
      if (auto fileLoc = llvm::dyn_cast<FileLineColLoc>(diag.getLocation()))
        os << "line " << fileLoc.getLine() << ": ";
      os << diag.str();
    }
    return success();
  });
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  if (failed(parseAsmSourceFile(sourceMgr, &top, config, &state)))
    return llvm::createStringError(firstError.empty() ? std::string("unknown error")
                                                      : firstError);
  return llvm::Error::success();
}
