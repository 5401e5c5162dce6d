//===- Passes.td - Executor Studio conversions -------------*- tablegen -*-===//
//
// The conversion of the executor dialect to the LLVM dialect, declared as
// upstream MLIR declares its conversions (mlir/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef EXECUTOR_STUDIO_CONVERSION_PASSES_TD
#define EXECUTOR_STUDIO_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertExecutorToLLVMPass
    : Pass<"convert-executor-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower the executor dialect to calls into the executor runtime.";
  let description = [{
    Replaces each `executor.*` op with the corresponding
    `__catalyst__executor__*` runtime entry point, declared with the types of
    Catalyst's `runtime/include/ExecutorCAPI.h` (`size_t` is the target's
    pointer width, `i64` on 64-bit hosts; status results, always 0, are
    dropped). Sessions and tokens are `i64` handles. Strings (addresses,
    paths, symbols) become private constant NUL-terminated globals, each
    distinct string emitted once. A runtime function the module declares
    already must have that type.

    - `executor.open` -> `%s = __catalyst__executor__open(ptr address) : i64`
    - `executor.send_binary` ->
      `__catalyst__executor__send_binary(i64 session, ptr path, i32 format) : i64`
    - `executor.launch` -> `__catalyst__executor__launch(i64 session,
      ptr "_catalyst_pyface_<callee>", ptr object, size_t num_inputs,
      ptr inputs, ptr input_ranks, ptr input_element_sizes,
      size_t num_outputs, ptr outputs, ptr output_ranks,
      ptr output_element_sizes)`: `inputs` and `outputs` are arrays of
      pointers to memref descriptors (`{ptr allocated, ptr aligned,
      i64 offset, i64 sizes[rank], i64 strides[rank]}`), ranks and element
      sizes are `size_t` arrays. The runtime fills each output descriptor
      with host memory that the program owns. A scalar input or result
      (`i1`-`i64`, `index`, `f16`, `bf16`, `f32`, `f64`) has a slot of its
      own type instead of a descriptor (an input's value stored there, a
      result's loaded from there after the call), the rank
      `EXECUTOR_SCALAR_RANK` (`(size_t)-1`) and its byte size as its
      element size (`i1`: 1).
    - `executor.launch_async` -> `%t = __catalyst__executor__launch_async(
      i64 session, ptr "_catalyst_pyface_<callee>", ptr object) : i64`
    - `executor.await` -> `__catalyst__executor__await(i64 token)`
    - `executor.call` (destination-passing form: memref operands) ->
      the inputs are packed contiguously into one buffer,
      `%status = __catalyst__executor__call_wrapper(i64 session, ptr symbol,
      ptr args, size_t args_size, ptr out, ptr out_size) : i32`, then
      `__executor_check_call_reply(ptr what, i32 status, size_t got,
      size_t expected)`, which stops the program with a message naming the
      call and its location unless the status is 0 and the reply is exactly
      as long as the output buffers; each output buffer is copied from its
      slice of the reply, in order, then
      `__catalyst__executor__free_result(ptr reply)`. The check is a
      module-local function that needs only libc (`fflush`, `dprintf`,
      `exit`), so the program runs with any implementation of the C ABI.
    - `executor.close` -> `__catalyst__executor__close(i64 session) : i64`

    Memrefs must have an identity layout for `executor.call` (their bytes
    are copied as one block), and the call must be bufferized (no tensor
    operands or results) first. The pass leaves other dialects to the
    standard LLVM conversions that follow it; unrealized casts between
    memrefs and descriptors are reconciled by
    `reconcile-unrealized-casts`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // EXECUTOR_STUDIO_CONVERSION_PASSES_TD
