//===- ConvertExecutorToLLVM.cpp - executor -> runtime calls ----*- C++ -*-===//
#include "Executor/IR/ExecutorOps.h"
#include "Transforms/Passes.h"

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

namespace catalyst {
#define GEN_PASS_DEF_CONVERTEXECUTORTOLLVMPASS
#include "Transforms/Passes.h.inc"
} // namespace catalyst

using namespace mlir;
using namespace catalyst;
using namespace catalyst::executor;

namespace {

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

template <typename OpT>
struct ExecutorPattern : public ConvertOpToLLVMPattern<OpT> {
  using ConvertOpToLLVMPattern<OpT>::ConvertOpToLLVMPattern;
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

struct OpenLowering : public ExecutorPattern<OpenOp> {
  using ExecutorPattern::ExecutorPattern;
  LogicalResult
  matchAndRewrite(OpenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fn = getOrDeclare(rewriter, op, "__catalyst__executor__open", i64(),
                           {ptrType()});
    Value address = getString(rewriter, op, op.getAddress());
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(op, fn, ValueRange{address});
    return success();
  }
};

struct SendBinaryLowering : public ExecutorPattern<SendBinaryOp> {
  using ExecutorPattern::ExecutorPattern;
  LogicalResult
  matchAndRewrite(SendBinaryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fn = getOrDeclare(rewriter, op, "__catalyst__executor__send_binary",
                           voidType(), {i64(), ptrType(), i32()});
    Value path = getString(rewriter, op, op.getBinaryPath());
    Value format = LLVM::ConstantOp::create(
        rewriter, op.getLoc(), i32(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getFormat())));
    LLVM::CallOp::create(rewriter, op.getLoc(), fn,
                         ValueRange{adaptor.getSession(), path, format});
    rewriter.eraseOp(op);
    return success();
  }
};

struct LaunchLowering : public ExecutorPattern<LaunchOp> {
  using ExecutorPattern::ExecutorPattern;

  /// Fills arrays of descriptor pointers, ranks and element sizes for
  /// `types`, storing `descriptors[i]` into its slot when given.
  LogicalResult packDescriptors(LaunchOp op, TypeRange types,
                                ValueRange descriptors,
                                ConversionPatternRewriter &rewriter,
                                Value &pointers, Value &ranks, Value &sizes,
                                SmallVectorImpl<Value> &slots) const {
    Location loc = op.getLoc();
    int64_t n = types.size();
    auto ptrArray = LLVM::LLVMArrayType::get(ptrType(), std::max<int64_t>(n, 1));
    auto i64Array = LLVM::LLVMArrayType::get(i64(), std::max<int64_t>(n, 1));
    pointers = entryAlloca(rewriter, op, ptrArray, 1);
    ranks = entryAlloca(rewriter, op, i64Array, 1);
    sizes = entryAlloca(rewriter, op, i64Array, 1);
    for (auto [i, type] : llvm::enumerate(types)) {
      auto memref = cast<MemRefType>(type);
      int64_t eltSize =
          elementSize(memref.getElementType(), *getTypeConverter());
      if (eltSize == 0)
        return rewriter.notifyMatchFailure(op, "element type has no size");
      Type descType = getTypeConverter()->convertType(memref);
      Value slot = entryAlloca(rewriter, op, descType, 1);
      if (!descriptors.empty())
        LLVM::StoreOp::create(rewriter, loc, descriptors[i], slot);
      slots.push_back(slot);
      auto at = [&](Value base, Type elt) {
        return LLVM::GEPOp::create(rewriter, loc, ptrType(), elt, base,
                                   ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      };
      LLVM::StoreOp::create(rewriter, loc, slot, at(pointers, ptrType()));
      LLVM::StoreOp::create(rewriter, loc,
                            constI64(rewriter, loc, memref.getRank()),
                            at(ranks, i64()));
      LLVM::StoreOp::create(rewriter, loc, constI64(rewriter, loc, eltSize),
                            at(sizes, i64()));
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
    auto fn = getOrDeclare(
        rewriter, op, "__catalyst__executor__launch", voidType(),
        {i64(), ptrType(), ptrType(), i64(), ptrType(), ptrType(), ptrType(),
         i64(), ptrType(), ptrType(), ptrType()});
    Value entry = getString(
        rewriter, op, ("_catalyst_pyface_" + op.getKernelCallee()).str());
    Value object = getString(rewriter, op, op.getObject());
    LLVM::CallOp::create(
        rewriter, loc, fn,
        ValueRange{adaptor.getSession(), entry, object,
                   constI64(rewriter, loc, op.getInputs().size()), inPtrs,
                   inRanks, inSizes,
                   constI64(rewriter, loc, op.getNumResults()), outPtrs,
                   outRanks, outSizes});
    SmallVector<Value> results;
    for (auto [slot, type] : llvm::zip_equal(outSlots, op.getResultTypes()))
      results.push_back(LLVM::LoadOp::create(
          rewriter, loc, getTypeConverter()->convertType(type), slot));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LaunchAsyncLowering : public ExecutorPattern<LaunchAsyncOp> {
  using ExecutorPattern::ExecutorPattern;
  LogicalResult
  matchAndRewrite(LaunchAsyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fn = getOrDeclare(rewriter, op, "__catalyst__executor__launch_async",
                           i64(), {i64(), ptrType(), ptrType()});
    Value entry = getString(
        rewriter, op, ("_catalyst_pyface_" + op.getKernelCallee()).str());
    Value object = getString(rewriter, op, op.getObject());
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(
        op, fn, ValueRange{adaptor.getSession(), entry, object});
    return success();
  }
};

/// executor.await and executor.close: `void function(i64 handle)`.
template <typename OpT>
struct HandleCallLowering : public ExecutorPattern<OpT> {
  HandleCallLowering(const LLVMTypeConverter &converter, StringRef function)
      : ExecutorPattern<OpT>(converter), function(function.str()) {}
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto fn = getOrDeclare(rewriter, op, function, this->voidType(),
                           {this->i64()});
    LLVM::CallOp::create(rewriter, op.getLoc(), fn, adaptor.getOperands());
    rewriter.eraseOp(op);
    return success();
  }
  std::string function;
};

struct CallLowering : public ExecutorPattern<CallOp> {
  using ExecutorPattern::ExecutorPattern;

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
    auto callFn = getOrDeclare(
        rewriter, op, "__catalyst__executor__call_wrapper", voidType(),
        {i64(), ptrType(), ptrType(), i64(), ptrType(), i64()});
    Value symbol = getString(rewriter, op, op.getSymbol());
    LLVM::CallOp::create(rewriter, loc, callFn,
                         ValueRange{adaptor.getSession(), symbol, packed,
                                    total, replySlot, expected});
    LLVM::CallOp::create(rewriter, loc, freeFn, ValueRange{packed});
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
    auto freeResult = getOrDeclare(rewriter, op,
                                   "__catalyst__executor__free_result",
                                   voidType(), {ptrType()});
    LLVM::CallOp::create(rewriter, loc, freeResult, ValueRange{reply});
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertExecutorToLLVMPass
    : public catalyst::impl::ConvertExecutorToLLVMPassBase<ConvertExecutorToLLVMPass> {
  /// Explains up front what the patterns cannot lower (the conversion
  /// framework would only say "failed to legalize").
  LogicalResult checkConvertible(const LLVMTypeConverter &converter) {
    auto sized = [&](Type type) {
      return elementSize(cast<MemRefType>(type).getElementType(), converter) != 0;
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
    if (failed(checkConvertible(converter)))
      return signalPassFailure();
    converter.addConversion(
        [](SessionType type) { return IntegerType::get(type.getContext(), 64); });
    converter.addConversion(
        [](TokenType type) { return IntegerType::get(type.getContext(), 64); });
    RewritePatternSet patterns(ctx);
    patterns.add<OpenLowering, SendBinaryLowering, LaunchLowering,
                 LaunchAsyncLowering, CallLowering>(converter);
    patterns.add<HandleCallLowering<AwaitOp>>(converter,
                                              "__catalyst__executor__await");
    patterns.add<HandleCallLowering<CloseOp>>(converter,
                                              "__catalyst__executor__close");
    LLVMConversionTarget target(*ctx);
    target.addIllegalDialect<ExecutorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
