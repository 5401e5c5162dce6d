//===- Passes.td - Executor Studio passes ------------------*- tablegen -*-===//
//
// The executor pipeline's transformations (its conversion,
// convert-executor-to-llvm, is in Conversion/Passes.td). Where shared/spec leaves a
// detail open, the choice made is written in the pass's description.
//
//===----------------------------------------------------------------------===//

#ifndef EXECUTOR_STUDIO_PASSES_TD
#define EXECUTOR_STUDIO_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerRuntimeDispatchPass
    : Pass<"lower-runtime-dispatch", "mlir::ModuleOp"> {
  let summary = "Lower dispatched catalyst.runtime_call ops to executor.call.";
  let description = [{
    Rewrites every `catalyst.runtime_call` carrying a `dispatch` attribute
    into an `executor.call` on that executor, marshalling the operands into
    the executor's flat wire layout on the way:

    - a scalar or `ptr` operand becomes a one-element tensor of its declared
      width (`tensor<1xi32>` for `"i32"`, `tensor<1xi64>` for `"ptr"`),
      converting integers and floats of another width and `index` first;
    - a `str` from `c_strings` becomes a NUL-padded 256-byte constant
      `tensor<256xi8>` (a string of 256 bytes or more is an error: it would
      lose its terminator);
    - the declared result and each `out` buffer become results, the result
      first; the declared result comes back as `tensor<1xT>` and is
      extracted to the scalar the runtime_call returned.

    The session is an `executor.open` of the address, reused when the
    function already opens that address, otherwise inserted at the start of
    the function. An empty `dispatch = ""` binds to the program's single
    executor, taken from the `catalyst.dispatch` attribute of the nested
    target modules; it is an error when there is none ("no executor
    address") or more than one ("ambiguous").

    The pass runs before bufferization so the `executor.call` it emits is
    bufferized into its destination-passing form by one-shot bufferize.
    Calls without `dispatch` stay as they are.
  }];
  let dependentDialects = [
    "::catalyst::executor::ExecutorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def CrossCompileTargetsPass
    : Pass<"cross-compile-targets", "mlir::ModuleOp"> {
  let summary = "Compile each catalyst.target module to its own object file.";
  let description = [{
    Every nested `builtin.module` tagged `catalyst.target` is cloned and
    lowered on its own, with its `pipeline` string when it has one and
    otherwise with the default target stage (one-shot bufferization with
    function boundaries and identity layouts, loops, and the standard
    conversion to the LLVM dialect). The entry points are the functions that
    host `catalyst.launch_kernel`s name: each gets `llvm.emit_c_interface`
    and a `_catalyst_pyface_<entry>` wrapper with the C ABI
    `void(void *results, void *args)`, where `args` points to an array of
    pointers to the entry's memref descriptors (scalars: to the value) and
    `results` to the packed struct of its result descriptors. Every other
    function becomes private (internal linkage in the object, so objects
    never clash when linked). The result is translated to LLVM IR, optimised
    at -O2 and compiled with the target machine of `catalyst.target.triple`
    (default: the host's) to `{workspace}/{name}/{name}.o`, whose path is
    recorded as `catalyst.object_file`. The target module in the host is
    reduced to private declarations of its entries, so launches keep
    verifying.

    Local targets (no `catalyst.dispatch`) must be for the host triple. Each
    of their `launch_kernel`s becomes a `func.call` of a private declaration
    added to the host, the object path is appended to the root's
    `catalyst.object_files` and to `{workspace}/{root}.objects` (one path
    a line, for the linker; each run of the pass writes it anew), and the
    nested module is erased. Two local targets may not share an entry name.

    A module without a name is `unnamed`. Module names become file names,
    so a target's name and the root's must be one plain path component (no
    `/`, `\`, `.`, `..`, control characters; at most 200 bytes): nothing is
    ever written outside the workspace. Errors: no `workspace` while
    targets exist (reported at the first target); a name that is not a plain
    file name; two targets with one name; a workspace that cannot be
    written; an unknown triple; a target whose lowering fails (its
    diagnostics are reported on the target module).

    With `save-ir-after-each`, whatever its mode, the files Catalyst's users
    look for are written too: `{workspace}/{name}/extracted.mlir` (the
    target as extracted, entries exposed, before its pipeline) and
    `{workspace}/{name}/{name}.ll` (the optimised LLVM IR that became
    `{name}.o`).

    Unlike Catalyst's pass, which leaves a dispatched module's bodies in the
    host, a dispatched target is reduced to declarations of its entries: its
    code is in the object, and declarations keep the host small while
    launches still verify against the entry types.

    With `debug` (or `catalyst.target = {debug = true}` on a target), the
    target's LLVM dialect functions get debug scopes
    (`ensure-debug-info-scope-on-llvm-func`) after its pipeline, so the
    object carries DWARF line tables whose file, lines and columns are the
    locations of the target's own ops in the `.mlir` source (every lowering
    keeps them), and its functions keep their frame pointers: debuggers and
    the executor's crash reports name the `.mlir` line. `opt-level` (0 to 3,
    default 2) is the LLVM optimisation level of the objects, with or without
    debug info; an `opt-level` above 3 is an error. Objects always carry
    unwind tables (`.eh_frame`), so a crash report walks through kernel
    frames with or without debug info.

    Targets are independent: each is compiled from its text in an
    MLIRContext and an LLVMContext of its own, several at once on the
    context's thread pool (`jobs`; one at a time with
    `--mlir-disable-threading`). Diagnostics, recorded steps, the manifest
    and the host's IR follow the targets' order, so the output and the
    objects are byte-identical whatever the number of threads. A target
    compiled before in the process with the same text (after the host
    passes, locations included), options, triple, entries and tool version
    comes from an in-memory cache (least recently used out, 256 MiB or
    EXECUTOR_STUDIO_TARGET_CACHE_MB) unless `cache=false` or
    `save-ir-after-each` is given.

    `executor-triple=TRIPLE` compiles every dispatched target for TRIPLE
    instead of its own `catalyst.target.triple` (or the host's): the triple
    of the executor the program runs on, which `executor-compile
    --target-of=ADDRESS` reads from ORC's setup message.
  }];
  let options = [
    Option<"workspace", "workspace", "std::string", /*default=*/"\"\"",
           "Directory that receives {name}/{name}.o for each target">,
    Option<"saveIrAfterEach", "save-ir-after-each", "std::string",
           /*default=*/"\"\"",
           "Also write each target's IR into {workspace}/{name}/ir/: "
           "'pipeline' (before and after its pipeline), 'changed' (after "
           "every pass that changed it) or 'pass' (after every pass); any "
           "mode also writes {name}/extracted.mlir and {name}/{name}.ll">,
    Option<"debug", "debug", "bool", /*default=*/"false",
           "Compile every target with DWARF debug info whose file, lines and "
           "columns are the .mlir source's (catalyst.target = {debug = true} "
           "asks it for one target)">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"2",
           "LLVM optimisation level of the target objects, 0 to 3">,
    Option<"jobs", "jobs", "unsigned", /*default=*/"0",
           "Targets compiled at once: 0 (default) as many as the context's "
           "thread pool runs, 1 one after the other; always one with "
           "--mlir-disable-threading. The output and the objects do not "
           "depend on it">,
    Option<"cache", "cache", "bool", /*default=*/"true",
           "Take a target whose module, options and triple were compiled "
           "before in this process from the in-memory cache of compiled "
           "targets (its object and recorded steps, byte-identical)">,
    Option<"executorTriple", "executor-triple", "std::string",
           /*default=*/"\"\"",
           "Compile every dispatched target (catalyst.dispatch) for this "
           "triple, whatever its catalyst.target.triple says (executor-compile "
           "--target-of gives the executor's); local targets stay the host's">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def DispatchExecutorTargetsPass
    : Pass<"dispatch-executor-targets", "mlir::ModuleOp"> {
  let summary = "Ship cross-compiled modules and library calls to an executor.";
  let description = [{
    For every nested `builtin.module` carrying a `catalyst.dispatch`
    attribute and a `catalyst.object_file` path, the pass:

    1. opens one session per unique address (`executor.open`) and ships each
       object once (`executor.send_binary`), however many launches use it:
       in `setup()` when the host has a function of that name, otherwise at
       the entry of each host function that launches into the module;
    2. rewrites every host-side `catalyst.launch_kernel` targeting the
       module into an `executor.launch` carrying the entry callee and the
       object path; operands and results must be memrefs (bufferize first)
       or scalars (`i1`, `i8`, `i16`, `i32`, `i64`, `index`, `f16`, `bf16`,
       `f32`, `f64`), which pass through unchanged.
       A launch marked `catalyst.nonblocking` becomes
       `executor.launch_async`, awaited with `executor.await` at the end of
       its block (before the terminator), so the launches and host code
       that follow overlap with it (the entry must be `() -> ()`, so it
       touches no host memory);
    3. erases the nested module.

    The dispatched module need not carry `catalyst.target`: Catalyst's
    `cross-compile-targets` leaves `catalyst.dispatch` and
    `catalyst.object_file` only, and such modules are dispatched the same way.

    Library calls on an executor: every `catalyst.custom_call` whose
    `backend_config` has a `dispatch` entry becomes `executor.call` of its
    `call_target_name` on that executor's session, with the same operands
    and results and `num_input_args = number_original_arg`. An empty
    `dispatch = ""` means the program's only executor (the addresses of the
    dispatched modules); with several it is an error that names them, and
    with none an error too. Their sessions are opened like the targets' (in
    `setup()` too). A `custom_call` without `dispatch` stays on the host.

    Deliberately unlike Catalyst's pass (which opens a session and ships the
    objects in every host function that launches), sessions are opened and
    objects shipped once, in `setup()`, as the specification says: a program
    connects to its executors and ships its kernels before the first launch,
    so connection and loading errors surface at start-up and no launch pays
    for them. For the same reason a function marked
    `catalyst.backline_bringup` gets no `send_binary` of its own. A
    nonblocking launch may also sit in a nested block (its await closes that
    block), where Catalyst's pass requires the function's entry block.

    When the sessions are opened in `setup()`, every other host function
    reaches them through `executor.open` of the same address at its entry
    (`open` is idempotent per address in the runtime), so no handle has to
    cross function boundaries. Session teardown is handled by the runtime,
    which closes every open session at process exit, so no `executor.close`
    is emitted. The pass is a no-op when no `catalyst.dispatch` modules are
    present.

    An `executor.open` of the same address already in the entry block is
    reused (moved to the start). Errors: a dispatched module without
    `catalyst.object_file` or with an empty one ("run cross-compile-targets
    first"), an operand or result that is neither a memref nor one of
    those scalars, a nonblocking launch whose
    entry is not `() -> ()`, a launch outside a function; a dispatched
    `custom_call` with an ambiguous or missing executor, a scalar operand
    (`executor.call` takes tensors and memrefs) or a memref result.
  }];
  let dependentDialects = [
    "::catalyst::executor::ExecutorDialect",
    "::mlir::func::FuncDialect"
  ];
}

#endif // EXECUTOR_STUDIO_PASSES_TD
