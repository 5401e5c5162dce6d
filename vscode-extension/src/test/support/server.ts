// executor-lsp-server, started for real and spoken to over stdio through
// vscode-jsonrpc (vscode-languageserver-protocol), the layer that
// vscode-languageclient itself sends its messages through.

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';

import type { CodeLens, Diagnostic, InitializeResult, ProtocolConnection } from 'vscode-languageserver-protocol/node';
import {
  CodeLensRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node';

import type { PreviewRequester, RerunRequester, StepTextRequester } from '../../core/previewService';
import { LANGUAGE_ID, PIPELINE_PREVIEW_METHOD, RERUN_FROM_METHOD, STEP_TEXT_METHOD } from '../../core/protocol';
import type { ServerLaunch } from '../../core/settings';

interface DiagnosticsWaiter {
  uri: string;
  accept: (diagnostics: Diagnostic[], version: number | undefined) => boolean;
  resolve: (diagnostics: Diagnostic[]) => void;
}

export class ServerSession {
  readonly connection: ProtocolConnection;
  readonly initializeResult: Promise<InitializeResult>;
  /** The last diagnostics published for each URI. */
  readonly diagnostics = new Map<string, { version: number | undefined; diagnostics: Diagnostic[] }>();
  private readonly waiters = new Set<DiagnosticsWaiter>();
  private stderr = '';
  private readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  /** Every server started and not yet ended, for `killAll`. */
  private static readonly live = new Set<ChildProcessWithoutNullStreams>();

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    launch: ServerLaunch,
  ) {
    ServerSession.live.add(child);
    this.exited = new Promise((resolve) => {
      const done = (code: number | null): void => {
        ServerSession.live.delete(child);
        this.exitCode = code;
        resolve(code);
      };
      child.once('exit', (code) => { done(code); });
      // spawn failed (ENOENT, EACCES): there is no process to wait for.
      child.once('error', (error) => {
        this.stderr += `\nspawn: ${error.message}`;
        done(null);
      });
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-20000);
    });
    this.connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.diagnostics.set(params.uri, { version: params.version, diagnostics: params.diagnostics });
      for (const waiter of [...this.waiters]) {
        if (waiter.uri === params.uri && waiter.accept(params.diagnostics, params.version)) {
          this.waiters.delete(waiter);
          waiter.resolve(params.diagnostics);
        }
      }
    });
    this.connection.listen();
    this.initializeResult = this.connection
      .sendRequest(InitializeRequest.type, {
        processId: process.pid,
        // Required by InitializeParams although deprecated; workspaceFolders is null too.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        rootUri: null,
        capabilities: {
          textDocument: {
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
            codeLens: {},
          },
        },
        initializationOptions: launch.initializationOptions,
        workspaceFolders: null,
      })
      .then(async (result) => {
        await this.connection.sendNotification(InitializedNotification.type, {});
        return result;
      });
  }

  /**
   * Starts the server at `serverPath` with the extension's arguments (and
   * `extraArgs`, the transport's). A server that exits or does not answer
   * `initialize` in time is killed, and the error says what it wrote.
   */
  static async start(serverPath: string, launch: ServerLaunch, extraArgs: string[] = [], timeoutMs = 30000): Promise<ServerSession> {
    const child = spawn(serverPath, [...launch.args, ...extraArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
    const session = new ServerSession(child, launch);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        session.initializeResult,
        session.exited.then((code) => {
          throw new Error(`${serverPath} exited with ${String(code)} before it answered initialize:\n${session.stderr}`);
        }),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => {
            reject(new Error(`${serverPath} did not answer initialize within ${timeoutMs} ms:\n${session.stderr}`));
          }, timeoutMs);
        }),
      ]);
    } catch (error) {
      child.kill('SIGKILL');
      await session.exited;
      session.connection.dispose();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return session;
  }

  /** Kills every server still running (a test that failed before its stop). */
  static killAll(): number {
    const count = ServerSession.live.size;
    for (const child of ServerSession.live) {
      child.kill('SIGKILL');
    }
    return count;
  }

  /** The server's exit code once it ended; undefined while it runs. */
  get exitStatus(): number | null | undefined {
    return this.exitCode;
  }

  /** The server's pid. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** What the server wrote on stderr (for failure messages). */
  get log(): string {
    return this.stderr;
  }

  /** `executor/pipelinePreview`, as the extension's preview model sends it. */
  readonly requestPreview: PreviewRequester = (params) => this.connection.sendRequest(PIPELINE_PREVIEW_METHOD, params);

  /** `executor/stepText`, as the extension's preview model sends it when a step is shown. */
  readonly requestStepText: StepTextRequester = (params) => this.connection.sendRequest(STEP_TEXT_METHOD, params);

  /** `executor/rerunFrom`, as the extension's preview model sends it. */
  readonly requestRerun: RerunRequester = (params) => this.connection.sendRequest(RERUN_FROM_METHOD, params);

  /** Any request, as the extension's file systems send them. */
  request(method: string, params: object): Promise<unknown> {
    return this.connection.sendRequest(method, params);
  }

  async open(uri: string, text: string, version = 1): Promise<void> {
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: LANGUAGE_ID, version, text },
    });
  }

  async change(uri: string, text: string, version: number): Promise<void> {
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  /**
   * The first diagnostics published for `uri` (from now, or the last ones
   * already published) that `accept` takes.
   */
  waitForDiagnostics(
    uri: string,
    accept: (diagnostics: Diagnostic[], version: number | undefined) => boolean,
    timeoutMs = 20000,
    includePublished = true,
  ): Promise<Diagnostic[]> {
    const published = this.diagnostics.get(uri);
    if (includePublished && published !== undefined && accept(published.diagnostics, published.version)) {
      return Promise.resolve(published.diagnostics);
    }
    return new Promise((resolve, reject) => {
      const waiter: DiagnosticsWaiter = {
        uri,
        accept,
        resolve: (diagnostics) => {
          clearTimeout(timer);
          resolve(diagnostics);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const last = this.diagnostics.get(uri);
        reject(
          new Error(
            `no matching diagnostics for ${uri} within ${timeoutMs} ms; last published: ` +
              `${JSON.stringify(last ?? null)}\nserver log:\n${this.stderr}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** `shutdown` and `exit`; kills the server if it does not exit in time. */
  async stop(): Promise<number | null> {
    if (this.exitCode !== undefined) {
      this.connection.dispose();
      return this.exitCode;
    }
    try {
      await Promise.race([
        this.connection.sendRequest(ShutdownRequest.type),
        new Promise((resolve) => setTimeout(resolve, 5000)),
      ]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // The server is gone already.
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    const code = await this.exited;
    clearTimeout(timer);
    this.connection.dispose();
    return code;
  }
}
