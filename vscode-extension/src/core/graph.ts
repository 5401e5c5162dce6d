// "Executor: Show IR Graph" without the VS Code API: the parameters of
// `executor/graph` (the function at the cursor of a .mlir file, at one step
// of the pipeline), its answer (the graph as SVG, laid out by Graphviz in
// the server, and each node's range), and the webview's HTML: the SVG with
// pan (drag) and zoom (wheel), a click on a node posts its id, and the
// extension marks the node of the cursor's line.

import type { Range } from './protocol';
import { isRecord } from './protocol';

/** The server's request for the graph of one function at one step. */
export const GRAPH_METHOD = 'executor/graph';

/** Parameters of `executor/graph`. */
export interface GraphParams {
  uri: string;
  chunk?: number;
  pipeline?: string;
  /** A step index (-1: the input) or name (`cse`, `cross-compile-targets/compute/extracted`). */
  step: number | string;
  /** The function by name (`main`, `compute::square`), */
  function?: string;
  /** or the one at this 0-based line of the document. */
  line?: number;
}

export interface GraphNode {
  id: string;
  label: string;
  op: string;
  /** Where the op is: in the document for the input, else in the step's text. */
  range?: Range;
  /** `file:line:col` of its own location. */
  location?: string;
}

export interface GraphResult {
  step: string;
  function: string;
  /** Whether the ranges are in the document (the input step). */
  inDocument: boolean;
  ops: number;
  collapsed: boolean;
  nodes: GraphNode[];
  svg: string;
}

/** Reads the server's answer (`{chunks: [{...}]}` or one chunk's object). */
export function parseGraph(reply: unknown): GraphResult {
  let chunk: unknown = reply;
  if (isRecord(reply) && Array.isArray(reply['chunks'])) {
    chunk = reply['chunks'][0];
  }
  if (!isRecord(chunk)) {
    throw new Error('executor/graph: the answer is not an object');
  }
  if (typeof chunk['error'] === 'string') {
    throw new Error(chunk['error']);
  }
  const svg = chunk['svg'];
  const nodes = chunk['nodes'];
  if (typeof svg !== 'string' || !Array.isArray(nodes)) {
    throw new Error('executor/graph: the answer has no svg and nodes');
  }
  const parsed: GraphNode[] = [];
  for (const node of nodes) {
    if (!isRecord(node) || typeof node['id'] !== 'string') {
      throw new Error('executor/graph: a node has no id');
    }
    const out: GraphNode = {
      id: node['id'],
      label: typeof node['label'] === 'string' ? node['label'] : '',
      op: typeof node['op'] === 'string' ? node['op'] : '',
    };
    const range = node['range'];
    if (isRecord(range) && isRecord(range['start']) && isRecord(range['end'])) {
      out.range = range as unknown as Range;
    }
    if (typeof node['location'] === 'string') {
      out.location = node['location'];
    }
    parsed.push(out);
  }
  return {
    step: typeof chunk['step'] === 'string' ? chunk['step'] : '',
    function: typeof chunk['function'] === 'string' ? chunk['function'] : '',
    inDocument: chunk['inDocument'] === true,
    ops: typeof chunk['ops'] === 'number' ? chunk['ops'] : 0,
    collapsed: chunk['collapsed'] === true,
    nodes: parsed,
    svg,
  };
}

/** The node of the op at 0-based `line` (of the document, or of the step's text). */
export function nodeAtLine(graph: GraphResult, line: number): GraphNode | undefined {
  return graph.nodes.find((n) => n.range?.start.line === line && !n.id.startsWith('arg'));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The webview's page: the SVG (the server's; no script in it), a title line
 * and a script that pans, zooms, posts `{type: 'select', id}` on a click on
 * a node and marks the node a `{type: 'mark', id}` message names.
 */
export function graphHtml(graph: GraphResult, nonce: string, cspSource: string): string {
  // The SVG is the server's own output (no script, no external reference);
  // the CSP allows this page's script only.
  const svg = graph.svg.replace(/^<\?xml[^>]*>\s*/, '');
  const title = `@${graph.function} at ${graph.step}: ${graph.ops} ops${graph.collapsed ? ' (regions collapsed)' : ''}`;
  return `<!DOCTYPE html>
<html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
body{margin:0;overflow:hidden;background:var(--vscode-editor-background);color:var(--vscode-editor-foreground);font-family:var(--vscode-font-family)}
#title{padding:4px 8px;font-size:12px;opacity:.8}
#view{position:absolute;top:26px;left:0;right:0;bottom:0;cursor:grab}
#view svg{transform-origin:0 0}
g.node{cursor:pointer}
g.node.marked rect{stroke:#e8a317 !important;stroke-width:3}
</style></head>
<body><div id="title">${escapeHtml(title)}</div><div id="view">${svg}</div>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const view = document.getElementById('view');
const svg = view.querySelector('svg');
let zoom = 1, x = 8, y = 8, drag = null, moved = false;
function apply() { svg.style.transform = 'translate(' + x + 'px,' + y + 'px) scale(' + zoom + ')'; }
apply();
view.addEventListener('mousedown', (e) => { drag = { x: e.clientX - x, y: e.clientY - y }; moved = false; });
window.addEventListener('mousemove', (e) => { if (drag) { x = e.clientX - drag.x; y = e.clientY - drag.y; moved = true; apply(); } });
window.addEventListener('mouseup', () => { drag = null; });
view.addEventListener('wheel', (e) => {
  e.preventDefault();
  const f = Math.pow(1.15, -Math.sign(e.deltaY));
  const r = view.getBoundingClientRect();
  const mx = e.clientX - r.left, my = e.clientY - r.top;
  x = mx - (mx - x) * f; y = my - (my - y) * f; zoom *= f; apply();
}, { passive: false });
view.addEventListener('click', (e) => {
  if (moved) { return; }
  const node = e.target.closest('g.node');
  if (node) { vscode.postMessage({ type: 'select', id: node.id }); }
});
window.addEventListener('message', (e) => {
  const m = e.data;
  if (m && m.type === 'mark') {
    for (const n of svg.querySelectorAll('g.node.marked')) { n.classList.remove('marked'); }
    const node = m.id ? document.getElementById(m.id) : null;
    if (node) {
      node.classList.add('marked');
      const b = node.getBoundingClientRect(), r = view.getBoundingClientRect();
      if (b.right < r.left || b.left > r.right || b.bottom < r.top || b.top > r.bottom) {
        x += r.left + r.width / 2 - (b.left + b.width / 2); y += r.top + r.height / 2 - (b.top + b.height / 2); apply();
      }
    }
  }
});
</script></body></html>`;
}
