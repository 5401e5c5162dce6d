//===- ConvertExecutorToLLVM.cpp - executor -> runtime calls ----*- C++ -*-===//
//
// Each executor op becomes a call of its __catalyst__executor__* function,
// declared with the types of Catalyst's runtime/include/ExecutorCAPI.h
// (size_t is the target's pointer width). The reply of an executor.call is
// checked in the generated code: a module-local helper stops the program
// with a message naming the call and its location when call_wrapper fails
// or the reply is not exactly as long as the output buffers.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"
#include "ExecutorStudio/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <functional>

namespace catalyst {
#define GEN_PASS_DEF_CONVERTEXECUTORTOLLVMPASS
#include "ExecutorStudio/Conversion/Passes.h.inc"
} // namespace catalyst

using namespace mlir;
using namespace catalyst;
using namespace catalyst::executor;

namespace {

/// The runtime's C ABI: Catalyst's ExecutorCAPI.h. `Size` is size_t.
enum class Ty { Void, I32, I64, Size, Ptr };
struct RuntimeFunction {
  const char *name;
  Ty result;
  SmallVector<Ty> params;
};
const RuntimeFunction kRuntimeFunctions[] = {
    {"__catalyst__executor__open", Ty::I64, {Ty::Ptr}},
    {"__catalyst__executor__send_binary", Ty::I64, {Ty::I64, Ty::Ptr, Ty::I32}},
    {"__catalyst__executor__launch",
     Ty::Void,
     {Ty::I64, Ty::Ptr, Ty::Ptr, Ty::Size, Ty::Ptr, Ty::Ptr, Ty::Ptr, Ty::Size,
      Ty::Ptr, Ty::Ptr, Ty::Ptr}},
    {"__catalyst__executor__launch_async", Ty::I64, {Ty::I64, Ty::Ptr, Ty::Ptr}},
    {"__catalyst__executor__await", Ty::Void, {Ty::I64}},
    {"__catalyst__executor__call_wrapper",
     Ty::I32,
     {Ty::I64, Ty::Ptr, Ty::Ptr, Ty::Size, Ty::Ptr, Ty::Ptr}},
    {"__catalyst__executor__free_result", Ty::Void, {Ty::Ptr}},
    {"__catalyst__executor__close", Ty::I64, {Ty::I64}},
};

/// Stops the program unless a call's status is 0 and its reply has the
/// expected size: (ptr what, i32 status, size got, size expected) -> ().
constexpr const char *kCheckReplyName = "__executor_check_call_reply";

Type lower(Ty ty, MLIRContext *ctx, const LLVMTypeConverter &converter) {
  switch (ty) {
  case Ty::Void:
    return LLVM::LLVMVoidType::get(ctx);
  case Ty::I32:
    return IntegerType::get(ctx, 32);
  case Ty::I64:
    return IntegerType::get(ctx, 64);
  case Ty::Size:
    return IntegerType::get(ctx, converter.getPointerBitwidth());
  case Ty::Ptr:
    return LLVM::LLVMPointerType::get(ctx);
  }
  llvm_unreachable("unknown runtime type");
}

LLVM::LLVMFunctionType runtimeType(StringRef name,
                                   const LLVMTypeConverter &converter) {
  MLIRContext *ctx = &converter.getContext();
  for (const RuntimeFunction &fn : kRuntimeFunctions) {
    if (name != fn.name)
      continue;
    SmallVector<Type> params;
    for (Ty ty : fn.params)
      params.push_back(lower(ty, ctx, converter));
    return LLVM::LLVMFunctionType::get(lower(fn.result, ctx, converter), params);
  }
  llvm_unreachable("not a runtime function");
}

/// Declares `name` in the module unless it exists.
LLVM::LLVMFuncOp getOrDeclare(ConversionPatternRewriter &rewriter,
                              Operation *op, StringRef name, Type result,
                              ArrayRef<Type> params) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(
      rewriter, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(result, params));
}

/// A pointer to a private constant NUL-terminated global holding `text`;
/// each distinct string is emitted once per module.
Value getString(ConversionPatternRewriter &rewriter, Operation *op,
                StringRef text) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string name =
      llvm::formatv("__executor_str_{0:x16}", llvm::xxh3_64bits(text)).str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), bytes.size());
    global = LLVM::GlobalOp::create(rewriter, module.getLoc(), type,
                                    /*isConstant=*/true,
                                    LLVM::Linkage::Private, name,
                                    rewriter.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(rewriter, op->getLoc(), global);
}

/// `FILE:LINE:COL` of `loc`, if it has a file location.
std::optional<std::string> sourcePlace(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  if (!file)
    return std::nullopt;
  return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                       file.getLine(), file.getColumn())
      .str();
}

/// The program's `const char *__executor_studio_call_site`: before each
/// launch and await the generated code stores the op's .mlir place there
/// (launch_async and close lower exactly as in Catalyst's tests), and the runtime names it when that call fails (CAPI.cpp; a weak
/// definition of the program's, which the runtime reads only when it is
/// there: the C ABI's functions keep their signatures).
constexpr llvm::StringLiteral kCallSiteName = "__executor_studio_call_site";

void markCallSite(ConversionPatternRewriter &rewriter, Operation *op) {
  std::optional<std::string> place = sourcePlace(op->getLoc());
  if (!place)
    return;
  auto module = op->getParentOfType<ModuleOp>();
  auto ptr = LLVM::LLVMPointerType::get(op->getContext());
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kCallSiteName);
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(rewriter, module.getLoc(), ptr,
                                    /*isConstant=*/false, LLVM::Linkage::Weak,
                                    kCallSiteName, Attribute());
    rewriter.createBlock(&global.getInitializerRegion());
    Value none = LLVM::ZeroOp::create(rewriter, module.getLoc(), ptr);
    LLVM::ReturnOp::create(rewriter, module.getLoc(), none);
  }
  Value text = getString(rewriter, op, *place);
  Value slot = LLVM::AddressOfOp::create(rewriter, op->getLoc(), global);
  LLVM::StoreOp::create(rewriter, op->getLoc(), text, slot);
}

Value constI64(ConversionPatternRewriter &rewriter, Location loc,
               int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                  rewriter.getI64IntegerAttr(value));
}

/// An alloca of `count` x `type` at the start of the enclosing function, so
/// launches in loops do not grow the stack.
Value entryAlloca(ConversionPatternRewriter &rewriter, Operation *op,
                  Type type, int64_t count) {
  OpBuilder::InsertionGuard guard(rewriter);
  auto func = op->getParentOfType<FunctionOpInterface>();
  rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
  Value n = constI64(rewriter, op->getLoc(), count);
  return LLVM::AllocaOp::create(
      rewriter, op->getLoc(), LLVM::LLVMPointerType::get(op->getContext()),
      type, n);
}

/// Bytes per element of `type`, or 0 when it has no fixed size.
int64_t elementSize(Type type, const LLVMTypeConverter &converter) {
  if (type.isIndex())
    return converter.getIndexTypeBitwidth() / 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementSize(complex.getElementType(), converter);
  return 0;
}

/// The rank of a scalar input or output of __catalyst__executor__launch:
/// EXECUTOR_SCALAR_RANK, (size_t)-1, in the target's size_t.
constexpr int64_t kScalarRank = -1;

template <typename OpT>
struct ExecutorPattern : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;
  /// Declares the runtime function `name` with its C ABI type.
  LLVM::LLVMFuncOp runtime(ConversionPatternRewriter &rewriter, Operation *op,
                           StringRef name) const {
    auto type = runtimeType(name, *this->getTypeConverter());
    return getOrDeclare(rewriter, op, name, type.getReturnType(),
                        type.getParams());
  }
  Type sizeType() const {
    return IntegerType::get(&this->getTypeConverter()->getContext(),
                            this->getTypeConverter()->getPointerBitwidth());
  }
  Value constSize(ConversionPatternRewriter &rewriter, Location loc,
                  int64_t value) const {
    return LLVM::ConstantOp::create(rewriter, loc, sizeType(),
                                    rewriter.getIntegerAttr(sizeType(), value));
  }
  Type ptrType() const {
    return LLVM::LLVMPointerType::get(&this->getTypeConverter()->getContext());
  }
  Type i64() const {
    return IntegerType::get(&this->getTypeConverter()->getContext(), 64);
  }
  Type i32() const {
    return IntegerType::get(&this->getTypeConverter()->getContext(), 32);
  }
  Type voidType() const {
    return LLVM::LLVMVoidType::get(&this->getTypeConverter()->getContext());
  }
};

/// An op that lowers to one call of the runtime function `function`, with
/// the arguments `arguments` builds (the op's converted operands without
/// it); the op's result is the call's, and an op without results drops the
/// call's (`int64_t close(int64_t)`'s 0). `marksCallSite`: a failure the
/// call reports names the op's place (markCallSite).
template <typename OpT>
struct RuntimeCallLowering : public ExecutorPattern<OpT> {
  using Adaptor = typename OpT::Adaptor;
  using Arguments = std::function<SmallVector<Value>(
      OpT, Adaptor, ConversionPatternRewriter &)>;
  RuntimeCallLowering(const LLVMTypeConverter &converter, StringRef function,
                      Arguments arguments = nullptr, bool marksCallSite = false)
      : ExecutorPattern<OpT>(converter), function(function.str()),
        arguments(std::move(arguments)), marksCallSite(marksCallSite) {}
  LogicalResult
  matchAndRewrite(OpT op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fn = this->runtime(rewriter, op, function);
    SmallVector<Value> values = arguments ? arguments(op, adaptor, rewriter)
                                          : SmallVector<Value>(
                                                adaptor.getOperands());
    if (marksCallSite)
      markCallSite(rewriter, op);
    auto call = LLVM::CallOp::create(rewriter, op.getLoc(), fn, values);
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, call.getResults());
    return success();
  }
  std::string function;
  Arguments arguments;
  bool marksCallSite;
};

struct LaunchLowering : public ExecutorPattern<LaunchOp> {
  using ExecutorPattern::ExecutorPattern;

  /// Fills arrays of descriptor pointers, ranks and element sizes for
  /// `types`, storing `descriptors[i]` into its slot when given. A scalar's
  /// slot holds its value; its rank is EXECUTOR_SCALAR_RANK ((size_t)-1,
  /// ExecutorRuntime/CAPI.h) and its element size its byte size.
  LogicalResult packDescriptors(LaunchOp op, TypeRange types,
                                ValueRange descriptors,
                                ConversionPatternRewriter &rewriter,
                                Value &pointers, Value &ranks, Value &sizes,
                                SmallVectorImpl<Value> &slots) const {
    Location loc = op.getLoc();
    int64_t n = types.size();
    auto ptrArray = LLVM::LLVMArrayType::get(ptrType(), std::max<int64_t>(n, 1));
    auto sizeArray =
        LLVM::LLVMArrayType::get(sizeType(), std::max<int64_t>(n, 1));
    pointers = entryAlloca(rewriter, op, ptrArray, 1);
    ranks = entryAlloca(rewriter, op, sizeArray, 1);
    sizes = entryAlloca(rewriter, op, sizeArray, 1);
    for (auto [i, type] : llvm::enumerate(types)) {
      auto memref = dyn_cast<MemRefType>(type);
      // A scalar: the slot holds the value itself.
      int64_t rank = memref ? memref.getRank() : kScalarRank;
      int64_t eltSize = elementSize(
          memref ? memref.getElementType() : type, *getTypeConverter());
      if (eltSize == 0)
        return rewriter.notifyMatchFailure(op, "element type has no size");
      Type descType = getTypeConverter()->convertType(type);
      Value slot = entryAlloca(rewriter, op, descType, 1);
      if (!descriptors.empty())
        LLVM::StoreOp::create(rewriter, loc, descriptors[i], slot);
      slots.push_back(slot);
      int32_t index = static_cast<int32_t>(i);
      auto at = [&](Value base, Type elt) {
        return LLVM::GEPOp::create(rewriter, loc, ptrType(), elt, base,
                                   ArrayRef<LLVM::GEPArg>{index});
      };
      LLVM::StoreOp::create(rewriter, loc, slot, at(pointers, ptrType()));
      LLVM::StoreOp::create(rewriter, loc,
                            constSize(rewriter, loc, rank),
                            at(ranks, sizeType()));
      LLVM::StoreOp::create(rewriter, loc, constSize(rewriter, loc, eltSize),
                            at(sizes, sizeType()));
    }
    return success();
  }

  LogicalResult
  matchAndRewrite(LaunchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value inPtrs, inRanks, inSizes, outPtrs, outRanks, outSizes;
    SmallVector<Value> inSlots, outSlots;
    // checkConvertible made sure every element type has a size.
    if (failed(packDescriptors(op, op.getInputs().getTypes(),
                               adaptor.getInputs(), rewriter, inPtrs, inRanks,
                               inSizes, inSlots)) ||
        failed(packDescriptors(op, op.getResultTypes(), {}, rewriter, outPtrs,
                               outRanks, outSizes, outSlots)))
      return failure();
    auto fn = runtime(rewriter, op, "__catalyst__executor__launch");
    Value entry = getString(
        rewriter, op, ("_catalyst_pyface_" + op.getKernelCallee()).str());
    Value object = getString(rewriter, op, op.getObject());
    markCallSite(rewriter, op);
    LLVM::CallOp::create(
        rewriter, loc, fn,
        ValueRange{adaptor.getSession(), entry, object,
                   constSize(rewriter, loc, op.getInputs().size()), inPtrs,
                   inRanks, inSizes,
                   constSize(rewriter, loc, op.getNumResults()), outPtrs,
                   outRanks, outSizes});
    SmallVector<Value> results;
    for (auto [slot, type] : llvm::zip_equal(outSlots, op.getResultTypes()))
      results.push_back(LLVM::LoadOp::create(
          rewriter, loc, getTypeConverter()->convertType(type), slot));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct CallLowering : public ExecutorPattern<CallOp> {
  using ExecutorPattern::ExecutorPattern;

  /// `value` (i64) as a size_t.
  Value toSize(ConversionPatternRewriter &rewriter, Location loc,
               Value value) const {
    unsigned width = getTypeConverter()->getPointerBitwidth();
    if (width == 64)
      return value;
    if (width < 64)
      return LLVM::TruncOp::create(rewriter, loc, sizeType(), value);
    return LLVM::ZExtOp::create(rewriter, loc, sizeType(), value);
  }

  /// `executor.call("symbol") at FILE:LINE:COL`, for the error message.
  static std::string describeCall(CallOp op) {
    std::string text = ("executor.call(\"" + op.getSymbol() + "\")").str();
    if (std::optional<std::string> place = sourcePlace(op.getLoc()))
      text += " at " + *place;
    return text;
  }

  /// The first byte of `memref`'s data and its size in bytes.
  std::pair<Value, Value> dataAndBytes(Location loc, MemRefType type,
                                       Value descriptor,
                                       ConversionPatternRewriter &rewriter) const {
    MemRefDescriptor desc(descriptor);
    Type eltType = getTypeConverter()->convertType(type.getElementType());
    Value data = LLVM::GEPOp::create(rewriter, loc, ptrType(), eltType,
                                     desc.alignedPtr(rewriter, loc),
                                     ValueRange{desc.offset(rewriter, loc)});
    Value bytes = constI64(
        rewriter, loc, elementSize(type.getElementType(), *getTypeConverter()));
    for (int64_t d = 0; d < type.getRank(); ++d)
      bytes = LLVM::MulOp::create(rewriter, loc, bytes,
                                  desc.size(rewriter, loc, d));
    return {data, bytes};
  }

  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // checkConvertible made sure the call is bufferized, with identity
    // layouts and sized element types.
    Location loc = op.getLoc();
    unsigned numInputs = op.getNumInputs();
    SmallVector<std::pair<Value, Value>> inputs, outputs;
    for (auto [i, value] : llvm::enumerate(adaptor.getInputs())) {
      auto type = cast<MemRefType>(op.getInputs()[i].getType());
      (i < numInputs ? inputs : outputs)
          .push_back(dataAndBytes(loc, type, value, rewriter));
    }
    // Pack the inputs contiguously.
    Value total = constI64(rewriter, loc, 0);
    for (auto &[data, bytes] : inputs)
      total = LLVM::AddOp::create(rewriter, loc, total, bytes);
    Value expected = constI64(rewriter, loc, 0);
    for (auto &[data, bytes] : outputs)
      expected = LLVM::AddOp::create(rewriter, loc, expected, bytes);
    auto mallocFn =
        getOrDeclare(rewriter, op, "malloc", ptrType(), {i64()});
    auto freeFn = getOrDeclare(rewriter, op, "free", voidType(), {ptrType()});
    // malloc(0) may return null; ask for at least one byte.
    Value one = constI64(rewriter, loc, 1);
    Value allocBytes = LLVM::AddOp::create(rewriter, loc, total, one);
    Value packed = LLVM::CallOp::create(rewriter, loc, mallocFn,
                                        ValueRange{allocBytes})
                       .getResult();
    Value offset = constI64(rewriter, loc, 0);
    for (auto &[data, bytes] : inputs) {
      Value dst = LLVM::GEPOp::create(rewriter, loc, ptrType(),
                                      rewriter.getI8Type(), packed,
                                      ValueRange{offset});
      LLVM::MemcpyOp::create(rewriter, loc, dst, data, bytes, false);
      offset = LLVM::AddOp::create(rewriter, loc, offset, bytes);
    }
    Value replySlot = entryAlloca(rewriter, op, ptrType(), 1);
    Value sizeSlot = entryAlloca(rewriter, op, sizeType(), 1);
    auto callFn = runtime(rewriter, op, "__catalyst__executor__call_wrapper");
    Value symbol = getString(rewriter, op, op.getSymbol());
    Value status =
        LLVM::CallOp::create(rewriter, loc, callFn,
                             ValueRange{adaptor.getSession(), symbol, packed,
                                        toSize(rewriter, loc, total),
                                        replySlot, sizeSlot})
            .getResult();
    LLVM::CallOp::create(rewriter, loc, freeFn, ValueRange{packed});
    // The reply must be the outputs, exactly.
    Value got = LLVM::LoadOp::create(rewriter, loc, sizeType(), sizeSlot);
    auto checkFn = getOrDeclare(rewriter, op, kCheckReplyName, voidType(),
                                {ptrType(), i32(), sizeType(), sizeType()});
    Value what = getString(rewriter, op, describeCall(op));
    LLVM::CallOp::create(
        rewriter, loc, checkFn,
        ValueRange{what, status, got, toSize(rewriter, loc, expected)});
    // Slice the outputs from the reply, in order.
    Value reply = LLVM::LoadOp::create(rewriter, loc, ptrType(), replySlot);
    offset = constI64(rewriter, loc, 0);
    for (auto &[data, bytes] : outputs) {
      Value src = LLVM::GEPOp::create(rewriter, loc, ptrType(),
                                      rewriter.getI8Type(), reply,
                                      ValueRange{offset});
      LLVM::MemcpyOp::create(rewriter, loc, data, src, bytes, false);
      offset = LLVM::AddOp::create(rewriter, loc, offset, bytes);
    }
    auto freeResult = runtime(rewriter, op, "__catalyst__executor__free_result");
    LLVM::CallOp::create(rewriter, loc, freeResult, ValueRange{reply});
    rewriter.eraseOp(op);
    return success();
  }
};

/// The ops that are one call of the runtime (RuntimeCallLowering).
void populateRuntimeCallPatterns(const LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns) {
  using Rewriter = ConversionPatternRewriter;
  patterns.add<RuntimeCallLowering<OpenOp>>(
      converter, "__catalyst__executor__open",
      [](OpenOp op, OpenOp::Adaptor, Rewriter &rewriter) -> SmallVector<Value> {
        return {getString(rewriter, op, op.getAddress())};
      });
  patterns.add<RuntimeCallLowering<SendBinaryOp>>(
      converter, "__catalyst__executor__send_binary",
      [](SendBinaryOp op, SendBinaryOp::Adaptor adaptor,
         Rewriter &rewriter) -> SmallVector<Value> {
        Value path = getString(rewriter, op, op.getBinaryPath());
        Value format = LLVM::ConstantOp::create(
            rewriter, op.getLoc(), rewriter.getI32Type(),
            rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getFormat())));
        return {adaptor.getSession(), path, format};
      });
  patterns.add<RuntimeCallLowering<LaunchAsyncOp>>(
      converter, "__catalyst__executor__launch_async",
      [](LaunchAsyncOp op, LaunchAsyncOp::Adaptor adaptor,
         Rewriter &rewriter) -> SmallVector<Value> {
        Value entry = getString(
            rewriter, op, ("_catalyst_pyface_" + op.getKernelCallee()).str());
        Value object = getString(rewriter, op, op.getObject());
        return {adaptor.getSession(), entry, object};
      });
  // An await reports its launch's failure.
  patterns.add<RuntimeCallLowering<AwaitOp>>(
      converter, "__catalyst__executor__await", nullptr, /*marksCallSite=*/true);
  patterns.add<RuntimeCallLowering<CloseOp>>(converter,
                                             "__catalyst__executor__close");
}

/// Gives kCheckReplyName (declared by CallLowering) its body:
///
///   if (status != 0) { fflush(NULL); dprintf(2, "...", what, status); exit(1); }
///   if (got != expected) { fflush(NULL); dprintf(2, "...", what, got, expected); exit(1); }
///
/// It only needs libc, so the program runs with any implementation of the
/// C ABI, Catalyst's included.
void defineCheckReply(ModuleOp module) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kCheckReplyName);
  if (!fn || !fn.isExternal())
    return;
  MLIRContext *ctx = module.getContext();
  Location loc = fn.getLoc();
  OpBuilder b(ctx);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32);
  Type voidType = LLVM::LLVMVoidType::get(ctx);
  auto declare = [&](StringRef name, Type result, ArrayRef<Type> params,
                     bool varArg = false) {
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    return LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(result, params, varArg));
  };
  auto fflushFn = declare("fflush", i32, {ptr});
  auto dprintfFn = declare("dprintf", i32, {i32, ptr}, /*varArg=*/true);
  auto exitFn = declare("exit", voidType, {i32});
  auto string = [&](StringRef text) -> Value {
    std::string name =
        llvm::formatv("__executor_str_{0:x16}", llvm::xxh3_64bits(text)).str();
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      std::string bytes = text.str();
      bytes.push_back('\0');
      global = LLVM::GlobalOp::create(
          b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, name,
          b.getStringAttr(bytes));
    }
    return LLVM::AddressOfOp::create(b, loc, global);
  };

  fn.setLinkage(LLVM::Linkage::Internal);
  Block *entry = fn.addEntryBlock(b);
  Region &body = fn.getBody();
  Block *checkSize = new Block(), *done = new Block(), *badStatus = new Block(),
        *badSize = new Block();
  body.push_back(checkSize);
  body.push_back(done);
  body.push_back(badStatus);
  body.push_back(badSize);
  Value what = entry->getArgument(0), status = entry->getArgument(1),
        got = entry->getArgument(2), expected = entry->getArgument(3);

  b.setInsertionPointToEnd(entry);
  Value zero = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
  Value statusOk =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, status, zero);
  LLVM::CondBrOp::create(b, loc, statusOk, checkSize, badStatus);

  b.setInsertionPointToEnd(checkSize);
  Value sizeOk =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, got, expected);
  LLVM::CondBrOp::create(b, loc, sizeOk, done, badSize);

  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});

  auto fail = [&](Block *block, StringRef format, ValueRange values) {
    b.setInsertionPointToEnd(block);
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    LLVM::CallOp::create(b, loc, fflushFn, ValueRange{null});
    SmallVector<Value> args{
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(2)),
        string(format), what};
    llvm::append_range(args, values);
    LLVM::CallOp::create(b, loc, dprintfFn, args);
    Value one = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
    LLVM::CallOp::create(b, loc, exitFn, ValueRange{one});
    LLVM::UnreachableOp::create(b, loc);
  };
  fail(badStatus,
       "executor runtime error: %s: __catalyst__executor__call_wrapper "
       "returned %d\n",
       ValueRange{status});
  // %zu: size_t, whatever its width.
  fail(badSize,
       "executor runtime error: %s: the reply has %zu bytes but the output "
       "buffers take %zu; the function must reply with exactly its declared "
       "result and out buffers, in order\n",
       ValueRange{got, expected});
}

struct ConvertExecutorToLLVMPass
    : public catalyst::impl::ConvertExecutorToLLVMPassBase<ConvertExecutorToLLVMPass> {
  /// A runtime function the module declares already must have the C ABI's
  /// type, or the calls would not link (or would link and misbehave).
  /// Modules without executor ops are left alone.
  LogicalResult checkDeclarations(const LLVMTypeConverter &converter) {
    ModuleOp module = getOperation();
    bool lowersAnything = module
                              ->walk([](Operation *op) {
                                return isa<ExecutorDialect>(op->getDialect())
                                           ? WalkResult::interrupt()
                                           : WalkResult::advance();
                              })
                              .wasInterrupted();
    if (!lowersAnything)
      return success();
    for (const RuntimeFunction &fn : kRuntimeFunctions) {
      Operation *symbol = module.lookupSymbol(fn.name);
      if (!symbol)
        continue;
      auto expected = runtimeType(fn.name, converter);
      auto llvmFn = dyn_cast<LLVM::LLVMFuncOp>(symbol);
      if (llvmFn && llvmFn.getFunctionType() == expected)
        continue;
      InFlightDiagnostic diag = symbol->emitError()
                                << "'" << fn.name << "' is declared ";
      if (llvmFn)
        diag << "with type " << llvmFn.getFunctionType();
      else
        diag << "as a '" << symbol->getName() << "'";
      diag << ", but the executor runtime's C ABI (Catalyst's "
              "ExecutorCAPI.h) gives it the type "
           << expected << "; remove the declaration or fix its type";
      return failure();
    }
    return success();
  }

  /// Explains up front what the patterns cannot lower (the conversion
  /// framework would only say "failed to legalize").
  LogicalResult checkConvertible(const LLVMTypeConverter &converter) {
    // (A launch's scalars have sizes: the op's verifier took them.)
    auto sized = [&](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return !memref || elementSize(memref.getElementType(), converter) != 0;
    };
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (auto launch = dyn_cast<LaunchOp>(op)) {
        for (Type type : llvm::concat<Type>(llvm::to_vector(launch.getInputs().getTypes()),
                                            llvm::to_vector(launch.getResultTypes())))
          if (!sized(type)) {
            launch.emitOpError("has a memref of type ")
                << type << " whose element type has no fixed size; launches "
                           "move ints, floats, index and complex values";
            return WalkResult::interrupt();
          }
      }
      auto call = dyn_cast<CallOp>(op);
      if (!call)
        return WalkResult::advance();
      if (call.getNumResults() != 0 ||
          llvm::any_of(call.getInputs().getTypes(), llvm::IsaPred<TensorType>)) {
        call.emitOpError("still takes or returns tensors; run "
                         "one-shot-bufferize before convert-executor-to-llvm "
                         "so it takes memrefs and its output buffers as "
                         "operands");
        return WalkResult::interrupt();
      }
      for (Type type : call.getInputs().getTypes()) {
        auto memref = cast<MemRefType>(type);
        if (!memref.getLayout().isIdentity()) {
          call.emitOpError("operand of type ")
              << type << " must be a memref with the identity layout: its "
                         "bytes are copied as one block";
          return WalkResult::interrupt();
        }
        if (!sized(type)) {
          call.emitOpError("operand of type ")
              << type << " has an element type without a fixed size";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  void runOnOperation() override {
    // The conversion framework gives up on tensor operands before a pattern
    // can explain; say what to do first.
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    if (failed(checkConvertible(converter)) ||
        failed(checkDeclarations(converter)))
      return signalPassFailure();
    converter.addConversion(
        [](SessionType type) { return IntegerType::get(type.getContext(), 64); });
    converter.addConversion(
        [](TokenType type) { return IntegerType::get(type.getContext(), 64); });
    RewritePatternSet patterns(ctx);
    patterns.add<LaunchLowering, CallLowering>(converter);
    populateRuntimeCallPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addIllegalDialect<ExecutorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    defineCheckReply(getOperation());
  }
};
} // namespace
