// "Executor: Show IR Graph": a webview beside the .mlir editor with the
// graph of the function at its cursor (core/graph.ts, `executor/graph`) at
// one step of the pipeline. It follows the cursor: another function is
// drawn, and the node of the cursor's line is marked. A click on a node
// selects its op's line in the editor (at the input) or in the step's text
// (another step: the line, shown in the status bar message).

import * as crypto from 'node:crypto';

import * as vscode from 'vscode';

import type { GraphParams, GraphResult } from './core/graph';
import { GRAPH_METHOD, graphHtml, nodeAtLine, parseGraph } from './core/graph';
import { COMMANDS, LANGUAGE_ID } from './core/protocol';

type Send = (method: string, params: object, signal?: AbortSignal) => Promise<unknown>;

/** Asks for a step of the recording of `editor`'s document (`current`: the one drawn). */
type PickStep = (editor: vscode.TextEditor, current: number | string) => Promise<number | string | undefined>;

export function registerGraphView(send: Send, report: (error: unknown) => void, pickStep: PickStep): vscode.Disposable[] {
  let panel: vscode.WebviewPanel | undefined;
  let documentUri: string | undefined;
  let step: number | string = -1;
  let shown: GraphResult | undefined;
  let pending: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;

  // (The panel may close while a request is out.)
  const openPanel = (): vscode.WebviewPanel | undefined => panel;
  const mark = (line: number): void => {
    if (panel && shown?.inDocument === true) {
      void panel.webview.postMessage({ type: 'mark', id: nodeAtLine(shown, line)?.id ?? null });
    }
  };
  const draw = async (editor: vscode.TextEditor): Promise<void> => {
    if (!panel) {
      return;
    }
    const line = editor.selection.active.line;
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    const params: GraphParams = { uri: editor.document.uri.toString(), step, line };
    const graph = parseGraph(await send(GRAPH_METHOD, params, controller.signal));
    const target = openPanel();
    if (controller.signal.aborted || target === undefined) {
      return;
    }
    const same = shown?.function === graph.function && shown.step === graph.step && shown.svg === graph.svg;
    shown = graph;
    documentUri = params.uri;
    if (!same) {
      target.title = `Graph: @${graph.function} (${graph.step})`;
      target.webview.html = graphHtml(graph, crypto.randomBytes(16).toString('base64'), target.webview.cspSource);
    }
    mark(line);
  };
  const follow = (editor: vscode.TextEditor | undefined): void => {
    if (!panel || editor?.document.languageId !== LANGUAGE_ID || editor.document.uri.scheme !== 'file') {
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => { draw(editor).catch(report); }, 250);
  };

  return [
    vscode.commands.registerCommand(COMMANDS.showIrGraph, async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.languageId !== LANGUAGE_ID) {
        void vscode.window.showWarningMessage('Open a .mlir file and put the cursor in a function first.');
        return;
      }
      const chosen = await pickStep(editor, step);
      if (chosen === undefined) {
        return;
      }
      step = chosen;
      if (!panel) {
        panel = vscode.window.createWebviewPanel('executor.irGraph', 'Graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true });
        panel.onDidDispose(() => { panel = undefined; shown = undefined; });
        panel.webview.onDidReceiveMessage((message: unknown) => {
          const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
          const node = shown?.nodes.find((n) => n.id === id);
          if (!node?.range || documentUri === undefined) {
            return;
          }
          const start = new vscode.Position(node.range.start.line, node.range.start.character);
          if (shown?.inDocument === true) {
            void vscode.window.showTextDocument(vscode.Uri.parse(documentUri), { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(start, start) });
          } else {
            void vscode.window.showInformationMessage(`${node.op}: line ${node.range.start.line + 1} of ${shown?.step ?? 'the step'}${node.location ? ` (${node.location})` : ''}`);
          }
        });
      }
      await draw(editor);
    }),
    vscode.window.onDidChangeTextEditorSelection((e) => { follow(e.textEditor); }),
    vscode.window.onDidChangeActiveTextEditor((editor) => { follow(editor); }),
  ];
}
