//===- ExecutorDialect.td - executor dialect definition ----*- tablegen -*-===//
//
// The `executor` dialect: sessions with remote executors, object shipping and
// kernel launches. Op names, operands and assembly formats follow the op
// reference in shared/spec/executor-ops.txt so that IR written for Catalyst
// parses unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef EXECUTOR_DIALECT_TD
#define EXECUTOR_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Executor_Dialect : Dialect {
  let name = "executor";
  let cppNamespace = "::catalyst::executor";
  let summary = "Sessions with remote executors, object shipping and kernel launches.";
  let description = [{
    The `executor` dialect models a program talking to one or more executor
    processes. A host function opens a session with `executor.open`, ships a
    cross-compiled object with `executor.send_binary`, and runs the kernels
    in it with `executor.launch` (synchronous), `executor.launch_async` +
    `executor.await` (asynchronous), or calls a symbol with a flat byte
    buffer interface through `executor.call`. `executor.close` releases the
    session. `convert-executor-to-llvm` lowers every op to one call of the
    `__catalyst__executor__*` runtime ABI.
  }];
  let useDefaultTypePrinterParser = 1;
}

class Executor_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Executor_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Executor_SessionType : Executor_Type<"Session", "session"> {
  let summary = "A handle to an open executor session.";
  let description = [{
    `!executor.session` is the value `executor.open` returns: one
    connection to one executor. Every other executor op takes it as its
    first operand. It lowers to an `i64` runtime handle.
  }];
}

def Executor_TokenType : Executor_Type<"Token", "token"> {
  let summary = "A handle to one launch that has not finished yet.";
  let description = [{
    `!executor.token` is produced by `executor.launch_async` and consumed by
    `executor.await`. It lowers to an `i64` runtime handle.
  }];
}

#endif // EXECUTOR_DIALECT_TD
