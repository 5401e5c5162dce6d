//===- CatalystOps.td - the catalyst subset ----------------*- tablegen -*-===//
//
// The part of Catalyst's `catalyst` dialect that the executor passes consume:
// `catalyst.launch_kernel`, `catalyst.runtime_call`, `catalyst.custom_call`
// and the discardable
// attributes `catalyst.target`, `catalyst.dispatch`, `catalyst.object_file`,
// `catalyst.object_files` and `catalyst.nonblocking`.
//
//===----------------------------------------------------------------------===//

#ifndef CATALYST_OPS_TD
#define CATALYST_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Catalyst_Dialect : Dialect {
  let name = "catalyst";
  let cppNamespace = "::catalyst";
  let summary = "The subset of Catalyst's dialect that cross-compilation and dispatch consume.";
  let description = [{
    Host programs call kernels of nested `catalyst.target` modules with
    `catalyst.launch_kernel` and runtime functions with
    `catalyst.runtime_call`. The attributes the passes read and write:

    - `catalyst.target = {triple = "...", pipeline = "...", debug = true}`
      (all optional; a unit attribute is also accepted) on a nested
      `builtin.module`: the module is cross-compiled on its own by
      `cross-compile-targets` (with debug info naming its `.mlir` lines when
      `debug = true`).
    - `catalyst.dispatch = {address = "host:port"}` on a nested module: its
      kernels run on that executor. The module carries `catalyst.target`
      until `cross-compile-targets` has compiled it; Catalyst's pass then
      drops that attribute, so a dispatched module with only
      `catalyst.object_file` is accepted too.
    - `catalyst.object_file = "path.o"` on a target module: where
      `cross-compile-targets` wrote its object.
    - `catalyst.object_files = ["a.o", ...]` on the root module: the objects
      of local targets, for the linker.
    - `catalyst.nonblocking` (unit) on a `catalyst.launch_kernel`: dispatch it
      with `executor.launch_async` + `executor.await`.
  }];
  let hasOperationAttrVerify = 1;
}

class Catalyst_Op<string mnemonic, list<Trait> traits = []>
    : Op<Catalyst_Dialect, mnemonic, traits>;

def Catalyst_LaunchKernelOp : Catalyst_Op<"launch_kernel",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Call an entry function of a nested catalyst.target module.";
  let description = [{
    Call `@module::@entry`, a function in a nested `builtin.module` tagged
    `catalyst.target`, with `inputs`, and return its results. Where the
    symbol resolves, it must name a `func.func` inside a nested module, and
    the operand and result types must match the function's.

    `cross-compile-targets` turns launches into local targets into
    `func.call`s; `dispatch-executor-targets` turns launches into dispatched
    targets into `executor.launch` (or `executor.launch_async` +
    `executor.await` when the launch carries `catalyst.nonblocking`).

    Example:
    ```mlir
    %r = catalyst.launch_kernel @compute::@square(%x)
        : (memref<4xf64>) -> memref<4xf64>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$callee, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let extraClassDeclaration = [{
    /// The operation `@module` of `@module::@entry` names, looked up in
    /// every enclosing symbol table from the nearest out (a launch may call
    /// into a sibling of the module it is in), as the verifier does; null
    /// when the callee is not of that form or nothing has that name.
    ::mlir::Operation *
    lookupCalleeRoot(::mlir::SymbolTableCollection *symbolTables = nullptr);
    /// The builtin.module the callee names (any module, target or not).
    ::mlir::ModuleOp getCalleeModule();
    /// The function the callee names in that module, if both resolve.
    ::mlir::Operation *getCalleeFunction();
  }];
}

def Catalyst_RuntimeCallOp : Catalyst_Op<"runtime_call"> {
  let summary = "Call a C runtime function, on the host or on an executor.";
  let description = [{
    Call the C function `callee`. `c_params` spells its C parameter list, one
    entry per parameter, in order:

    - a scalar type (`i1`, `i8`, `i16`, `i32`, `i64`, `f16`, `f32`, `f64`):
      the next operand, a value of that type (integers may be of any width
      or `index` and are converted to the declared width; floats likewise);
    - `ptr`: the next operand, an `i64`, `index` or `!llvm.ptr`, passed as a
      64-bit integer;
    - `str`: the next string of `c_strings` (no operand);
    - `out`: the next operand, a ranked tensor giving the shape and element
      type of a buffer the callee fills; it becomes a result.

    The results are the declared C result first (when the function returns
    one: a scalar), then one tensor per `out` parameter, in order.

    With `dispatch = "host:port"` the call runs on that executor;
    `lower-runtime-dispatch` rewrites it into `executor.call`. An empty
    `dispatch = ""` binds to the program's single executor (the
    `catalyst.dispatch` of its target modules).

    Example:
    ```mlir
    %n, %buf = catalyst.runtime_call "sample"(%shots, %out)
        {c_params = ["i64", "str", "out"], c_strings = ["z-basis"],
         dispatch = "127.0.0.1:4711"}
        : (i64, tensor<8xf64>) -> (i32, tensor<8xf64>)
    ```
  }];
  let arguments = (ins StrAttr:$callee, Variadic<AnyType>:$args,
                       StrArrayAttr:$c_params,
                       OptionalAttr<StrArrayAttr>:$c_strings,
                       OptionalAttr<StrAttr>:$dispatch);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of `out` parameters.
    unsigned getNumOutParams();
    /// Whether the C function returns a value (the first result).
    bool hasDeclaredResult() { return getNumResults() > getNumOutParams(); }
  }];
}

def Catalyst_CustomCallOp : Catalyst_Op<"custom_call",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Call an implementation-defined library function.";
  let description = [{
    Call the external function `call_target_name` with `inputs` and produce
    `results`. This is Catalyst's op, modelled as far as the executor passes
    need it.

    One-shot bufferize turns the tensor form into destination-passing style:
    each tensor result becomes a new buffer appended to the operands, and
    `number_original_arg` records how many operands were inputs. On memrefs,
    operands `[0, number_original_arg)` are inputs and the rest are output
    buffers the callee fills; without `number_original_arg` every operand is
    an input.

    `backend_config` is a dictionary of settings for the callee. Its key
    `dispatch` sends the call to an executor: `dispatch = "host:port"` names
    the executor, `dispatch = ""` means the program's only executor (the
    `catalyst.dispatch` of its dispatched modules);
    `dispatch-executor-targets` rewrites such a call into `executor.call`
    with `num_input_args = number_original_arg`.

    Example:
    ```mlir
    catalyst.custom_call fn("histogram") (%samples, %counts)
        {backend_config = {dispatch = "127.0.0.1:4711"},
         number_original_arg = 1 : i32}
        : (memref<256xf64>, memref<16xi64>) -> ()
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       StrAttr:$call_target_name,
                       OptionalAttr<I32Attr>:$number_original_arg,
                       OptionalAttr<DictionaryAttr>:$backend_config);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    `fn` `(` $call_target_name `)` `(` $inputs `)` attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `backend_config.dispatch`, when the call goes to an executor ("" for
    /// the program's only executor).
    std::optional<llvm::StringRef> getDispatch();
  }];
}

#endif // CATALYST_OPS_TD
