//===- DispatchExecutorTargets.cpp - launch_kernel -> executor --*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"
#include "ExecutorStudio/Transforms/LaunchRules.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace catalyst {
#define GEN_PASS_DEF_DISPATCHEXECUTORTARGETSPASS
#include "ExecutorStudio/Transforms/Passes.h.inc"
} // namespace catalyst

using namespace mlir;
using namespace catalyst;

std::optional<std::string> catalyst::dispatchedLaunchProblem(Type type, bool isResult,
                                                             bool beforeBufferization) {
  if (isa<MemRefType>(type) || executor::isLaunchScalar(type) ||
      (beforeBufferization && isa<RankedTensorType>(type)))
    return std::nullopt;
  std::string message;
  llvm::raw_string_ostream os(message);
  if (isResult)
    os << "result of type '" << type
       << "' cannot come back from an executor: launches into a dispatched target return "
          "memrefs and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) only";
  else
    os << "operand of type '" << type
       << "' cannot be sent to an executor: launches into a dispatched target take memrefs "
          "and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64) only";
  if (isa<TensorType>(type))
    os << " (run one-shot-bufferize first)";
  return message;
}

namespace {
/// One dispatched target module.
struct DispatchedTarget {
  ModuleOp module;
  std::string address;
  std::string object;
};

struct DispatchExecutorTargetsPass
    : public catalyst::impl::DispatchExecutorTargetsPassBase<
          DispatchExecutorTargetsPass> {
  void runOnOperation() override;
};

/// Opens `address` at the start of `func` (reusing an open of the same
/// address in its entry block) and returns the session.
Value getOrOpenSession(FunctionOpInterface func, StringRef address,
                       OpBuilder &b) {
  Block &entry = func.getFunctionBody().front();
  for (auto open : entry.getOps<executor::OpenOp>())
    if (open.getAddress() == address) {
      // Reuse it, moved to where the session is needed first.
      if (open->getBlock() == b.getInsertionBlock() &&
          b.getInsertionPoint() != entry.end() &&
          &*b.getInsertionPoint() != open.getOperation() &&
          b.getInsertionPoint()->isBeforeInBlock(open))
        open->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
      return open.getSession();
    }
  return executor::OpenOp::create(
             b, func.getLoc(), executor::SessionType::get(func->getContext()),
             b.getStringAttr(address))
      .getSession();
}

/// Ships `object` on `session` unless `func`'s entry block already does.
void sendOnce(FunctionOpInterface func, Value session, StringRef object,
              OpBuilder &b) {
  Block &entry = func.getFunctionBody().front();
  for (auto send : entry.getOps<executor::SendBinaryOp>())
    if (send.getSession() == session && send.getBinaryPath() == object)
      return;
  executor::SendBinaryOp::create(b, func.getLoc(), session,
                                 b.getStringAttr(object),
                                 /*format=*/b.getI32IntegerAttr(0));
}

LogicalResult checkLaunch(LaunchKernelOp launch) {
  for (Type type : launch.getInputs().getTypes())
    if (std::optional<std::string> problem = dispatchedLaunchProblem(type, false))
      return launch.emitOpError(*problem);
  for (Type type : launch.getResultTypes())
    if (std::optional<std::string> problem = dispatchedLaunchProblem(type, true))
      return launch.emitOpError(*problem);
  if (isNonblocking(launch) &&
      (!launch.getInputs().empty() || launch.getNumResults() != 0))
    return launch.emitOpError("nonblocking dispatch requires a '()->()' "
                              "callee, but ")
           << launch.getCallee() << " is marked " << attrs::kNonblocking
           << " and takes arguments or returns results: executor.launch_async "
              "runs entries without either";
  return success();
}
/// Whether `call` can become an executor.call, which carries tensors and
/// memrefs and returns tensors.
LogicalResult checkCustomCall(CustomCallOp call) {
  for (Type type : call.getInputs().getTypes())
    if (!isa<RankedTensorType, MemRefType>(type))
      return call.emitOpError("operand of type ")
             << type
             << " cannot be sent to an executor: executor.call takes ranked "
                "tensors and memrefs only (pass a scalar as tensor<1xT>)";
  for (Type type : call.getResultTypes())
    if (!isa<RankedTensorType>(type))
      return call.emitOpError("result of type ")
             << type
             << " cannot come back from an executor: executor.call returns "
                "ranked tensors, or fills memref output buffers after "
                "number_original_arg";
  return success();
}

/// The pass's state, phase by phase: what is dispatched where, the host
/// functions that launch or call into it, then the rewrite.
class Dispatch {
public:
  explicit Dispatch(ModuleOp root) : root(root), b(root.getContext()) {}

  /// The target modules with catalyst.dispatch: an address and an object.
  LogicalResult collectTargets();
  /// The catalyst.custom_call ops with backend_config.dispatch, resolved to
  /// an executor address.
  LogicalResult collectDispatchedCalls();
  bool empty() const { return targets.empty() && callAddresses.empty(); }
  /// The launches into dispatched targets and the dispatched calls, by host
  /// function.
  LogicalResult groupByFunction();
  /// Every session and every object once, in a setup() the program defines.
  void openInSetup();
  /// Opens the sessions of `func` (and ships the objects when there is no
  /// setup()), then rewrites its calls and launches.
  void rewriteFunction(FunctionOpInterface func,
                       ArrayRef<LaunchKernelOp> launches);
  /// The targets run on executors: they leave the host module.
  void eraseTargets() {
    for (auto &[name, target] : targets)
      target.module->erase();
  }

  llvm::MapVector<Operation *, SmallVector<LaunchKernelOp>> launchesByFunc;

private:
  const DispatchedTarget &getTarget(LaunchKernelOp launch) {
    return targets.find(launch.getCallee().getRootReference())->second;
  }
  void rewriteCall(CustomCallOp call, Value session);
  void rewriteLaunch(LaunchKernelOp launch, Value session,
                     const DispatchedTarget &target);

  ModuleOp root;
  OpBuilder b;
  llvm::MapVector<StringAttr, DispatchedTarget> targets;
  llvm::MapVector<Operation *, std::string> callAddresses;
  llvm::MapVector<Operation *, SmallVector<CustomCallOp>> callsByFunc;
  func::FuncOp setup;
};

LogicalResult Dispatch::collectTargets() {
  bool failed = false;
  for (auto module : root.getOps<ModuleOp>()) {
    if (!hasDispatch(module))
      continue;
    std::string name = getTargetName(module);
    std::optional<std::string> address = getDispatchAddress(module);
    if (!address || address->empty()) {
      module.emitOpError("has ")
          << attrs::kDispatch
          << " without an address; write {address = \"host:port\"}";
      failed = true;
      continue;
    }
    std::optional<std::string> object = getObjectFile(module);
    if (!object || object->empty()) {
      InFlightDiagnostic diag = module.emitOpError("is dispatched to ")
                                << *address << " but has no "
                                << attrs::kObjectFile;
      // cross-compile-targets writes the object of a catalyst.target only.
      if (isTarget(module))
        diag << "; run cross-compile-targets first";
      else
        diag << " and is not a catalyst.target, which cross-compile-targets "
                "would compile; add catalyst.target = {} to @"
             << name << " (or catalyst.object_file for an object compiled "
                        "elsewhere)";
      failed = true;
      continue;
    }
    targets[StringAttr::get(root.getContext(), name)] = {module, *address,
                                                         *object};
  }
  return failure(failed);
}

LogicalResult Dispatch::collectDispatchedCalls() {
  bool failed = false;
  SmallVector<std::string> executors = collectExecutorAddresses(root);
  root.walk([&](CustomCallOp call) {
    std::optional<StringRef> dispatch = call.getDispatch();
    if (!dispatch)
      return;
    FailureOr<std::string> address =
        resolveDispatch(call, *dispatch, executors, "backend_config dispatch");
    if (mlir::failed(address) || mlir::failed(checkCustomCall(call))) {
      failed = true;
      return;
    }
    callAddresses[call] = *address;
  });
  return failure(failed);
}

LogicalResult Dispatch::groupByFunction() {
  bool failed = false;
  root.walk([&](LaunchKernelOp launch) {
    auto it = targets.find(launch.getCallee().getRootReference());
    if (it == targets.end() ||
        it->second.module->isProperAncestor(launch))
      return;
    if (mlir::failed(checkLaunch(launch))) {
      failed = true;
      return;
    }
    auto func = launch->getParentOfType<FunctionOpInterface>();
    if (!func) {
      launch.emitOpError("launches into a dispatched target outside a "
                         "function; put it in a host function");
      failed = true;
      return;
    }
    launchesByFunc[func.getOperation()].push_back(launch);
  });
  for (auto &[op, address] : callAddresses) {
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!func) {
      op->emitOpError("is dispatched to ")
          << address << " outside a function; put it in a host function";
      failed = true;
      continue;
    }
    callsByFunc[func.getOperation()].push_back(cast<CustomCallOp>(op));
    // The session is opened in these functions as well.
    launchesByFunc[func.getOperation()];
  }
  return failure(failed);
}

void Dispatch::openInSetup() {
  setup = root.lookupSymbol<func::FuncOp>("setup");
  if (setup && setup.isExternal())
    setup = nullptr;
  if (!setup)
    return;
  Block &entry = setup.getBody().front();
  b.setInsertionPointToStart(&entry);
  llvm::StringMap<Value> sessions;
  for (auto &[name, target] : targets) {
    Value &session = sessions[target.address];
    if (!session)
      session = getOrOpenSession(setup, target.address, b);
  }
  for (auto &[call, address] : callAddresses) {
    Value &session = sessions[address];
    if (!session)
      session = getOrOpenSession(setup, address, b);
  }
  for (auto &[name, target] : targets)
    sendOnce(setup, sessions[target.address], target.object, b);
}

void Dispatch::rewriteFunction(FunctionOpInterface func,
                               ArrayRef<LaunchKernelOp> launches) {
  Block &entry = func.getFunctionBody().front();
  // After whatever setup() or an earlier pass put at the start.
  auto insertAt = entry.begin();
  while (insertAt != entry.end() &&
         isa<executor::OpenOp, executor::SendBinaryOp>(*insertAt))
    ++insertAt;
  b.setInsertionPoint(&entry, insertAt);
  llvm::StringMap<Value> sessions;
  for (LaunchKernelOp launch : launches) {
    const DispatchedTarget &target = getTarget(launch);
    Value &session = sessions[target.address];
    if (!session)
      session = getOrOpenSession(func, target.address, b);
    if (!setup)
      sendOnce(func, session, target.object, b);
  }
  SmallVector<CustomCallOp> calls = callsByFunc.lookup(func.getOperation());
  for (CustomCallOp call : calls) {
    Value &session = sessions[callAddresses[call]];
    if (!session)
      session = getOrOpenSession(func, callAddresses[call], b);
  }
  for (CustomCallOp call : calls)
    rewriteCall(call, sessions[callAddresses[call]]);
  for (LaunchKernelOp launch : launches) {
    const DispatchedTarget &target = getTarget(launch);
    rewriteLaunch(launch, sessions[target.address], target);
  }
}

void Dispatch::rewriteCall(CustomCallOp call, Value session) {
  OpBuilder cb(call);
  IntegerAttr numInputs;
  if (std::optional<uint32_t> n = call.getNumberOriginalArg())
    numInputs = cb.getI32IntegerAttr(*n);
  auto exec = executor::CallOp::create(
      cb, call.getLoc(), call.getResultTypes(), session,
      call.getCallTargetNameAttr(), call.getInputs(), numInputs);
  call->replaceAllUsesWith(exec.getResults());
  call->erase();
}

void Dispatch::rewriteLaunch(LaunchKernelOp launch, Value session,
                             const DispatchedTarget &target) {
  OpBuilder lb(launch);
  StringAttr entryName = launch.getCallee().getLeafReference();
  StringAttr object = lb.getStringAttr(target.object);
  if (isNonblocking(launch)) {
    auto async = executor::LaunchAsyncOp::create(
        lb, launch.getLoc(), executor::TokenType::get(root.getContext()),
        session, entryName, object);
    // Await at the end of the block so that what follows overlaps with
    // the kernel; a () -> () entry touches no host memory.
    Block *block = launch->getBlock();
    OpBuilder ab(block, block->getTerminator()
                            ? Block::iterator(block->getTerminator())
                            : block->end());
    executor::AwaitOp::create(ab, launch.getLoc(), async.getToken());
  } else {
    auto exec = executor::LaunchOp::create(
        lb, launch.getLoc(), launch.getResultTypes(), session, entryName,
        object, launch.getInputs());
    launch->replaceAllUsesWith(exec.getResults());
  }
  launch->erase();
}
} // namespace

void DispatchExecutorTargetsPass::runOnOperation() {
  Dispatch dispatch(getOperation());
  if (failed(dispatch.collectTargets()) ||
      failed(dispatch.collectDispatchedCalls()))
    return signalPassFailure();
  if (dispatch.empty())
    return;
  if (failed(dispatch.groupByFunction()))
    return signalPassFailure();
  dispatch.openInSetup();
  for (auto &[func, launches] : dispatch.launchesByFunc)
    dispatch.rewriteFunction(cast<FunctionOpInterface>(func), launches);
  dispatch.eraseTargets();
}
