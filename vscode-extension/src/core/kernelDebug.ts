// The executor-kernel debugger: a debug configuration `{type:
// executor-kernel, request: launch, program: <.mlir>, kernel: @m::@k,
// executor: <address or empty>}` becomes, once the program is compiled with
// -g, running against an executor-server started with --debug-wait and its
// session waiting for a debugger, an lldb-dap `attach` to that session's
// process (tests/e2e/lldb-dap-session.test runs the same attach). The pure
// part: no VS Code API, no processes (kernelDebugRun.ts runs them).

import * as path from 'node:path';

import type { KernelArgument } from './kernelVariables';
import { COMMANDS, isRecord } from './protocol';

export const DEBUG_TYPE = 'executor-kernel';
/** The command of the "Debug @m::@k" lens and of the palette. */
export const DEBUG_KERNEL_COMMAND = COMMANDS.debugKernel;

/**
 * The kernels are JIT-linked into the session: lldb learns of them (their
 * .mlir lines, their arguments) through the GDB JIT interface, which this
 * turns on (Linux's default, said explicitly: with it off the breakpoints
 * in the .mlir file stay unverified).
 */
export const JIT_LOADER_COMMAND = 'settings set plugin.jit-loader.gdb.enable on';

/**
 * The session has a PID namespace of its own, which does not see
 * lldb-server's PID: the SIGSTOPs with which lldb-server stops the other
 * threads reach them with si_pid 0, and lldb takes them for the program's
 * own signals (every other thread "stopped with signal SIGSTOP"; a step
 * that one interrupts loses its way: at -O2, `next` ran to the end of the
 * kernel). Once attached (the attach itself stops the process with a
 * SIGSTOP, so not in initCommands), SIGSTOP neither stops, nor notifies,
 * nor passes. tests/e2e/lldb-dap-session.test runs with it.
 */
export const SIGSTOP_COMMAND = 'process handle SIGSTOP --stop false --notify false --pass false';

export interface KernelDebugRequest {
  name: string;
  /** The .mlir host program (absolute). */
  program: string;
  /** `@module::@entry`. */
  kernel: string;
  /** The executor (`host:port`, `unix:PATH`); empty: one the extension starts on this host. */
  executor: string;
  /** With `executor`: the log of that executor-server (on this host), which names the session's PID. */
  executorLog: string;
  /** The kernels' optimisation level: -O0 (the default: steps and variables as written) to -O3. */
  optimization: string;
  /** Stop at the kernel's entry (a breakpoint on its name) besides the .mlir file's breakpoints. */
  stopAtKernel: boolean;
  /** The program's arguments. */
  args: string[];
  /** Passed to lldb-dap as is (build path -> local path), when set. */
  sourceMap?: unknown;
}

const KERNEL = /^@([^:\s]+)::@([^:\s]+)$/;

/** `@module::@entry`'s two names; undefined when `kernel` is not one. */
export function splitKernel(kernel: string): { module: string; entry: string } | undefined {
  const m = KERNEL.exec(kernel.trim());
  return m ? { module: m[1] ?? '', entry: m[2] ?? '' } : undefined;
}

/**
 * A launch configuration of type executor-kernel (its variables
 * substituted) as a request, or what is wrong with it. `cwd` resolves a
 * relative program.
 */
export function parseKernelDebugConfiguration(config: Record<string, unknown>, cwd: string): KernelDebugRequest | string {
  if (config['request'] !== 'launch') {
    return `an ${DEBUG_TYPE} configuration is a "launch" (of the program, whose session the debugger attaches to), not "${String(config['request'])}"`;
  }
  const program = config['program'];
  if (typeof program !== 'string' || program.trim() === '') {
    return '"program" is missing: the .mlir host program to compile with -g and run (e.g. "${file}")';
  }
  if (!program.endsWith('.mlir')) {
    return `"program" is ${program}: it must be a .mlir host program`;
  }
  const kernel = config['kernel'];
  if (typeof kernel !== 'string' || !splitKernel(kernel)) {
    return `"kernel" is ${JSON.stringify(kernel)}: it must name a dispatched kernel as @module::@entry (e.g. @compute::@square)`;
  }
  const executor = config['executor'] ?? '';
  if (typeof executor !== 'string') {
    return '"executor" must be a string: an address (host:port, unix:PATH), or empty for an executor-server started on this host';
  }
  const executorLog = config['executorLog'] ?? '';
  if (typeof executorLog !== 'string') {
    return '"executorLog" must be a string: the path of the executor\'s log';
  }
  if (executor.trim() !== '' && executorLog.trim() === '') {
    return `"executor" is ${executor}: the debugger attaches to that executor's session process, whose PID only its log names; ` +
      'give "executorLog" (the log of that executor-server, started with --debug-wait on this host), or leave "executor" empty for one started here';
  }
  const optimization = config['optimization'] ?? '-O0';
  if (typeof optimization !== 'string' || !/^-O[0-3]$/.test(optimization)) {
    return `"optimization" is ${JSON.stringify(optimization)}: it must be -O0, -O1, -O2 or -O3`;
  }
  const args = config['args'] ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    return '"args" must be an array of strings';
  }
  const request: KernelDebugRequest = {
    name: typeof config['name'] === 'string' ? config['name'] : `Debug ${kernel}`,
    program: path.resolve(cwd, program),
    kernel: kernel.trim(),
    executor: executor.trim(),
    executorLog: executorLog.trim() === '' ? '' : path.resolve(cwd, executorLog.trim()),
    optimization,
    stopAtKernel: config['stopAtKernel'] !== false,
    args,
  };
  if (config['sourceMap'] !== undefined) {
    request.sourceMap = config['sourceMap'];
  }
  return request;
}

/** executor-compile's arguments: the kernels with debug info, at the chosen level. */
export function compileArguments(request: KernelDebugRequest, output: string): string[] {
  return ['-g', request.optimization, request.program, '-o', output];
}

/**
 * The dispatch address of target `module` in the program's text (its
 * `catalyst.dispatch = {address = "..."}`), which EXECUTOR_ADDRESS_MAP maps
 * to the executor; undefined when the module has none.
 */
export function dispatchAddress(text: string, module: string): string | undefined {
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = new RegExp(`\\bmodule\\s+@${escaped}\\b`).exec(text);
  if (!start) {
    return undefined;
  }
  // Its attributes come before its body's first op.
  const rest = text.slice(start.index);
  const body = rest.search(/\bfunc\.func\b|\n\s*module\s+@/);
  const header = body > 0 ? rest.slice(0, body) : rest;
  const m = /catalyst\.dispatch\s*=\s*\{[^}]*\baddress\s*=\s*"([^"]*)"/.exec(header);
  return m ? m[1] : undefined;
}

/** EXECUTOR_ADDRESS_MAP with `dispatch` mapped to `executor` first. */
export function addressMap(dispatch: string, executor: string, existing: string | undefined): string {
  if (dispatch === executor) {
    return existing ?? '';
  }
  const mapping = `${dispatch}=${executor}`;
  return existing && existing !== '' ? `${mapping},${existing}` : mapping;
}

/** The address in executor-server's "listening on ADDRESS" line. */
export function parseListening(stdout: string): string | undefined {
  const m = /^listening on (\S+)$/m.exec(stdout);
  return m ? m[1] : undefined;
}

export interface WaitingSession {
  pid: number;
  /** The kernel the session waits to launch (its entry's name). */
  kernel: string;
}

/**
 * The first session of `log[from:]` that waits for a debugger
 * (executor-server --debug-wait: "waiting for a debugger before launching
 * KERNEL: pid N; ...").
 */
export function findWaitingSession(log: string, from = 0): WaitingSession | undefined {
  const m = /waiting for a debugger before launching (\S+): pid (\d+);/.exec(log.slice(from));
  return m ? { kernel: m[1] ?? '', pid: Number(m[2]) } : undefined;
}

/**
 * The debug configuration lldb-dap gets: an attach to the waiting session.
 * `args`: the kernel's arguments as the .mlir declares them
 * (kernelArguments), which the variables pane shows with their MLIR types
 * (KernelVariables, through the extension's channel to lldb-dap).
 */
export function attachConfiguration(
  request: KernelDebugRequest,
  session: WaitingSession,
  executable: string | undefined,
  args: KernelArgument[] = [],
): Record<string, unknown> {
  const entry = splitKernel(request.kernel)?.entry ?? '';
  const config: Record<string, unknown> = {
    type: DEBUG_TYPE,
    request: 'attach',
    name: request.name,
    pid: session.pid,
    initCommands: [JIT_LOADER_COMMAND],
    postRunCommands: [SIGSTOP_COMMAND],
    // What the extension reads back when the session ends.
    executorKernel: { kernel: request.kernel, program: request.program, pid: session.pid, arguments: args },
  };
  // The session's executable as this host sees it (lldb would otherwise
  // look for it through the session's own mounts, /proc/PID/root).
  if (executable) {
    config['program'] = executable;
  }
  if (request.stopAtKernel && entry !== '') {
    // A breakpoint on the kernel's name, resolved when its object is
    // registered; the .mlir file's own breakpoints come from the editor.
    config['preRunCommands'] = [`breakpoint set --name ${entry}`];
  }
  if (request.sourceMap !== undefined) {
    config['sourceMap'] = request.sourceMap;
  }
  return config;
}

/** A "Debug" lens beside each of the server's "Launch ... (debug build)" lenses. */
export interface DebugLensCommand {
  title: string;
  command: string;
  arguments?: unknown[];
}

export interface LensLike {
  range: unknown;
  command?: DebugLensCommand;
}

export function withDebugLenses<T extends LensLike>(lenses: readonly T[], launchCommand: string, make: (lens: T, debug: DebugLensCommand) => T): T[] {
  const result: T[] = [];
  for (const lens of lenses) {
    result.push(lens);
    const argument = lens.command?.command === launchCommand ? lens.command.arguments?.[0] : undefined;
    if (isRecord(argument) && typeof argument['kernel'] === 'string' && typeof argument['uri'] === 'string') {
      result.push(make(lens, { title: `Debug ${argument['kernel']}`, command: DEBUG_KERNEL_COMMAND, arguments: [argument] }));
    }
  }
  return result;
}

/** The launch configuration that a "Debug" lens (or the palette) starts. */
export function lensDebugConfiguration(file: string, kernel: string, executor = ''): Record<string, unknown> {
  return { type: DEBUG_TYPE, request: 'launch', name: `Debug ${kernel}`, program: file, kernel, executor };
}
