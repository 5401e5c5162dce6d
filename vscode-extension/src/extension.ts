// The VS Code layer, kept thin: it starts executor-lsp-server through
// vscode-languageclient, restarts it on a command and on a settings change,
// turns the preview model of src/core into a quick pick, read-only
// documents, `vscode.diff` and editable pass snapshots (whose save re-runs
// the rest of the pipeline), and shows .mlirbc files as text. Everything it
// decides is in src/core.

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

import * as vscode from 'vscode';
import type { LanguageClientOptions } from 'vscode-languageclient/node';
import { CancellationTokenSource, CloseAction, ErrorAction, LanguageClient } from 'vscode-languageclient/node';

import { bytecodeErrorMessage, conversionOutput, decodeBytecode } from './core/bytecode';
import { chunkAtLine } from './core/chunks';
import { LAUNCH_METHOD, describeLaunch, launchParams, parseLaunchResult, parseLaunchTarget } from './core/launch';
import { ServerLifecycle } from './core/lifecycle';
import type { HistoryRun, OpHistoryParams } from './core/opHistory';
import { ALIGNED_SNAPSHOTS_METHOD, OP_HISTORY_METHOD, OpHistoryService, historyItems, parseAlignedSnapshots } from './core/opHistory';
import { findLensSnapshot } from './core/preview';
import type { SourceLines } from './core/sourceLines';
import { LINK_COLOURS, SOURCE_LINES_METHOD, colourLinks, parseSourceLines, stepLinesOf } from './core/sourceLines';
import { registerGraphView } from './graphView';
import type { PassItem, PreviewLocation, PreviewRun, StepChoice, StepKind } from './core/previewService';
import { PipelinePreviewService, preferredChoice } from './core/previewService';
import type { PreviewDiagnostic } from './core/protocol';
import {
  ALIGNED_SCHEME,
  BYTECODE_SCHEME,
  BYTECODE_VIEW_TYPE,
  COMMANDS,
  CONFIGURATION_SECTION,
  CONVERT_FROM_BYTECODE_METHOD,
  CONVERT_TO_BYTECODE_METHOD,
  HISTORY_SCHEME,
  LANGUAGE_ID,
  LINKED_SCHEME,
  PIPELINE_PREVIEW_METHOD,
  PREVIEW_SCHEME,
  RERUN_FROM_METHOD,
  STEP_TEXT_METHOD,
  SNAPSHOT_SCHEME,
  parseLensTarget,
} from './core/protocol';
import type { ServerExit } from './core/serverProcess';
import { OutputTail, RestartPolicy, describeServerExit, transportArgs } from './core/serverProcess';
import { resolveServerPath } from './core/serverPath';
import { addDebugLenses, debugKernel, registerKernelDebugger } from './kernelDebugger';
import { RESTART_SETTINGS, readSettings, serverLaunch } from './core/settings';

let lifecycle: ServerLifecycle<LanguageClient> | undefined;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An AbortSignal that follows a VS Code cancellation token. */
function abortSignal(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
  } else {
    token.onCancellationRequested(() => { controller.abort(); });
  }
  return controller.signal;
}

function toUri(location: PreviewLocation, scheme: string = PREVIEW_SCHEME): vscode.Uri {
  return vscode.Uri.from({ scheme, path: location.path, query: location.query });
}

/** One executor-lsp-server process at a time for one client (the client restarts it through `spawn`). */
class ServerProcess {
  private child: ChildProcess | undefined;
  private startedAt = 0;
  private tail = new OutputTail();
  private exit: ServerExit | undefined;
  private exitWaiters: ((exit: ServerExit) => void)[] = [];

  constructor(
    readonly path: string,
    private readonly args: string[],
    private readonly cwd: string | undefined,
  ) {}

  /** Starts the server; vscode-languageclient talks to it over its stdin and stdout. */
  spawn(): ChildProcess {
    this.startedAt = Date.now();
    this.tail = new OutputTail();
    this.exit = undefined;
    const child = spawn(this.path, this.args, { cwd: this.cwd, stdio: 'pipe' });
    this.child = child;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => { this.tail.append(chunk); });
    child.once('error', (error) => { this.ended(child, { code: null, signal: null, spawnError: error.message }); });
    child.once('exit', (code, signal) => { this.ended(child, { code, signal }); });
    return child;
  }

  /** How the last process ended; waits up to `timeoutMs` for it to end. */
  async waitForExit(timeoutMs: number): Promise<ServerExit | undefined> {
    if (this.exit !== undefined || this.child === undefined) {
      return this.exit;
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => { resolve(this.exit); }, timeoutMs);
      this.exitWaiters.push((exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
  }

  /** Ends the process if it is still there after `graceMs` (after shutdown and exit). */
  async kill(graceMs: number): Promise<void> {
    if ((await this.waitForExit(graceMs)) === undefined) {
      this.child?.kill('SIGKILL');
    }
  }

  private ended(child: ChildProcess, how: Pick<ServerExit, 'code' | 'signal' | 'spawnError'>): void {
    if (child !== this.child || this.exit !== undefined) {
      return;
    }
    const exit: ServerExit = { path: this.path, uptimeMs: Date.now() - this.startedAt, stderr: this.tail.lines(), ...how };
    if (exit.spawnError === undefined) {
      delete exit.spawnError;
    }
    this.exit = exit;
    for (const waiter of this.exitWaiters.splice(0)) {
      waiter(exit);
    }
  }
}

/** What the user can do about a server that did not start or died. */
const FIX_ACTIONS = ['Open Settings', 'Show Log', 'Restart Server'] as const;

function offerFixes(output: vscode.LogOutputChannel, show: Thenable<string | undefined>): void {
  void show.then(async (choice) => {
    if (choice === 'Open Settings') {
      // In a remote window (code-server, SSH, containers) the server runs
      // on the remote machine: its path is a Remote setting, which the User
      // tab does not even list.
      const command = vscode.env.remoteName === undefined ? 'workbench.action.openSettings' : 'workbench.action.openRemoteSettings';
      await vscode.commands.executeCommand(command, { query: `${CONFIGURATION_SECTION}.serverPath` });
    } else if (choice === 'Show Log') {
      output.show();
    } else if (choice === 'Restart Server') {
      await vscode.commands.executeCommand(COMMANDS.restartServer);
    }
  });
}

const processes = new WeakMap<LanguageClient, ServerProcess>();
const restartPolicy = new RestartPolicy();

async function startClient(output: vscode.LogOutputChannel): Promise<LanguageClient> {
  const config = vscode.workspace.getConfiguration(CONFIGURATION_SECTION);
  const settings = readSettings((key) => config.get(key));
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  const openFiles = vscode.workspace.textDocuments
    .filter((doc) => doc.uri.scheme === 'file' && doc.languageId === LANGUAGE_ID)
    .map((doc) => path.dirname(doc.uri.fsPath));
  const resolved = resolveServerPath({
    configured: settings.serverPath,
    workspaceFolders: folders,
    extraRoots: openFiles,
    envPath: process.env['PATH'] ?? '',
  });
  if (!resolved.found) {
    output.error(`${resolved.message}\nLooked at:\n  ${resolved.tried.join('\n  ')}`);
    throw new Error(resolved.message);
  }
  const launch = serverLaunch(settings);
  // The arguments vscode-languageclient gives a stdio server, and the pid
  // the server watches so that it never outlives this extension host.
  const args = [...launch.args, ...transportArgs(process.pid)];
  output.info(`Starting ${resolved.path} ${args.join(' ')} (from ${resolved.source})`);
  const server = new ServerProcess(resolved.path, args, folders[0]);
  let started = false;
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
      // A .mlirbc file as text: mlir/convertToBytecode reads the open document.
      { scheme: BYTECODE_SCHEME, language: LANGUAGE_ID },
    ],
    outputChannel: output,
    initializationOptions: launch.initializationOptions,
    middleware: {
      // A "Debug @m::@k" lens (the executor-kernel debugger) beside each of
      // the server's "Launch @m::@k (debug build)" lenses.
      provideCodeLenses: async (document, token, next) => addDebugLenses(await next(document, token), COMMANDS.launchKernel),
    },
    initializationFailedHandler: (error) => {
      output.error(`executor-lsp-server did not initialize: ${errorMessage(error)}`);
      return false;
    },
    errorHandler: {
      error: (error, _message, count) => {
        output.error(`executor-lsp-server connection: ${error.message}`);
        return { action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
      },
      closed: async () => {
        const exit = await server.waitForExit(2000);
        const why = exit === undefined ? `${server.path} closed its connection` : describeServerExit(exit);
        if (!started) {
          // client.start() fails with this; restartServer says why.
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        if (restartPolicy.shouldRestart(Date.now(), exit?.uptimeMs ?? 0)) {
          output.warn(`executor-lsp-server stopped: ${why}. Restarting it.`);
          offerFixes(output, vscode.window.showWarningMessage(`Executor Studio: ${why}. The server was restarted.`, 'Show Log'));
          return { action: CloseAction.Restart, handled: true };
        }
        output.error(`executor-lsp-server stopped: ${why}. Not restarting it.`);
        offerFixes(
          output,
          vscode.window.showErrorMessage(
            `Executor Studio: the language server stopped: ${why}. Diagnostics, hover and the pipeline preview need it: ` +
              'restart it, or check executorStudio.serverPath and the log.',
            ...FIX_ACTIONS,
          ),
        );
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
  };
  const client = new LanguageClient(
    CONFIGURATION_SECTION,
    'Executor Studio',
    () => Promise.resolve(server.spawn()),
    clientOptions,
  );
  try {
    await client.start();
  } catch (error) {
    // Do not leave a half-started client (and its process) behind, and say
    // how the process ended rather than that the connection closed.
    const exit = await server.waitForExit(2000);
    await client.dispose(2000).catch(() => undefined);
    await server.kill(0);
    throw new Error(
      exit === undefined
        ? `${resolved.path} did not start: ${errorMessage(error)}`
        : `the language server did not start: ${describeServerExit(exit)}`,
    );
  }
  started = true;
  processes.set(client, server);
  return client;
}

/** Why the server did not start, with the way to the setting (unless the message names it already). */
function withServerPathAdvice(message: string): string {
  return message.includes('serverPath')
    ? message
    : `${message}. Set executorStudio.serverPath to a built executor-lsp-server; the log says more.`;
}

/** Says that the server did not start, with a way to the setting or the log. */
function reportStartFailure(output: vscode.LogOutputChannel, error: unknown): void {
  const message = errorMessage(error);
  output.error(`executor-lsp-server did not start: ${message}`);
  offerFixes(output, vscode.window.showErrorMessage(`Executor Studio: ${withServerPathAdvice(message)}`, ...FIX_ACTIONS));
}

async function restartServer(output: vscode.LogOutputChannel): Promise<void> {
  if (lifecycle === undefined) {
    return;
  }
  restartPolicy.reset();
  try {
    await lifecycle.restart();
  } catch (error) {
    reportStartFailure(output, error);
  }
}

/** The documents of the IR after each pass: read-only, made from the model. */
class PreviewDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly previews: PipelinePreviewService) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    try {
      return await this.previews.content({ path: uri.path, query: uri.query }, abortSignal(token));
    } catch (error) {
      return `// Executor Studio cannot show this preview: ${errorMessage(error)}\n`;
    }
  }
}

async function openPass(previews: PipelinePreviewService, run: PreviewRun, position: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(toUri(previews.location(run, position)));
  if (doc.languageId !== LANGUAGE_ID) {
    await vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
  }
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

/** The two texts of structural diffs, by path (`executor-aligned:`). */
class AlignedDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 1;

  /** Keeps `text` (the last 32 pairs) and names its document. */
  add(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: ALIGNED_SCHEME, path: `/${this.next++}/${name}` });
    this.texts.set(uri.path, text);
    while (this.texts.size > 64) {
      const oldest = this.texts.keys().next().value;
      if (oldest === undefined) {
        break;
      }
      this.texts.delete(oldest);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '// Executor Studio no longer keeps this text: compare the passes again.\n';
  }
}

/** Sends a request to the server (the preview's, the history's, the diff's). */
type Requester = (method: string, params: object, signal?: AbortSignal) => Promise<unknown>;

async function comparePass(previews: PipelinePreviewService, run: PreviewRun, position: number,
  aligned?: { documents: AlignedDocuments; send: Requester }): Promise<void> {
  const comparison = previews.comparison(run, position);
  if (comparison === undefined) {
    void vscode.window.showInformationMessage('The input has no pass before it to compare with.');
    return;
  }
  let left = toUri(comparison.left);
  let right = toUri(comparison.right);
  let title = comparison.title;
  // The structural diff: the server aligns the names of both texts. A re-run
  // is not the document's own pipeline (the server has only the document),
  // and the line diff is a setting.
  const lineDiff = vscode.workspace.getConfiguration(CONFIGURATION_SECTION).get<boolean>('preview.lineDiff') === true;
  const before = comparison.before;
  if (aligned !== undefined && run.basedOn === undefined && run.preview.edited === undefined && !lineDiff) {
    const params: Record<string, unknown> = {
      uri: run.source,
      chunk: run.chunk,
      left: previews.snapshotRef(run, before),
      right: previews.snapshotRef(run, position),
    };
    if (run.pipeline !== undefined) {
      params['pipeline'] = run.pipeline;
    }
    const reply = parseAlignedSnapshots(await aligned.send(ALIGNED_SNAPSHOTS_METHOD, params));
    left = aligned.documents.add(path.posix.basename(comparison.left.path), reply.left.text);
    right = aligned.documents.add(path.posix.basename(comparison.right.path), reply.right.text);
    title = reply.mode === 'structural' ? `${title} · structural` : `${title} · line diff`;
  }
  await vscode.commands.executeCommand('vscode.diff', left, right, title, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}

interface HistoryPickItem extends vscode.QuickPickItem {
  step: number;
}

/** How the lines an op became are marked in a history document. */
const historyHighlight = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Center,
});

/** Opens step `step` of a history with the op's lines selected and marked. */
async function openHistoryStep(histories: OpHistoryService, run: HistoryRun, step: number): Promise<void> {
  const location = histories.location(run, step);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: HISTORY_SCHEME, path: location.path, query: location.query }));
  if (doc.languageId !== LANGUAGE_ID && location.path.endsWith('.mlir')) {
    await vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
  }
  const ranges = (run.history.steps[step]?.ranges ?? []).map((r) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character));
  const editor = await vscode.window.showTextDocument(doc, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
    selection: ranges[0] ?? new vscode.Range(0, 0, 0, 0),
  });
  editor.setDecorations(historyHighlight, ranges);
}

/** The pass list of an op's history: each pass with the lines the op became. */
function pickHistoryStep(histories: OpHistoryService, run: HistoryRun): Promise<void> {
  const pick = vscode.window.createQuickPick<HistoryPickItem>();
  pick.title = OpHistoryService.title(run);
  pick.placeholder = 'Enter: the IR after the pass, with the lines the op became marked';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = historyItems(run.history).map((item): HistoryPickItem => {
    const icon = !item.present ? '$(circle-slash)' : item.nested ? '$(symbol-method)' : '$(history)';
    const result: HistoryPickItem = { step: item.step, label: `${icon} ${item.label}`, description: item.description };
    if (item.detail !== '') {
      result.detail = item.detail;
    }
    return result;
  });
  const first = pick.items.findIndex((item, i) => i > 0 && (run.history.steps[item.step]?.lines.length ?? 0) > 0);
  const active = pick.items[first];
  if (active !== undefined) {
    pick.activeItems = [active];
  }
  return runQuickPick(pick, (chosen) => openHistoryStep(histories, run, chosen.step));
}

/**
 * Shows `pick`: the item accepted runs `onAccept`, an item's button
 * `onButton`, each after the pick is hidden; a failure is shown as an error.
 * Resolves when the pick is gone and its action is done.
 */
function runQuickPick<T extends vscode.QuickPickItem>(
  pick: vscode.QuickPick<T>,
  onAccept: (chosen: T) => Promise<void>,
  onButton?: (event: vscode.QuickPickItemButtonEvent<T>) => Promise<void>,
): Promise<void> {
  return new Promise((resolve) => {
    const run = (action: Promise<void>): void => {
      action.then(resolve, (error: unknown) => {
        void vscode.window.showErrorMessage(`Executor Studio: ${errorMessage(error)}`);
        resolve();
      });
    };
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      pick.hide();
      if (chosen !== undefined) {
        run(onAccept(chosen));
      }
    });
    if (onButton !== undefined) {
      pick.onDidTriggerItemButton((event) => {
        pick.hide();
        run(onButton(event));
      });
    }
    pick.onDidHide(() => {
      pick.dispose();
      resolve();
    });
    pick.show();
  });
}

/**
 * "Show This Op after Each Pass": the op at the cursor of a .mlir file, of
 * a pass in the preview, or of a step of another history.
 */
/** The texts of the steps shown linked to their source, by URI. */
class LinkedDocuments implements vscode.TextDocumentContentProvider {
  readonly texts = new Map<string, string>();
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** One colour a link rank (both editors), and the lines at the cursor. */
const linkDecorations = LINK_COLOURS.map((colour) =>
  vscode.window.createTextEditorDecorationType({ backgroundColor: colour, isWholeLine: true }));
const cursorDecoration = vscode.window.createTextEditorDecorationType({
  isWholeLine: true, borderWidth: '1px 0', borderStyle: 'solid', borderColor: 'rgba(255, 255, 255, 0.6)',
});
let linkedFollow: vscode.Disposable | undefined;
let lastLinkedStep: number | string | undefined;

/**
 * The steps of the recording of the document in `editor` (the pipeline
 * preview's run of the chunk at its cursor), of `kinds` (all: undefined),
 * in a pick; `preferred` (the last one chosen) is the active item. The one
 * chosen, or undefined.
 */
async function pickStep(previews: PipelinePreviewService, editor: vscode.TextEditor, title: string,
  kinds: readonly StepKind[] | undefined, preferred: number | string | undefined): Promise<StepChoice | undefined> {
  const chunk = chunkAtLine(editor.document.getText(), editor.selection.active.line);
  const run = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Executor: running the pipeline…', cancellable: true },
    async (_progress, token) => {
      try {
        return await previews.run(editor.document.uri.toString(), chunk, abortSignal(token));
      } catch (error) {
        if (token.isCancellationRequested) {
          return undefined;
        }
        throw error;
      }
    },
  );
  if (run === undefined) {
    return undefined;
  }
  const why = PipelinePreviewService.whyEmpty(run);
  if (why !== undefined) {
    void vscode.window.showErrorMessage(`Executor: ${why}`);
    return undefined;
  }
  const choices = previews.stepChoices(run, kinds);
  type Item = vscode.QuickPickItem & { choice: StepChoice };
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = `${previews.listTitle(run)}: ${title}`;
  pick.matchOnDescription = true;
  pick.items = choices.map((choice): Item => ({ label: choice.label, description: choice.description, choice }));
  const active = preferredChoice(choices, preferred);
  const activeItem = pick.items.find((item) => item.choice === active);
  if (activeItem !== undefined) {
    pick.activeItems = [activeItem];
  }
  let chosen: StepChoice | undefined;
  await runQuickPick(pick, (item) => {
    chosen = item.choice;
    return Promise.resolve();
  });
  return chosen;
}

/**
 * Executor: Show a Step Linked to the Source. The step (a kernel's `asm` or
 * `llvm`, or any step) beside the .mlir file, each source line and the
 * lines it became in one colour (`executor/sourceLines`, the studio's
 * linked view); the cursor's line marks its lines there and brings them
 * into sight.
 */
async function showLinkedStep(send: (method: string, params: object) => Promise<unknown>,
  linked: LinkedDocuments, previews: PipelinePreviewService): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId !== LANGUAGE_ID || editor.document.uri.scheme !== 'file') {
    void vscode.window.showWarningMessage('Executor: Show a Step Linked to the Source needs a .mlir file in the editor.');
    return;
  }
  const chosen = await pickStep(previews, editor, 'the step to link to the source', undefined, lastLinkedStep ?? 'asm');
  if (chosen === undefined) {
    return;
  }
  lastLinkedStep = chosen.ref;
  const source = editor.document;
  const chunk = chunkAtLine(source.getText(), editor.selection.active.line);
  const snapshot = chosen.ref;
  const lines: SourceLines = parseSourceLines(await send(SOURCE_LINES_METHOD, { uri: source.uri.toString(), chunk, snapshot }));
  const extension = lines.kind === 'asm' ? 's' : lines.kind === 'llvm' ? 'll' : 'mlir';
  const uri = vscode.Uri.from({ scheme: LINKED_SCHEME, path: `/${lines.name.replace(/\//g, '.')}.${extension}`, query: source.uri.toString() });
  linked.texts.set(uri.toString(), lines.text);
  const stepEditor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri),
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  const colours = colourLinks(lines);
  const ranges = (list: number[] | undefined, doc: vscode.TextDocument): vscode.Range[] =>
    (list ?? []).filter((l) => l < doc.lineCount).map((l) => doc.lineAt(l).range);
  linkDecorations.forEach((decoration, c) => {
    editor.setDecorations(decoration, ranges(colours.source[c], source));
    stepEditor.setDecorations(decoration, ranges(colours.step[c], stepEditor.document));
  });
  const follow = (line: number): void => {
    const targets = stepLinesOf(lines, line);
    stepEditor.setDecorations(cursorDecoration, ranges(targets, stepEditor.document));
    editor.setDecorations(cursorDecoration, targets.length > 0 ? ranges([line], source) : []);
    const first = targets[0];
    if (first !== undefined && first < stepEditor.document.lineCount) {
      stepEditor.revealRange(stepEditor.document.lineAt(first).range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  };
  linkedFollow?.dispose();
  linkedFollow = vscode.window.onDidChangeTextEditorSelection((event) => {
    if (event.textEditor.document.uri.toString() === source.uri.toString()) {
      follow(event.selections[0]?.active.line ?? 0);
    }
  });
  follow(editor.selection.active.line);
}

async function showOpHistory(previews: PipelinePreviewService, histories: OpHistoryService, argument: unknown): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const uri = argument instanceof vscode.Uri ? argument : editor?.document.uri;
  if (uri === undefined || editor?.document.uri.toString() !== uri.toString()) {
    void vscode.window.showWarningMessage('Executor: Show This Op after Each Pass needs the cursor on an op of a .mlir file.');
    return;
  }
  const cursor = editor.selection.active;
  let params: OpHistoryParams;
  if (uri.scheme === HISTORY_SCHEME) {
    params = histories.followFrom({ path: uri.path, query: uri.query }, cursor.line);
  } else if (uri.scheme === PREVIEW_SCHEME) {
    const { run, position } = await previews.resolve({ path: uri.path, query: uri.query });
    if (previews.kindAt(run, position) !== 'mlir') {
      void vscode.window.showWarningMessage("Executor: an op's history starts at an op of the MLIR (the .mlir file, or an MLIR pass of the preview).");
      return;
    }
    params = {
      uri: run.source,
      chunk: run.chunk,
      snapshot: previews.snapshotRef(run, position),
      line: cursor.line - PipelinePreviewService.headerLines(run, position),
      previewLine: true,
    };
    if (run.pipeline !== undefined) {
      params.pipeline = run.pipeline;
    }
  } else if (editor.document.languageId === LANGUAGE_ID) {
    params = { uri: uri.toString(), position: { line: cursor.line, character: cursor.character } };
  } else {
    void vscode.window.showWarningMessage('Executor: Show This Op after Each Pass needs the cursor on an op of a .mlir file.');
    return;
  }
  const run = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Executor: following the op through the pipeline…', cancellable: true },
    async (_progress, token) => {
      try {
        return await histories.follow(params, abortSignal(token));
      } catch (error) {
        if (token.isCancellationRequested) {
          return undefined;
        }
        throw error;
      }
    },
  );
  if (run === undefined) {
    return;
  }
  await pickHistoryStep(histories, run);
}

interface PassPickItem extends vscode.QuickPickItem {
  pass: PassItem;
}

const COMPARE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('diff'),
  tooltip: 'Compare with previous pass',
};

const EDIT_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('edit'),
  tooltip: 'Edit this IR and re-run the passes after it (on save)',
};

/** Opens the editable snapshot of the IR after `position`: saving it re-runs the passes after it. */
async function editPass(previews: PipelinePreviewService, run: PreviewRun, position: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(toUri(previews.location(run, position, true), SNAPSHOT_SCHEME));
  if (doc.languageId !== LANGUAGE_ID) {
    await vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
  }
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
}

/** What the structural diff needs: where its texts live and how to ask the server. */
let alignedContext: { documents: AlignedDocuments; send: Requester } | undefined;

function pickPass(previews: PipelinePreviewService, run: PreviewRun): Promise<void> {
  const pick = vscode.window.createQuickPick<PassPickItem>();
  pick.title = `${previews.listTitle(run)}: the IR after which pass?`;
  pick.placeholder = 'Enter: the IR after the pass · buttons: compare with the pass before, edit and re-run';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = previews.passItems(run).map((pass): PassPickItem => {
    const icon = pass.edited
      ? '$(edit)'
      : pass.position < 0 ? '$(file-code)' : pass.failed ? '$(error)' : pass.changed ? '$(diff-modified)' : '$(circle-outline)';
    const item: PassPickItem = { pass, label: `${icon} ${pass.label}`, description: pass.description };
    if (pass.detail !== '') {
      item.detail = pass.detail;
    }
    // A target's own step is compared, not edited (its pass is).
    item.buttons = pass.parent !== undefined ? [COMPARE_BUTTON] : pass.position >= 0 ? [COMPARE_BUTTON, EDIT_BUTTON] : [EDIT_BUTTON];
    return item;
  });
  return runQuickPick(
    pick,
    (chosen) => openPass(previews, run, chosen.pass.position),
    (event) => event.button === EDIT_BUTTON
      ? editPass(previews, run, event.item.pass.position)
      : comparePass(previews, run, event.item.pass.position, alignedContext),
  );
}

async function showPipelinePreview(previews: PipelinePreviewService, argument: unknown): Promise<void> {
  const lens = parseLensTarget(argument);
  let source: string;
  let chunk: number;
  if (lens !== undefined) {
    source = lens.uri;
    chunk = lens.chunk;
  } else {
    const editor = vscode.window.activeTextEditor;
    const doc = argument instanceof vscode.Uri ? await vscode.workspace.openTextDocument(argument) : editor?.document;
    if (doc?.languageId !== LANGUAGE_ID || doc.uri.scheme === PREVIEW_SCHEME) {
      void vscode.window.showWarningMessage('Executor: Show Pipeline Preview needs an open .mlir file.');
      return;
    }
    source = doc.uri.toString();
    chunk = editor?.document === doc ? chunkAtLine(doc.getText(), editor.selection.active.line) : 0;
  }
  const run = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Executor: running the pipeline…', cancellable: true },
    async (_progress, token) => {
      try {
        return await previews.run(source, chunk, abortSignal(token));
      } catch (error) {
        if (token.isCancellationRequested) {
          return undefined; // The user cancelled: nothing to say.
        }
        throw error;
      }
    },
  );
  if (run === undefined) {
    return;
  }
  const why = PipelinePreviewService.whyEmpty(run);
  if (why !== undefined) {
    void vscode.window.showErrorMessage(`Executor: ${why}`);
    return;
  }
  const position = lens === undefined ? undefined : findLensSnapshot(run.preview, lens);
  if (position !== undefined) {
    await openPass(previews, run, position);
    return;
  }
  await pickPass(previews, run);
}

async function compareWithPrevious(previews: PipelinePreviewService, argument: unknown): Promise<void> {
  const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== PREVIEW_SCHEME) {
    void vscode.window.showWarningMessage('Open a pass of the pipeline preview first (Executor: Show Pipeline Preview).');
    return;
  }
  const { run, position } = await previews.resolve({ path: uri.path, query: uri.query });
  await comparePass(previews, run, position, alignedContext);
}

async function editFromPreview(previews: PipelinePreviewService, argument: unknown): Promise<void> {
  const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== PREVIEW_SCHEME) {
    void vscode.window.showWarningMessage('Open a pass of the pipeline preview first (Executor: Show Pipeline Preview).');
    return;
  }
  const { run, position } = await previews.resolve({ path: uri.path, query: uri.query });
  await editPass(previews, run, position);
}

function toDiagnostic(diagnostic: PreviewDiagnostic): vscode.Diagnostic {
  const { start, end } = diagnostic.range;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  const severities = [vscode.DiagnosticSeverity.Error, vscode.DiagnosticSeverity.Error, vscode.DiagnosticSeverity.Warning,
    vscode.DiagnosticSeverity.Information, vscode.DiagnosticSeverity.Hint];
  const message = diagnostic.pass === undefined ? diagnostic.message : `${diagnostic.pass}: ${diagnostic.message}`;
  const result = new vscode.Diagnostic(range, message, severities[diagnostic.severity] ?? vscode.DiagnosticSeverity.Error);
  result.source = diagnostic.source ?? 'executor-rerun';
  return result;
}

/**
 * The editable pass snapshots (`executor-snapshot:`): files in memory, made
 * from the preview run they name; writing one (a save) re-runs the passes
 * after it through `onSave`.
 */
class SnapshotFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; ctime: number; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(
    private readonly previews: PipelinePreviewService,
    private readonly onSave: (uri: vscode.Uri, text: string) => void,
  ) {}

  private async load(uri: vscode.Uri): Promise<{ data: Uint8Array; ctime: number; mtime: number }> {
    const key = uri.toString();
    const known = this.files.get(key);
    if (known !== undefined) {
      return known;
    }
    let text: string;
    try {
      text = await this.previews.editableText({ path: uri.path, query: uri.query });
    } catch (error) {
      throw vscode.FileSystemError.FileNotFound(`${uri.path}: ${errorMessage(error)}`);
    }
    const now = Date.now();
    const file = { data: new TextEncoder().encode(text), ctime: now, mtime: now };
    this.files.set(key, file);
    return file;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const file = await this.load(uri);
    return { type: vscode.FileType.File, ctime: file.ctime, mtime: file.mtime, size: file.data.byteLength };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(uri)).data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const key = uri.toString();
    const now = Date.now();
    const ctime = this.files.get(key)?.ctime ?? now;
    this.files.set(key, { data: content, ctime, mtime: Math.max(now, (this.files.get(key)?.mtime ?? 0) + 1) });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.onSave(uri, new TextDecoder().decode(content));
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/** Re-runs the passes after an edited snapshot and shows the outcome. */
async function rerunSnapshot(
  previews: PipelinePreviewService,
  diagnostics: vscode.DiagnosticCollection,
  output: vscode.LogOutputChannel,
  uri: vscode.Uri,
  text: string,
): Promise<void> {
  const { run: base, position } = await previews.resolve({ path: uri.path, query: uri.query });
  const passName = position < 0 ? 'the input' : `${position + 1}. ${base.preview.snapshots[position]?.pass ?? 'pass'}`;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Executor: re-running the pipeline after ${passName}…`, cancellable: true },
    async (_progress, token) => {
      try {
        return await previews.rerun(base, position, text, uri.toString(), abortSignal(token));
      } catch (error) {
        if (token.isCancellationRequested) {
          return undefined;
        }
        throw error;
      }
    },
  );
  if (outcome === undefined) {
    return;
  }
  diagnostics.set(uri, outcome.diagnostics.map(toDiagnostic));
  const rest = outcome.result.remainingPipeline ?? '';
  output.info(`Re-ran after ${passName} of ${base.source}: ${outcome.run === undefined ? 'the edited IR has errors' : outcome.run.preview.succeeded ? 'succeeded' : 'a pass failed'}` +
    (rest === '' ? '' : `; executor-opt --pass-pipeline='${rest}' on the saved snapshot reproduces it`));
  if (outcome.run === undefined) {
    const count = outcome.diagnostics.length;
    void vscode.window.showWarningMessage(
      `Executor: the edited IR after ${passName} has ${count} error${count === 1 ? '' : 's'} (see Problems): the passes after it did not run.`,
    );
    return;
  }
  await pickPass(previews, outcome.run);
}

/**
 * A .mlirbc file as text (`mlir.bytecode-mlir:`), as vscode-mlir does it:
 * the server reads the file, and writes the open document back as bytecode.
 * Everything but reading and writing goes to the file itself.
 */
class BytecodeFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(private readonly client: () => Promise<LanguageClient>) {}

  private static file(uri: vscode.Uri): vscode.Uri {
    return uri.with({ scheme: 'file' });
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): Thenable<vscode.FileStat> {
    return vscode.workspace.fs.stat(BytecodeFileSystem.file(uri));
  }

  readDirectory(uri: vscode.Uri): Thenable<[string, vscode.FileType][]> {
    return vscode.workspace.fs.readDirectory(BytecodeFileSystem.file(uri));
  }

  createDirectory(uri: vscode.Uri): Thenable<void> {
    return vscode.workspace.fs.createDirectory(BytecodeFileSystem.file(uri));
  }

  delete(uri: vscode.Uri, options: { recursive: boolean }): Thenable<void> {
    return vscode.workspace.fs.delete(BytecodeFileSystem.file(uri), options);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): Thenable<void> {
    return vscode.workspace.fs.rename(BytecodeFileSystem.file(oldUri), BytecodeFileSystem.file(newUri), options);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    try {
      const client = await this.client();
      const reply: unknown = await client.sendRequest(CONVERT_FROM_BYTECODE_METHOD, { uri: uri.toString() });
      return new TextEncoder().encode(conversionOutput(CONVERT_FROM_BYTECODE_METHOD, reply));
    } catch (error) {
      const message = bytecodeErrorMessage('read', uri.fsPath, error);
      void vscode.window.showErrorMessage(message);
      throw vscode.FileSystemError.Unavailable(message);
    }
  }

  async writeFile(uri: vscode.Uri): Promise<void> {
    try {
      const client = await this.client();
      const reply: unknown = await client.sendRequest(CONVERT_TO_BYTECODE_METHOD, { uri: uri.toString() });
      const bytes = decodeBytecode(conversionOutput(CONVERT_TO_BYTECODE_METHOD, reply));
      await vscode.workspace.fs.writeFile(BytecodeFileSystem.file(uri), bytes);
    } catch (error) {
      const message = bytecodeErrorMessage('save', uri.fsPath, error);
      void vscode.window.showErrorMessage(message);
      throw vscode.FileSystemError.Unavailable(message);
    }
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
}

/** Opening a .mlirbc file: this editor closes itself and shows the file as text (`mlir.bytecode-mlir:`). */
class BytecodeEditorProvider implements vscode.CustomReadonlyEditorProvider {
  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const column = panel.viewColumn;
    panel.dispose();
    // 'default': the text editor (this custom editor's pattern matches the scheme's name too).
    await vscode.commands.executeCommand('vscode.openWith', document.uri.with({ scheme: BYTECODE_SCHEME }), 'default', column);
  }
}

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Executor Studio', { log: true });
  const current = new ServerLifecycle<LanguageClient>({
    start: () => startClient(output),
    stop: async (client) => {
      try {
        if (client.needsStop()) {
          await client.stop(5000);
        }
      } catch (error) {
        output.warn(`executor-lsp-server did not stop cleanly: ${errorMessage(error)}`);
      }
      await processes.get(client)?.kill(2000);
    },
  });
  lifecycle = current;

  // A server that stopped (and was not restarted) is started again here;
  // when that fails, the command shows why.
  const runningClient = async (purpose: string): Promise<LanguageClient> => {
    let client = current.current;
    if (client?.isRunning() !== true) {
      output.info(`executor-lsp-server is not running: starting it for ${purpose}.`);
      restartPolicy.reset();
      try {
        client = await current.restart();
      } catch (error) {
        output.error(`executor-lsp-server did not start: ${errorMessage(error)}`);
        const message = errorMessage(error);
        throw new Error(withServerPathAdvice(message));
      }
    }
    if (client === undefined) {
      throw new Error('executor-lsp-server is not running');
    }
    return client;
  };
  const send = async (method: string, params: object, signal?: AbortSignal): Promise<unknown> => {
    const client = await runningClient(method === RERUN_FROM_METHOD ? 'the re-run' : method === OP_HISTORY_METHOD ? "the op's history" : 'the pipeline preview');
    const cancel = new CancellationTokenSource();
    signal?.addEventListener('abort', () => { cancel.cancel(); });
    try {
      return await client.sendRequest(method, params, cancel.token);
    } finally {
      cancel.dispose();
    }
  };
  const previews = new PipelinePreviewService(
    (params, signal) => send(PIPELINE_PREVIEW_METHOD, params, signal),
    8,
    (params, signal) => send(RERUN_FROM_METHOD, params, signal),
    (params, signal) => send(STEP_TEXT_METHOD, params, signal),
  );
  const histories = new OpHistoryService((params, signal) => send(OP_HISTORY_METHOD, params, signal));
  const alignedDocuments = new AlignedDocuments();
  const linkedDocuments = new LinkedDocuments();
  alignedContext = { documents: alignedDocuments, send };
  const rerunDiagnostics = vscode.languages.createDiagnosticCollection('executor-rerun');
  const snapshots = new SnapshotFileSystem(previews, (uri, text) => {
    rerunSnapshot(previews, rerunDiagnostics, output, uri, text).catch((error: unknown) => {
      output.error(`re-run of ${uri.path}: ${errorMessage(error)}`);
      offerFixes(output, vscode.window.showErrorMessage(`Executor Studio: ${errorMessage(error)}`, 'Show Log'));
    });
  });

  const run = (action: () => Promise<void>) => async (): Promise<void> => {
    try {
      await action();
    } catch (error) {
      output.error(errorMessage(error));
      offerFixes(output, vscode.window.showErrorMessage(`Executor Studio: ${errorMessage(error)}`, 'Show Log'));
    }
  };

  context.subscriptions.push(
    output,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, new PreviewDocuments(previews)),
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, {
      provideTextDocumentContent: (uri: vscode.Uri): string => {
        try {
          return histories.content({ path: uri.path, query: uri.query });
        } catch (error) {
          return `// Executor Studio cannot show this history: ${errorMessage(error)}\n`;
        }
      },
    }),
    vscode.workspace.registerTextDocumentContentProvider(ALIGNED_SCHEME, alignedDocuments),
    vscode.workspace.registerTextDocumentContentProvider(LINKED_SCHEME, linkedDocuments),
    vscode.commands.registerCommand(COMMANDS.showLinkedStep, () =>
      run(() => showLinkedStep(send, linkedDocuments, previews))(),
    ),
    { dispose: () => { linkedFollow?.dispose(); } },
    vscode.commands.registerCommand(COMMANDS.showOpHistory, (argument: unknown) =>
      run(() => showOpHistory(previews, histories, argument))(),
    ),
    vscode.commands.registerCommand(COMMANDS.showPipelinePreview, (argument: unknown) =>
      run(() => showPipelinePreview(previews, argument))(),
    ),
    vscode.commands.registerCommand(COMMANDS.comparePipelinePass, (argument: unknown) =>
      run(() => compareWithPrevious(previews, argument))(),
    ),
    vscode.commands.registerCommand(COMMANDS.editPipelinePass, (argument: unknown) =>
      run(() => editFromPreview(previews, argument))(),
    ),
    vscode.commands.registerCommand(COMMANDS.rerunFromPass, (argument: unknown) =>
      run(async () => {
        const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri?.toString());
        if (uri?.scheme !== SNAPSHOT_SCHEME || doc === undefined) {
          void vscode.window.showWarningMessage('Open an edited pass first (the edit button of the pass list, or Executor: Edit This Pass).');
          return;
        }
        // Saving re-runs (SnapshotFileSystem.writeFile); an unchanged one re-runs as it is.
        if (doc.isDirty) {
          await doc.save();
        } else {
          await rerunSnapshot(previews, rerunDiagnostics, output, uri, doc.getText());
        }
      })(),
    ),
    vscode.commands.registerCommand(COMMANDS.restartServer, () => restartServer(output)),
    ...registerGraphView(send, (error: unknown) => { output.error(`graph: ${errorMessage(error)}`); },
      async (editor, current) => (await pickStep(previews, editor, 'the step to draw', ['mlir'], current))?.ref),
    ...registerKernelDebugger(output),
    vscode.commands.registerCommand(COMMANDS.debugKernel, (argument: unknown) =>
      run(async () => {
        // From a "Debug" lens: its kernel; from the palette: the one typed, in the open file.
        let target = parseLaunchTarget(argument);
        if (!target) {
          const uri = vscode.window.activeTextEditor?.document.uri.toString() ?? '';
          const kernel = await vscode.window.showInputBox({
            prompt: 'The kernel to debug, as @module::@entry',
            value: context.workspaceState.get<string>('executor.launch.kernel') ?? '',
          });
          if (kernel === undefined) {
            return;
          }
          target = parseLaunchTarget({ uri, kernel });
          if (!target) {
            throw new Error(`${kernel} is not @module::@entry, or no .mlir file is open`);
          }
        }
        await debugKernel(target);
      })(),
    ),
    vscode.commands.registerCommand(COMMANDS.launchKernel, (argument: unknown) =>
      run(async () => {
        // From a "Launch" lens: its kernel; from the palette: the one typed.
        let target = parseLaunchTarget(argument);
        if (target === undefined) {
          const uri = vscode.window.activeTextEditor?.document.uri.toString();
          const kernel = await vscode.window.showInputBox({
            prompt: 'The kernel to launch, as @module::@entry',
            value: context.workspaceState.get<string>('executor.launch.kernel') ?? '',
          });
          target = parseLaunchTarget({ uri, kernel });
          if (target === undefined) {
            return;
          }
        }
        await context.workspaceState.update('executor.launch.kernel', target.kernel);
        const address = await vscode.window.showInputBox({
          prompt: `The executor for ${target.kernel} (empty: its target's catalyst.dispatch address, mapped by EXECUTOR_ADDRESS_MAP)`,
          value: context.workspaceState.get<string>('executor.launch.address') ?? '',
        });
        if (address === undefined) {
          return;
        }
        const inputs = await vscode.window.showInputBox({
          prompt: `The inputs of ${target.kernel}: a JSON array, one value per argument (empty: 1, 2, 3, ...)`,
          value: context.workspaceState.get<string>(`executor.launch.inputs.${target.kernel}`) ?? '',
        });
        if (inputs === undefined) {
          return;
        }
        const params = launchParams(target, address, inputs);
        if (typeof params === 'string') {
          throw new Error(params);
        }
        await context.workspaceState.update('executor.launch.address', address);
        await context.workspaceState.update(`executor.launch.inputs.${target.kernel}`, inputs);
        const client = await runningClient(`the launch of ${target.kernel}`);
        const reply = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Launching ${target.kernel} (debug build)` },
          () => client.sendRequest(LAUNCH_METHOD, params),
        );
        const result = parseLaunchResult(reply);
        if (result === undefined) {
          throw new Error(`executor-lsp-server answered ${LAUNCH_METHOD} with ${JSON.stringify(reply)}`);
        }
        output.info(describeLaunch(result));
        if (result.ok) {
          void vscode.window.showInformationMessage(describeLaunch(result));
        } else {
          // A crash in the document is also a diagnostic at its line.
          offerFixes(output, vscode.window.showErrorMessage(describeLaunch(result).split('\n')[0] ?? '', 'Show Log'));
        }
      })(),
    ),
    rerunDiagnostics,
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === SNAPSHOT_SCHEME) {
        rerunDiagnostics.delete(doc.uri);
      }
    }),
    vscode.workspace.registerFileSystemProvider(SNAPSHOT_SCHEME, snapshots),
    vscode.workspace.registerFileSystemProvider(BYTECODE_SCHEME, new BytecodeFileSystem(() => runningClient('a .mlirbc file'))),
    vscode.window.registerCustomEditorProvider(BYTECODE_VIEW_TYPE, new BytecodeEditorProvider()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SETTINGS.some((key) => event.affectsConfiguration(key))) {
        output.info('Settings changed: restarting executor-lsp-server.');
        void restartServer(output);
      }
    }),
    { dispose: () => void current.dispose() },
  );

  // Activation does not wait for the server (or for the user to read why it
  // did not start).
  void restartServer(output);
}

export async function deactivate(): Promise<void> {
  const current = lifecycle;
  lifecycle = undefined;
  await current?.dispose();
}
