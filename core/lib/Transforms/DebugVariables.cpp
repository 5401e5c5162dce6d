//===- DebugVariables.cpp - debug variables for kernel arguments ----------===//
#include "DebugVariables.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/BinaryFormat/Dwarf.h"

using namespace mlir;

namespace catalyst {
namespace {

/// The DWARF type of a scalar (an element of a memref, or an argument):
/// named as in MLIR (`f64`, `i32`, `index`); nullptr for other types.
LLVM::DITypeAttr scalarType(Type type) {
  MLIRContext *ctx = type.getContext();
  auto basic = [&](StringRef name, unsigned bits, unsigned encoding) {
    return LLVM::DIBasicTypeAttr::get(ctx, llvm::dwarf::DW_TAG_base_type,
                                      name, llvm::alignTo(bits, 8), encoding);
  };
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  if (isa<IndexType>(type))
    return basic(name, 64, llvm::dwarf::DW_ATE_signed);
  if (auto f = dyn_cast<FloatType>(type))
    return basic(name, f.getWidth(), llvm::dwarf::DW_ATE_float);
  if (auto i = dyn_cast<IntegerType>(type))
    return basic(name, i.getWidth(),
                 i.getWidth() == 1 ? llvm::dwarf::DW_ATE_boolean
                 : i.isUnsigned()  ? llvm::dwarf::DW_ATE_unsigned
                                   : llvm::dwarf::DW_ATE_signed);
  return nullptr;
}

LLVM::DIDerivedTypeAttr member(MLIRContext *ctx, StringRef name,
                               LLVM::DITypeAttr type, uint64_t bits,
                               uint64_t offset) {
  return LLVM::DIDerivedTypeAttr::get(
      ctx, llvm::dwarf::DW_TAG_member, StringAttr::get(ctx, name), type, bits,
      /*alignInBits=*/0, offset, /*dwarfAddressSpace=*/std::nullopt,
      /*extraData=*/nullptr);
}

/// `struct memref<4xf64> { f64 *allocated, *aligned; index offset;
/// index sizes[1], strides[1]; }`: the descriptor as it is passed.
LLVM::DITypeAttr descriptorType(MemRefType type, LLVM::DIFileAttr file,
                                unsigned line) {
  MLIRContext *ctx = type.getContext();
  auto index = scalarType(IndexType::get(ctx));
  auto pointer = LLVM::DIDerivedTypeAttr::get(
      ctx, llvm::dwarf::DW_TAG_pointer_type, /*name=*/nullptr,
      scalarType(type.getElementType()), 64, /*alignInBits=*/0,
      /*offsetInBits=*/0, std::nullopt, nullptr);
  SmallVector<LLVM::DINodeAttr> members = {member(ctx, "allocated", pointer, 64, 0),
                                           member(ctx, "aligned", pointer, 64, 64),
                                           member(ctx, "offset", index, 64, 128)};
  int64_t rank = type.getRank();
  if (rank > 0) {
    auto range = LLVM::DISubrangeAttr::get(
        ctx, IntegerAttr::get(IntegerType::get(ctx, 64), rank), nullptr,
        nullptr, nullptr);
    auto array = LLVM::DICompositeTypeAttr::get(
        ctx, llvm::dwarf::DW_TAG_array_type, /*name=*/nullptr, nullptr, 0,
        nullptr, index, LLVM::DIFlags::Zero, 64 * rank, 0, nullptr, nullptr,
        nullptr, nullptr, {range});
    members.push_back(member(ctx, "sizes", array, 64 * rank, 192));
    members.push_back(member(ctx, "strides", array, 64 * rank, 192 + 64 * rank));
  }
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return LLVM::DICompositeTypeAttr::get(
      ctx, llvm::dwarf::DW_TAG_structure_type, StringAttr::get(ctx, name),
      file, line, /*scope=*/nullptr, /*baseType=*/nullptr,
      LLVM::DIFlags::Zero, 64 * (3 + 2 * rank), 0, nullptr, nullptr, nullptr,
      nullptr, members);
}

/// How many arguments of the lowered function `type` becomes (0: none we
/// describe).
unsigned expandedCount(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return 3 + 2 * memref.getRank();
  return scalarType(type) ? 1 : 0;
}

/// Whether the lowered argument `value` can be piece `piece` of `type`'s
/// expansion.
bool matchesPiece(Type type, unsigned piece, Value value) {
  Type lowered = value.getType();
  if (isa<MemRefType>(type))
    return piece < 2 ? isa<LLVM::LLVMPointerType>(lowered)
                     : lowered.isInteger(64);
  if (isa<IndexType>(type))
    return lowered.isInteger(64);
  return lowered == type ||
         (isa<IntegerType>(type) && lowered.isInteger(type.getIntOrFloatBitWidth()));
}

unsigned lineOf(Location loc, unsigned fallback) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return file.getLine();
  return fallback;
}

void describeArguments(LLVM::LLVMFuncOp fn, ArrayRef<ArgumentInfo> arguments,
                       bool inMemory) {
  if (fn.isExternal())
    return;
  auto scope = fn.getLoc()->findInstanceOf<FusedLocWith<LLVM::DISubprogramAttr>>();
  if (!scope)
    return;
  LLVM::DISubprogramAttr subprogram = scope.getMetadata();
  Block &entry = fn.getBody().front();
  unsigned total = 0;
  for (const ArgumentInfo &arg : arguments) {
    unsigned count = expandedCount(arg.type);
    if (count == 0)
      return;
    total += count;
  }
  if (total != entry.getNumArguments())
    return;
  unsigned next = 0;
  for (const ArgumentInfo &arg : arguments)
    for (unsigned piece = 0, e = expandedCount(arg.type); piece < e; ++piece)
      if (!matchesPiece(arg.type, piece, entry.getArgument(next++)))
        return;

  MLIRContext *ctx = fn.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&entry);
  next = 0;
  for (auto [i, arg] : llvm::enumerate(arguments)) {
    unsigned line = lineOf(arg.loc, subprogram.getLine());
    auto memref = dyn_cast<MemRefType>(arg.type);
    LLVM::DITypeAttr type = memref
                                ? descriptorType(memref, subprogram.getFile(), line)
                                : scalarType(arg.type);
    auto variable = LLVM::DILocalVariableAttr::get(
        ctx, subprogram, StringAttr::get(ctx, arg.name), subprogram.getFile(),
        line, /*arg=*/i + 1, /*alignInBits=*/0, type, LLVM::DIFlags::Zero);
    // The value's location: the argument in the source, in the function's
    // scope (the translation gives every op of the function its subprogram).
    Location loc = arg.loc->findInstanceOf<FileLineColLoc>()
                       ? Location(arg.loc->findInstanceOf<FileLineColLoc>())
                       : fn.getLoc();
    unsigned count = expandedCount(arg.type);
    if (inMemory) {
      // -O0: LLVM's fast instruction selection keeps no location for an
      // argument's value; a copy in the frame (as clang makes at -O0) with
      // llvm.dbg.declare stays valid through the whole function.
      // The copy is the prologue's, as clang's is: no line of its own, so
      // that the line table's prologue_end (where gdb and lldb put a
      // breakpoint on the function) comes after it, when the arguments are
      // in place, not before it.
      Location prologue = UnknownLoc::get(ctx);
      auto ptrType = LLVM::LLVMPointerType::get(ctx);
      auto i64 = IntegerType::get(ctx, 64);
      Type slots = memref ? Type(LLVM::LLVMArrayType::get(i64, count))
                          : entry.getArgument(next).getType();
      Value one = LLVM::ConstantOp::create(b, prologue, i64, int64_t(1));
      Value frame = LLVM::AllocaOp::create(b, prologue, ptrType, slots, one, 8);
      for (unsigned piece = 0; piece < count; ++piece) {
        Value at = frame;
        if (memref)
          at = LLVM::GEPOp::create(b, prologue, ptrType, i64, frame,
                                   ArrayRef<LLVM::GEPArg>{int32_t(piece)});
        LLVM::StoreOp::create(b, prologue, entry.getArgument(next++), at);
      }
      LLVM::DbgDeclareOp::create(b, loc, frame, variable,
                                 LLVM::DIExpressionAttr::get(ctx));
      continue;
    }
    if (!memref) {
      LLVM::DbgValueOp::create(b, loc, entry.getArgument(next++), variable,
                               LLVM::DIExpressionAttr::get(ctx));
      continue;
    }
    for (unsigned piece = 0; piece < count; ++piece) {
      auto fragment = LLVM::DIExpressionElemAttr::get(
          ctx, llvm::dwarf::DW_OP_LLVM_fragment, {64ull * piece, 64ull});
      LLVM::DbgValueOp::create(b, loc, entry.getArgument(next++), variable,
                               LLVM::DIExpressionAttr::get(ctx, {fragment}));
    }
  }
}
} // namespace

std::string writtenArgumentName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string name = writtenArgumentName(inner); !name.empty())
        return name;
  return "";
}

FunctionArguments collectFunctionArguments(ModuleOp module) {
  FunctionArguments result;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    SmallVector<ArgumentInfo> &args = result[func.getSymName()];
    for (BlockArgument arg : func.getArguments()) {
      std::string name = writtenArgumentName(arg.getLoc());
      if (name.empty())
        name = "arg" + std::to_string(arg.getArgNumber());
      args.push_back({std::move(name), arg.getType(), arg.getLoc()});
    }
  }
  return result;
}

void addArgumentVariables(ModuleOp module, const FunctionArguments &arguments,
                          bool inMemory) {
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
    auto it = arguments.find(fn.getSymName());
    if (it != arguments.end())
      describeArguments(fn, it->second, inMemory);
  }
}
} // namespace catalyst
