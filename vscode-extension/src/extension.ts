// The VS Code layer, kept thin: it starts executor-lsp-server through
// vscode-languageclient, restarts it on a command and on a settings change,
// and turns the preview model of src/core into a quick pick, read-only
// documents and `vscode.diff`. Everything it decides is in src/core.

import * as path from 'node:path';

import * as vscode from 'vscode';
import type { Executable, LanguageClientOptions } from 'vscode-languageclient/node';
import { CancellationTokenSource, LanguageClient, TransportKind } from 'vscode-languageclient/node';

import { chunkAtLine } from './core/chunks';
import { ServerLifecycle } from './core/lifecycle';
import { findLensSnapshot } from './core/preview';
import type { PassItem, PreviewLocation, PreviewRun } from './core/previewService';
import { PipelinePreviewService } from './core/previewService';
import {
  COMMANDS,
  CONFIGURATION_SECTION,
  LANGUAGE_ID,
  PIPELINE_PREVIEW_METHOD,
  PREVIEW_SCHEME,
  parseLensTarget,
} from './core/protocol';
import { resolveServerPath } from './core/serverPath';
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

function toUri(location: PreviewLocation): vscode.Uri {
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: location.path, query: location.query });
}

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
  output.info(`Starting ${resolved.path} ${launch.args.join(' ')} (from ${resolved.source})`);
  const executable: Executable = { command: resolved.path, args: launch.args, transport: TransportKind.stdio };
  const cwd = folders[0];
  if (cwd !== undefined) {
    executable.options = { cwd };
  }
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
    ],
    outputChannel: output,
    initializationOptions: launch.initializationOptions,
  };
  const client = new LanguageClient(CONFIGURATION_SECTION, 'Executor Studio', { run: executable, debug: executable }, clientOptions);
  try {
    await client.start();
  } catch (error) {
    // Do not leave a half-started client (and its process) behind.
    await client.dispose(2000).catch(() => undefined);
    throw error;
  }
  return client;
}

/** Says that the server did not start, with a way to the setting or the log. */
function reportStartFailure(output: vscode.LogOutputChannel, error: unknown): void {
  const message = errorMessage(error);
  output.error(`executor-lsp-server did not start: ${message}`);
  void vscode.window.showErrorMessage(`Executor Studio: ${message}`, 'Open Settings', 'Show Log').then(async (choice) => {
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${CONFIGURATION_SECTION}.serverPath`);
    } else if (choice === 'Show Log') {
      output.show();
    }
  });
}

async function restartServer(output: vscode.LogOutputChannel): Promise<void> {
  if (lifecycle === undefined) {
    return;
  }
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

async function comparePass(previews: PipelinePreviewService, run: PreviewRun, position: number): Promise<void> {
  const comparison = previews.comparison(run, position);
  if (comparison === undefined) {
    void vscode.window.showInformationMessage('The input has no pass before it to compare with.');
    return;
  }
  await vscode.commands.executeCommand('vscode.diff', toUri(comparison.left), toUri(comparison.right), comparison.title, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}

interface PassPickItem extends vscode.QuickPickItem {
  pass: PassItem;
}

const COMPARE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('diff'),
  tooltip: 'Compare with previous pass',
};

function pickPass(previews: PipelinePreviewService, run: PreviewRun): Promise<void> {
  const pick = vscode.window.createQuickPick<PassPickItem>();
  pick.title = `${previews.sourceLabel(run)}: the IR after which pass?`;
  pick.placeholder = 'Enter: the IR after the pass · button: compare with the pass before';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = previews.passItems(run).map((pass): PassPickItem => {
    const icon = pass.position < 0 ? '$(file-code)' : pass.failed ? '$(error)' : pass.changed ? '$(diff-modified)' : '$(circle-outline)';
    const item: PassPickItem = { pass, label: `${icon} ${pass.label}`, description: pass.description };
    if (pass.detail !== '') {
      item.detail = pass.detail;
    }
    if (pass.position >= 0) {
      item.buttons = [COMPARE_BUTTON];
    }
    return item;
  });
  return new Promise((resolve) => {
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      pick.hide();
      if (chosen !== undefined) {
        openPass(previews, run, chosen.pass.position).then(resolve, (error: unknown) => {
          void vscode.window.showErrorMessage(`Executor Studio: ${errorMessage(error)}`);
          resolve();
        });
      }
    });
    pick.onDidTriggerItemButton((event) => {
      pick.hide();
      comparePass(previews, run, event.item.pass.position).then(resolve, (error: unknown) => {
        void vscode.window.showErrorMessage(`Executor Studio: ${errorMessage(error)}`);
        resolve();
      });
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve();
    });
    pick.show();
  });
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
  await comparePass(previews, run, position);
}

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('Executor Studio', { log: true });
  const current = new ServerLifecycle<LanguageClient>({
    start: () => startClient(output),
    stop: async (client) => {
      try {
        await client.stop(5000);
      } catch (error) {
        output.warn(`executor-lsp-server did not stop cleanly: ${errorMessage(error)}`);
      }
    },
  });
  lifecycle = current;

  const previews = new PipelinePreviewService(async (params, signal) => {
    const client = current.current ?? (await current.restart());
    if (client === undefined) {
      throw new Error('executor-lsp-server is not running');
    }
    const cancel = new CancellationTokenSource();
    signal?.addEventListener('abort', () => { cancel.cancel(); });
    try {
      return await client.sendRequest(PIPELINE_PREVIEW_METHOD, params, cancel.token);
    } finally {
      cancel.dispose();
    }
  });

  const run = (action: () => Promise<void>) => async (): Promise<void> => {
    try {
      await action();
    } catch (error) {
      void vscode.window.showErrorMessage(`Executor Studio: ${errorMessage(error)}`);
    }
  };

  context.subscriptions.push(
    output,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, new PreviewDocuments(previews)),
    vscode.commands.registerCommand(COMMANDS.showPipelinePreview, (argument: unknown) =>
      run(() => showPipelinePreview(previews, argument))(),
    ),
    vscode.commands.registerCommand(COMMANDS.comparePipelinePass, (argument: unknown) =>
      run(() => compareWithPrevious(previews, argument))(),
    ),
    vscode.commands.registerCommand(COMMANDS.restartServer, () => restartServer(output)),
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
