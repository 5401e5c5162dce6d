// "Executor: Show IR Graph": the page the webview shows (core/graph.ts) and
// `executor/graph` asked of the real executor-lsp-server, as the command
// asks it (the function at the cursor, at a step).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

import type { GraphResult } from '../core/graph';
import { GRAPH_METHOD, graphHtml, nodeAtLine, parseGraph } from '../core/graph';
import { COMMANDS } from '../core/protocol';
import { transportArgs } from '../core/serverProcess';
import { DEFAULT_SETTINGS, serverLaunch } from '../core/settings';
import { extensionRoot, locateServer, samplePath, samplesSkip } from './support/paths';
import { ServerSession } from './support/server';

const server = locateServer();
const serverPath = 'path' in server ? server.path : '';
const serverSkip = 'skip' in server ? server.skip : false;
const skip = serverSkip !== false ? serverSkip : samplesSkip;
const TIMEOUT = 60000;

describe('the IR graph webview', () => {
  const graph: GraphResult = {
    step: 'input',
    function: 'main',
    inDocument: true,
    ops: 2,
    collapsed: false,
    nodes: [
      { id: 'op0', label: '%x', op: '%x', range: { start: { line: 3, character: 17 }, end: { line: 3, character: 17 } } },
      { id: 'op1', label: 'executor.launch\nsquare @ h:1', op: 'executor.launch', range: { start: { line: 4, character: 9 }, end: { line: 4, character: 9 } } },
    ],
    svg: '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><g class="node" id="op1"></g></svg>',
  };

  it('shows the SVG under a script of its own nonce, and posts the clicked node', () => {
    const html = graphHtml(graph, 'NONCE', 'vscode-resource:');
    assert.match(html, /script-src 'nonce-NONCE'/);
    assert.match(html, /<script nonce="NONCE">/);
    assert.ok(html.includes('<svg xmlns="http://www.w3.org/2000/svg"><g class="node" id="op1">'));
    assert.ok(!html.includes('<?xml'));
    assert.match(html, /@main at input: 2 ops/);
    assert.match(html, /postMessage\(\{ type: 'select', id: node\.id \}\)/);
  });

  it('finds the node of a line and reads the server answer', () => {
    assert.equal(nodeAtLine(graph, 4)?.id, 'op1');
    assert.equal(nodeAtLine(graph, 9), undefined);
    const parsed = parseGraph({ chunks: [{ ...graph, nodes: graph.nodes, svg: graph.svg }] });
    assert.equal(parsed.function, 'main');
    assert.equal(parsed.nodes[1]?.range?.start.line, 4);
    assert.throws(() => parseGraph({ chunks: [{ error: 'the step has no function nope' }] }), /no function nope/);
    assert.throws(() => parseGraph({ chunks: [{}] }), /no svg and nodes/);
  });

  it('is a command of the manifest', () => {
    const manifest = JSON.parse(fs.readFileSync(`${extensionRoot()}/package.json`, 'utf8')) as {
      contributes: { commands: { command: string; title: string }[] };
    };
    const command = manifest.contributes.commands.find((c) => c.command === COMMANDS.showIrGraph);
    assert.equal(command?.title, 'Show IR Graph');
  });
});

describe('executor/graph, asked of executor-lsp-server', { timeout: TIMEOUT * 2 }, () => {
  let session: ServerSession | undefined;
  before(async () => {
    if (skip === false) {
      session = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), transportArgs(process.pid));
    }
  });
  after(async () => {
    if (session !== undefined) {
      assert.equal(await session.stop(), 0);
    }
  });

  it("draws the function at the cursor, at the input and after dispatch, with each node's line", { skip, timeout: TIMEOUT }, async () => {
    assert.ok(session);
    const file = samplePath('cross-compile-dispatch.mlir');
    const uri = pathToFileURL(file).href;
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    await session.open(uri, text);
    // The cursor on a launch in @main: the input's graph, lines of the document.
    const launchLine = lines.findIndex((l) => l.includes('catalyst.launch_kernel @compute::@square'));
    const input = parseGraph(await session.request(GRAPH_METHOD, { uri, step: -1, line: launchLine }));
    assert.equal(input.function, 'main');
    assert.equal(input.inDocument, true);
    assert.match(input.svg, /^<\?xml/);
    assert.equal(nodeAtLine(input, launchLine)?.label, 'catalyst.launch_kernel\ncompute::square');
    // The loop is a box.
    assert.match(input.svg, /<g class="cluster" id="cluster\d+" data-line="\d+"><rect [^>]*\/><text [^>]*>scf\.for \(line \d+\)/);
    // After dispatch-executor-targets the launches name their executor.
    const dispatched = parseGraph(await session.request(GRAPH_METHOD, { uri, step: 'dispatch-executor-targets', line: launchLine }));
    assert.equal(dispatched.function, 'main');
    assert.equal(dispatched.inDocument, false);
    const launches = dispatched.nodes.filter((n) => n.op === 'executor.launch');
    assert.equal(launches.length, 2, dispatched.nodes.map((n) => n.label).join(' | '));
    assert.match(launches[0]?.label ?? '', /^executor\.launch\nsquare @ /);
    // A kernel by name; errors name the problem.
    const kernel = parseGraph(await session.request(GRAPH_METHOD, { uri, step: -1, function: 'compute::scale' }));
    assert.equal(kernel.function, 'compute::scale');
    await assert.rejects(session.request(GRAPH_METHOD, { uri, step: -1, function: 'mian' }), /no function mian; did you mean 'main'\?/);
    await assert.rejects(session.request(GRAPH_METHOD, { uri, step: 'nope', line: launchLine }), /there is no step nope/);
    await assert.rejects(session.request(GRAPH_METHOD, { uri, step: -1 }), /expected a function/);
    await session.close(uri);
  });
});
