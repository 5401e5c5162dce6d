// The processes behind an executor-kernel debug session (no VS Code API):
// an executor-server started on this host with --debug-wait (one for the
// extension's lifetime, so it keeps serving between debug sessions), the
// program compiled with -g by executor-compile, run against it, and the
// wait for its session's "waiting for a debugger" line, which names the PID
// lldb-dap attaches to (kernelDebug.ts makes the attach configuration).

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
  type KernelDebugRequest,
  type WaitingSession,
  addressMap,
  attachConfiguration,
  compileArguments,
  dispatchAddress,
  findWaitingSession,
  parseListening,
  splitKernel,
} from './kernelDebug';
import { kernelArguments } from './kernelVariables';

/** executor-server --bind 127.0.0.1:0 --debug-wait, on this host. */
export class LocalExecutor {
  private stdout = '';
  private stderr = '';
  private exitCode: number | null | undefined;

  private constructor(
    readonly process: ChildProcess,
    readonly serverPath: string,
  ) {
    process.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    process.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    process.on('exit', (code) => (this.exitCode = code));
  }

  address = '';

  /** Starts one and waits (at most `timeoutMs`) for its "listening on" line. */
  static async start(serverPath: string, timeoutMs = 10000): Promise<LocalExecutor> {
    const child = spawn(serverPath, ['--bind', '127.0.0.1:0', '--debug-wait'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const executor = new LocalExecutor(child, serverPath);
    const spawnError = new Promise<Error>((resolve) => child.on('error', resolve));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const address = parseListening(executor.stdout);
      if (address) {
        executor.address = address;
        return executor;
      }
      const failed = await Promise.race([spawnError, delay(50).then(() => undefined)]);
      if (failed) {
        throw new Error(`${serverPath} did not start: ${failed.message}`);
      }
      if (executor.exitCode !== undefined || Date.now() > deadline) {
        executor.stop();
        throw new Error(`${serverPath} did not start listening:\n${executor.stderr}`);
      }
    }
  }

  /** Its log (its standard error) so far. */
  log(): string {
    return this.stderr;
  }

  running(): boolean {
    return this.exitCode === undefined;
  }

  stop(): void {
    if (this.running()) {
      this.process.kill('SIGTERM');
    }
  }
}

/** The compiled program, running against the executor. */
export class ProgramRun {
  output = '';
  readonly exited: Promise<number | null>;
  private done = false;

  constructor(readonly process: ChildProcess) {
    process.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    process.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => {
      process.on('error', (error) => {
        this.output += `${error.message}\n`;
        this.done = true;
        resolve(null);
      });
      process.on('exit', (code, signal) => {
        this.done = true;
        if (signal) {
          this.output += `(ended by ${signal})\n`;
        }
        resolve(code);
      });
    });
  }

  running(): boolean {
    return !this.done;
  }

  kill(): void {
    if (!this.done) {
      this.process.kill('SIGTERM');
    }
  }
}

export interface KernelDebugTools {
  /** executor-compile. */
  compiler: string;
  /** The executor on this host (started on first use), for a request without `executor`. */
  localExecutor: () => Promise<LocalExecutor>;
}

export interface PreparedKernelDebug {
  /** The lldb-dap attach configuration. */
  configuration: Record<string, unknown>;
  session: WaitingSession;
  run: ProgramRun;
  /** The executor's address the program runs against. */
  address: string;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function compile(compiler: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(compiler, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${path.basename(compiler)} ${args.join(' ')} failed:\n${stderr || stdout || error.message}`));
      } else {
        resolve();
      }
    });
  });
}

/**
 * Compiles `request.program` with -g into `workDir`, runs it against the
 * executor and waits (at most `timeoutMs`) until its session waits for a
 * debugger; returns the attach configuration for that session's PID. The
 * program keeps running (blocked in the session until a debugger comes).
 */
export async function prepareKernelDebug(
  request: KernelDebugRequest,
  tools: KernelDebugTools,
  workDir: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 60000,
): Promise<PreparedKernelDebug> {
  const names = splitKernel(request.kernel);
  if (!names) {
    throw new Error(`${request.kernel} is not @module::@entry`);
  }
  const text = fs.readFileSync(request.program, 'utf8');
  const dispatch = dispatchAddress(text, names.module);
  if (dispatch === undefined) {
    throw new Error(
      `module @${names.module} of ${request.program} has no catalyst.dispatch address: only a dispatched target's kernels run on an executor (and can be debugged there)`,
    );
  }
  fs.mkdirSync(workDir, { recursive: true });
  const executable = path.join(workDir, path.basename(request.program, '.mlir'));
  await compile(tools.compiler, compileArguments(request, executable));

  let address: string;
  let readLog: () => string;
  if (request.executor === '') {
    const local = await tools.localExecutor();
    address = local.address;
    readLog = () => local.log();
  } else {
    address = request.executor;
    readLog = () => {
      try {
        return fs.readFileSync(request.executorLog, 'utf8');
      } catch {
        return '';
      }
    };
  }
  const from = readLog().length;
  const child = spawn(executable, request.args, {
    cwd: path.dirname(request.program),
    env: { ...env, EXECUTOR_ADDRESS_MAP: addressMap(dispatch, address, env['EXECUTOR_ADDRESS_MAP']) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = new ProgramRun(child);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const session = findWaitingSession(readLog(), from);
    if (session) {
      let exe: string | undefined;
      try {
        exe = fs.readlinkSync(`/proc/${session.pid}/exe`);
      } catch {
        exe = undefined;
      }
      const args = kernelArguments(text, names.module, names.entry) ?? [];
      return { configuration: attachConfiguration(request, session, exe, args), session, run, address };
    }
    if (!run.running()) {
      throw new Error(
        `the program ended before a session waited for a debugger (is ${address} an executor-server started with --debug-wait?):\n${run.output}`,
      );
    }
    if (Date.now() > deadline) {
      run.kill();
      throw new Error(`no session of ${address} waited for a debugger within ${timeoutMs / 1000} s:\n${run.output}`);
    }
    await delay(100);
  }
}
