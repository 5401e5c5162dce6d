// The executor-kernel debugger's VS Code layer: the configuration provider
// that turns `{type: executor-kernel, request: launch, program, kernel,
// executor}` into lldb-dap's attach to the kernel's session (the work is in
// core/kernelDebug.ts and core/kernelDebugRun.ts), the adapter (LLVM's
// lldb-dap, found like the language server), the "Debug" lenses beside the
// server's "Launch" lenses, and the end of a debug session: the program's
// launch finishes (lldb-dap detached) and the local executor keeps serving.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import * as vscode from 'vscode';

import {
  DEBUG_TYPE,
  type KernelDebugRequest,
  lensDebugConfiguration,
  parseKernelDebugConfiguration,
  splitKernel,
  withDebugLenses,
} from './core/kernelDebug';
import { LocalExecutor, type ProgramRun, prepareKernelDebug } from './core/kernelDebugRun';
import { LldbDapChannel } from './core/dapProxy';
import { CONFIGURATION_SECTION, LANGUAGE_ID } from './core/protocol';
import { EXECUTOR_COMPILE, EXECUTOR_SERVER, LLDB_DAP, type ToolSpec, resolveToolPath } from './core/serverPath';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function findTool(tool: ToolSpec, extraRoots: string[] = []): string {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const configured = vscode.workspace.getConfiguration(CONFIGURATION_SECTION).get<string>(tool.setting) ?? '';
  const resolved = resolveToolPath(tool, { configured, workspaceFolders: folders, extraRoots, envPath: process.env['PATH'] ?? '' });
  if (!resolved.found) {
    throw new Error(resolved.message);
  }
  return resolved.path;
}

export class KernelDebugger implements vscode.DebugConfigurationProvider, vscode.DebugAdapterDescriptorFactory, vscode.Disposable {
  private local: Promise<LocalExecutor> | undefined;
  /** The running programs, by the PID of the session lldb-dap attaches to. */
  private readonly runs = new Map<number, ProgramRun>();

  constructor(private readonly output: vscode.LogOutputChannel) {}

  /** The executor-server --debug-wait on this host, started on first use and kept for the extension's lifetime. */
  private localExecutor(program: string): Promise<LocalExecutor> {
    const running = this.local;
    if (running) {
      return running.then(async (executor) => (executor.running() ? executor : this.startLocal(program)));
    }
    return this.startLocal(program);
  }

  private startLocal(program: string): Promise<LocalExecutor> {
    const server = findTool(EXECUTOR_SERVER, [path.dirname(program)]);
    this.output.info(`executor-kernel: starting ${server} --bind 127.0.0.1:0 --debug-wait`);
    this.local = LocalExecutor.start(server).then((executor) => {
      this.output.info(`executor-kernel: the local executor listens on ${executor.address} (pid ${executor.process.pid ?? '?'})`);
      return executor;
    });
    this.local.catch(() => (this.local = undefined));
    return this.local;
  }

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: DEBUG_TYPE, request: 'launch', name: 'Debug a kernel', program: '${file}', kernel: '@compute::@square', executor: '' }];
  }

  /** F5 without a launch.json: the open .mlir file, and the kernel asked for. */
  async resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
    if (!('type' in config) && !('request' in config) && !('name' in config)) {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.languageId !== LANGUAGE_ID) {
        void vscode.window.showErrorMessage('Executor Studio: open the .mlir program whose kernel to debug, or add an executor-kernel configuration to launch.json.');
        return undefined;
      }
      const kernel = await vscode.window.showInputBox({ prompt: 'The kernel to debug, as @module::@entry', placeHolder: '@compute::@square', validateInput: (v) => (splitKernel(v) ? undefined : 'as @module::@entry') });
      if (!kernel) {
        return undefined;
      }
      return lensDebugConfiguration(editor.document.uri.fsPath, kernel) as vscode.DebugConfiguration;
    }
    return config;
  }

  /** Compiles and runs the program, waits for its session, and attaches lldb-dap to it. */
  async resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): Promise<vscode.DebugConfiguration | undefined> {
    const parsed = parseKernelDebugConfiguration(config, folder?.uri.fsPath ?? process.cwd());
    if (typeof parsed === 'string') {
      void vscode.window.showErrorMessage(`Executor Studio: ${parsed}`);
      return undefined;
    }
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Debug ${parsed.kernel}: compiling with -g and waiting for its session`, cancellable: false },
        () => this.prepare(parsed),
      );
    } catch (error) {
      this.output.error(`executor-kernel: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`Executor Studio: debugging ${parsed.kernel}: ${errorMessage(error).split('\n')[0] ?? ''}`, 'Show Log').then((choice) => {
        if (choice === 'Show Log') {
          this.output.show();
        }
      });
      return undefined;
    }
  }

  private async prepare(request: KernelDebugRequest): Promise<vscode.DebugConfiguration> {
    // Check for the adapter before anything runs.
    findTool(LLDB_DAP);
    const compiler = findTool(EXECUTOR_COMPILE, [path.dirname(request.program)]);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'executor-kernel-'));
    const prepared = await prepareKernelDebug(request, { compiler, localExecutor: () => this.localExecutor(request.program) }, work);
    const { session, run } = prepared;
    this.output.info(`executor-kernel: ${request.program} runs against ${prepared.address}; its session (pid ${session.pid}) waits to launch ${session.kernel}: attaching lldb-dap`);
    const entry = splitKernel(request.kernel)?.entry;
    if (entry !== session.kernel) {
      this.output.warn(`executor-kernel: the session waits before launching ${session.kernel}, not ${entry}: the program launches it first on that executor`);
    }
    this.runs.set(session.pid, run);
    void run.exited.then((code) => {
      this.output.info(`executor-kernel: ${path.basename(request.program)} exited with ${code ?? 'no status'}; its output:\n${run.output}`);
      fs.rmSync(work, { recursive: true, force: true });
    });
    return prepared.configuration as vscode.DebugConfiguration;
  }

  createDebugAdapterDescriptor(): vscode.DebugAdapterDescriptor {
    const lldbDap = findTool(LLDB_DAP);
    this.output.info(`executor-kernel: the adapter is ${lldbDap}`);
    // A DebugAdapter is an interface to implement (its dispose is ours), not a vscode.Disposable to construct.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
    return new vscode.DebugAdapterInlineImplementation(new LldbDapAdapter(lldbDap, this.output));
  }

  /** The debug session ended (lldb-dap detached): the launch runs to its end; a program still running after 30 s is stopped. */
  sessionEnded(session: vscode.DebugSession): void {
    const marker = session.configuration['executorKernel'] as { pid?: number } | undefined;
    const pid = marker?.pid;
    const run = pid === undefined ? undefined : this.runs.get(pid);
    if (pid === undefined || !run) {
      return;
    }
    this.runs.delete(pid);
    const timer = setTimeout(() => {
      if (run.running()) {
        this.output.warn('executor-kernel: the program still runs 30 s after its debug session ended: stopping it (the executor keeps serving)');
        run.kill();
      }
    }, 30000);
    void run.exited.then(() => {
      clearTimeout(timer);
    });
  }

  dispose(): void {
    for (const run of this.runs.values()) {
      run.kill();
    }
    this.runs.clear();
    void this.local?.then((executor) => {
      executor.stop();
    }).catch(() => undefined);
  }
}

/**
 * lldb-dap, run by the extension: its messages go through StopFocus
 * (core/dapProxy.ts), so that VS Code shows the kernel's thread at a stop,
 * not the main thread that lldb says stopped with SIGSTOP.
 */
class LldbDapAdapter implements vscode.DebugAdapter {
  private readonly emitter = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.emitter.event;
  private readonly channel: LldbDapChannel;

  constructor(lldbDap: string, output: vscode.LogOutputChannel) {
    this.channel = new LldbDapChannel(
      lldbDap,
      (message) => {
        this.emitter.fire(message);
      },
      (line) => {
        output.info(line);
      },
    );
  }

  handleMessage(message: vscode.DebugProtocolMessage): void {
    this.channel.send(message);
  }

  dispose(): void {
    this.channel.dispose();
    this.emitter.dispose();
  }
}

/** The "Debug @m::@k" lenses, added to the server's lenses by the client's middleware. */
export function addDebugLenses(lenses: vscode.CodeLens[] | null | undefined, launchCommand: string): vscode.CodeLens[] | null | undefined {
  if (!lenses) {
    return lenses;
  }
  return withDebugLenses(lenses, launchCommand, (lens, command) => new vscode.CodeLens(lens.range, command));
}

export function registerKernelDebugger(output: vscode.LogOutputChannel): vscode.Disposable[] {
  const kernelDebugger = new KernelDebugger(output);
  return [
    new vscode.Disposable(() => {
      kernelDebugger.dispose();
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, kernelDebugger),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, kernelDebugger),
    vscode.debug.onDidTerminateDebugSession((session) => {
      if (session.type === DEBUG_TYPE) {
        kernelDebugger.sessionEnded(session);
      }
    }),
  ];
}

/** The "Debug" lens's (and the palette's) command: `{uri, kernel}`. */
export async function debugKernel(target: { uri: string; kernel: string }): Promise<void> {
  const uri = vscode.Uri.parse(target.uri);
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const started = await vscode.debug.startDebugging(folder, lensDebugConfiguration(uri.fsPath, target.kernel) as vscode.DebugConfiguration);
  if (!started) {
    throw new Error(`the debug session of ${target.kernel} did not start (the Executor Studio log says why)`);
  }
}
