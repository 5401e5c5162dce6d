//===- ExecutorOps.td - executor dialect operations --------*- tablegen -*-===//

#ifndef EXECUTOR_OPS_TD
#define EXECUTOR_OPS_TD

include "ExecutorStudio/Executor/IR/ExecutorDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

class Executor_Op<string mnemonic, list<Trait> traits = []>
    : Op<Executor_Dialect, mnemonic, traits>;

/// What a launch passes to and gets from a kernel: a memref, or a scalar the
/// kernel's wrapper takes by pointer (catalyst::executor::isLaunchScalar
/// says the same in C++).
def Executor_LaunchScalar
    : AnyTypeOf<[I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64],
                "scalar (i1, i8, i16, i32, i64, index, f16, bf16, f32 or f64)">;
def Executor_LaunchValue
    : AnyTypeOf<[AnyMemRef, Executor_LaunchScalar],
                "memref of any type or scalar (i1, i8, i16, i32, i64, index, "
                "f16, bf16, f32 or f64)">;

def Executor_OpenOp : Executor_Op<"open"> {
  let summary = "Open a session with an executor.";
  let description = [{
    Establish a connection to the executor reachable at `address` and return
    an `!executor.session` handle identifying it. Subsequent executor
    operations consume the handle to target this session.

    `address` is `host:port`; an IPv6 host is written in brackets
    (`[::1]:4711`). The port may also be a symbolic placeholder such as
    `ADDR:PORT`, which the runtime maps to a real address through
    `EXECUTOR_ADDRESS_MAP`.

    Lowers to `%s = call @__catalyst__executor__open(address) : i64`.

    Example:
    ```mlir
    %s = executor.open("127.0.0.1:4711") : !executor.session
    ```
  }];
  let arguments = (ins StrAttr:$address);
  let results = (outs Executor_SessionType:$session);
  let assemblyFormat = "`(` $address `)` attr-dict `:` type($session)";
  let hasVerifier = 1;
}

def Executor_SendBinaryOp : Executor_Op<"send_binary"> {
  let summary = "Ship a compiled kernel object file to the executor.";
  let description = [{
    Transfer the compiled binary at `binary_path` over the session to the
    executor. The executor loads the file and exposes all of its symbols.
    `format` selects the wire encoding for the transfer, which is handled by
    the runtime. Defaults to 0 (the raw object file); other values are
    reserved for future encodings and rejected by the verifier.

    Lowers to `call @__catalyst__executor__send_binary(session, path, format)`.

    Example:
    ```mlir
    executor.send_binary %s("/tmp/ws/compute/compute.o") : !executor.session
    ```
  }];
  let arguments = (ins Executor_SessionType:$session, StrAttr:$binary_path,
                       DefaultValuedAttr<I32Attr, "0">:$format);
  let assemblyFormat =
      "$session `(` $binary_path `)` attr-dict `:` type($session)";
  let hasVerifier = 1;
}

def Executor_LaunchOp : Executor_Op<"launch"> {
  let summary = "Dispatch a cross-compiled kernel on the executor and receive its results.";
  let description = [{
    Invoke, on the given session, the kernel previously registered via
    `executor.send_binary`. The `inputs` operand list mirrors the original
    host-side call to the kernel; `results` mirrors the kernel's return
    values. `kernel_callee` names the entry function and `object` the object
    file that defines it, so two objects may export the same entry name.

    Inputs and results are memrefs and scalars (`i1`, `i8`, `i16`, `i32`,
    `i64`, `index`, `f16`, `bf16`, `f32`, `f64`); the kernel's wrapper takes
    a scalar argument by pointer and returns a scalar result in its result
    struct, as `_catalyst_pyface_<callee>` does for a local launch.

    Lowers to `call @__catalyst__executor__launch(session,
    "_catalyst_pyface_<callee>", object, ...)` with arrays of input and output
    memref descriptors, their ranks and element sizes; a scalar's entry points
    at its value (for a result: at where the runtime stores it), its rank is
    `EXECUTOR_SCALAR_RANK` (`(size_t)-1`, ExecutorRuntime/CAPI.h) and its
    element size is its byte size (`i1` is a byte).

    Example:
    ```mlir
    %r, %sum = executor.launch %s("compute", "/tmp/ws/c/c.o")(%scale, %in)
        : !executor.session, (f64, memref<4xf64>) -> (memref<4xf64>, f64)
    ```
  }];
  let arguments = (ins Executor_SessionType:$session, StrAttr:$kernel_callee,
                       StrAttr:$object,
                       Variadic<Executor_LaunchValue>:$inputs);
  let results = (outs Variadic<Executor_LaunchValue>:$results);
  let assemblyFormat = [{
    $session `(` $kernel_callee `,` $object `)` `(` $inputs `)` attr-dict
    `:` type($session) `,` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

def Executor_LaunchAsyncOp : Executor_Op<"launch_async"> {
  let summary = "Dispatch a ``()->()`` entry on the executor without waiting for it.";
  let description = [{
    Like `executor.launch`, but returns as soon as the entry has been started
    instead of waiting for it to finish; the entry runs on a background
    thread on the host. Pass the returned token to `executor.await` to wait
    for it. The entry takes no arguments and returns nothing.

    Lowers to `%t = call @__catalyst__executor__launch_async(session,
    "_catalyst_pyface_<callee>", object) : i64`.

    Example:
    ```mlir
    %t = executor.launch_async %s("warmup", "/tmp/ws/c/c.o")
        : !executor.session -> !executor.token
    ```
  }];
  let arguments = (ins Executor_SessionType:$session, StrAttr:$kernel_callee,
                       StrAttr:$object);
  let results = (outs Executor_TokenType:$token);
  let assemblyFormat = [{
    $session `(` $kernel_callee `,` $object `)` attr-dict
    `:` type($session) `->` type($token)
  }];
  let hasVerifier = 1;
}

def Executor_AwaitOp : Executor_Op<"await"> {
  let summary = "Wait for one executor.launch_async to finish.";
  let description = [{
    Block until the `executor.launch_async` that produced `token` has
    finished. Waiting on the token rather than on the session means other
    launches on that session are left running.

    Lowers to `call @__catalyst__executor__await(token)`.
  }];
  let arguments = (ins Executor_TokenType:$token);
  let assemblyFormat = "$token attr-dict `:` type($token)";
}

def Executor_CallOp : Executor_Op<"call"> {
  let summary = "Invoke a symbol in a previously-loaded shared library.";
  let description = [{
    Invoke `symbol` in a shared library already loaded on the executor
    session.

    The operand list packs input buffers followed by output buffers.
    `num_input_args`, when present, marks the boundary: operands
    `[0, num_input_args)` are inputs and the remainder are output buffers to
    be filled by the callee. Without `num_input_args` all operands are
    treated as inputs.

    Outputs are memrefs, filled in place, or tensors in destination-passing
    style, as in `linalg`: each tensor output has a result of its type, its
    filled value; those results come first, in the order of the tensor
    outputs. Any further results are outputs the op allocates itself.
    One-shot bufferize turns the tensor form into memrefs: a tensor output
    becomes its buffer (copied only where the tensor is used again), a further
    result a new buffer appended to the operands, and `num_input_args` marks
    where the inputs end.

    Lowers to `call @__catalyst__executor__call_wrapper(session, symbol,
    inputs, input_size, &reply, &reply_size)` with the inputs packed
    contiguously, the outputs sliced from the reply, then
    `call @__catalyst__executor__free_result(reply)`.
  }];
  let arguments = (ins Executor_SessionType:$session, StrAttr:$symbol,
                       Variadic<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$inputs,
                       OptionalAttr<I32Attr>:$num_input_args);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $session `(` $symbol `)` `(` $inputs `)` attr-dict
    `:` type($session) `,` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Operands [0, getNumInputs()) are inputs.
    unsigned getNumInputs();
    /// The input operands (before the boundary).
    ::mlir::OperandRange getInputOperands();
    /// The output buffers (after the boundary).
    ::mlir::OperandRange getOutputOperands();
    /// The number of tensor outputs: the leading results are their filled
    /// values, in order.
    unsigned getNumTensorOutputs();
  }];
}

def Executor_CloseOp : Executor_Op<"close"> {
  let summary = "Release a session handle with an executor.";
  let description = [{
    Release the session previously established via `executor.open`, marking
    the end of its use in the IR.

    Lowers to `call @__catalyst__executor__close(session)`.
  }];
  let arguments = (ins Executor_SessionType:$session);
  let assemblyFormat = "$session attr-dict `:` type($session)";
}

#endif // EXECUTOR_OPS_TD
