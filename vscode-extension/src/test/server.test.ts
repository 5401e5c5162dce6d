// The extension's logic against the real executor-lsp-server, over stdio
// through vscode-jsonrpc (what vscode-languageclient sends its messages
// through): diagnostics, code lenses, the pipeline preview exactly as
// "Executor: Show Pipeline Preview" asks for it and shows it, the re-run of
// an edited pass snapshot as its save sends it, and a .mlirbc file read as
// text and saved as bytecode as the mlir.bytecode-mlir file system does.
//
// The server is $EXECUTOR_LSP_SERVER, else build/bin/executor-lsp-server of
// this repository (or one on the PATH); without one these tests are skipped.

import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

import type { Diagnostic } from 'vscode-languageserver-protocol/node';

import { conversionOutput, decodeBytecode } from '../core/bytecode';
import { LAUNCH_METHOD, describeLaunch, launchParams, parseLaunchResult, parseLaunchTarget } from '../core/launch';
import { chunkAtLine } from '../core/chunks';
import { ServerLifecycle } from '../core/lifecycle';
import type { AlignedSnapshots } from '../core/opHistory';
import { ALIGNED_SNAPSHOTS_METHOD, OP_HISTORY_METHOD, OpHistoryService, historyItems, parseAlignedSnapshots } from '../core/opHistory';
import { entryCount, findLensSnapshot, formatDiagnostic, irAt, parsePipelinePreview } from '../core/preview';
import { PipelinePreviewService } from '../core/previewService';
import { BYTECODE_SCHEME, COMMANDS, CONVERT_FROM_BYTECODE_METHOD, CONVERT_TO_BYTECODE_METHOD, parseLensTarget } from '../core/protocol';
import { describeServerExit, transportArgs } from '../core/serverProcess';
import { DEFAULT_SETTINGS, serverLaunch } from '../core/settings';
import { hasScope, loadGrammar, tokenize, tokensOf } from './support/grammar';
import { extensionRoot, locateServer, sampleNames, samplePath, samplesSkip } from './support/paths';
import { ServerSession } from './support/server';

const server = locateServer();
const serverPath = 'path' in server ? server.path : '';
const serverSkip = 'skip' in server ? server.skip : false;
const skip = serverSkip !== false ? serverSkip : samplesSkip;
if (skip !== false) {
  // Said once, plainly, on top of each test's SKIP.
  console.log(skip);
}

/** The arguments the extension starts the server with, transport included. */
const EXTENSION_ARGS = transportArgs(process.pid);

const TIMEOUT = 60000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'executor-studio-lsp-'));
after(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
  // A test that failed before it stopped its server must not keep this
  // process (and npm test) waiting on it.
  const killed = ServerSession.killAll();
  assert.equal(killed, 0, `${killed} server(s) were still running after the tests`);
});

function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

function scratchUri(name: string): string {
  return uriOf(path.join(scratch, name));
}

/** A diagnostic's message as text (LSP 3.18 allows markup). */
function messageText(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

function readSample(name: string): string {
  return fs.readFileSync(samplePath(name), 'utf8');
}

/** A launch of an i128 (a scalar no executor carries) into a dispatched target: dispatch-executor-targets rejects it. */
const SCALAR_LAUNCH = `module {
  func.func @main(%x: i128) {
    catalyst.launch_kernel @compute::@scalar(%x) : (i128) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @scalar(%x: i128) {
      return
    }
  }
}
`;

const UNREGISTERED = `module {
  "foo.bar"() : () -> ()
}
`;

describe('executor-lsp-server, spoken to as the extension does', { timeout: TIMEOUT * 4 }, () => {
  let session: ServerSession;
  let started: ServerSession | undefined;
  let previews: PipelinePreviewService;

  before(async () => {
    if (skip === false) {
      session = started = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), EXTENSION_ARGS);
      previews = new PipelinePreviewService(session.requestPreview, 8, session.requestRerun, session.requestStepText);
    }
  });

  after(async () => {
    if (started !== undefined) {
      assert.equal(await started.stop(), 0, 'the server exits with 0 after shutdown and exit');
    }
  });

  it('offers code lenses and names the preview command the extension registers', { skip }, async () => {
    const result = await session.initializeResult;
    assert.equal(result.serverInfo?.name, 'executor-lsp-server');
    assert.ok(result.capabilities.codeLensProvider, 'code lenses');
    assert.ok(result.capabilities.hoverProvider, 'hover');
    const experimental = result.capabilities.experimental as Record<string, unknown> | undefined;
    assert.equal(experimental?.['previewCommand'], COMMANDS.showPipelinePreview);
    const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string; title: string; category: string }[] };
    };
    const commands = manifest.contributes.commands.map((c) => `${c.category}: ${c.title} (${c.command})`);
    assert.ok(commands.includes(`Executor: Show Pipeline Preview (${COMMANDS.showPipelinePreview})`), commands.join(', '));
    assert.ok(commands.includes(`Executor: Restart Server (${COMMANDS.restartServer})`), commands.join(', '));
  });

  it('goes from an op to the source line its location names (go to definition)', { skip, timeout: TIMEOUT }, async () => {
    // Catalyst's IR names the Python line of each op; VS Code's "Go to
    // Definition" sends textDocument/definition and opens what it answers.
    const source = path.join(scratch, 'kernel.py');
    fs.writeFileSync(source, 'import catalyst\n'.repeat(20));
    fs.mkdirSync(path.join(scratch, 'src'), { recursive: true });
    const relative = path.join(scratch, 'src', 'helper.py');
    fs.writeFileSync(relative, 'def helper():\n    pass\n');
    const uri = scratchUri('located.mlir');
    const text = `func.func @f() -> i32 {
  %a = arith.constant 1 : i32 loc(fused[${JSON.stringify(source)}:12:5, "src/helper.py":2:1])
  return %a : i32
}
`;
    await session.open(uri, text);
    const line = 1;
    const character = (text.split('\n')[line] ?? '').indexOf('arith.constant') + 2;
    const locations = (await session.request('textDocument/definition', {
      textDocument: { uri },
      position: { line, character },
    })) as { uri: string; range: { start: { line: number; character: number } } }[];
    assert.ok(Array.isArray(locations), JSON.stringify(locations));
    // The op itself, then each file and line (0-based), a relative name
    // against the document's directory (the session sends no rootUri).
    assert.deepEqual(
      locations.map((l) => [l.uri, l.range.start.line, l.range.start.character]),
      [
        [uri, line, 7],
        [uriOf(source), 11, 4],
        [uriOf(relative), 1, 0],
      ],
    );
    for (const location of locations.slice(1)) {
      assert.ok(fs.existsSync(new URL(location.uri)), `${location.uri} is the file on disk`);
    }
    await session.close(uri);
  });

  it('publishes diagnostics for a broken file and clears them when it is fixed', { skip, timeout: TIMEOUT }, async () => {
    const uri = scratchUri('broken.mlir');
    const good = readSample('all-ops.mlir');
    const broken = good.replace('!executor.session', '!executor.sesion');
    const line = broken.split('\n').findIndex((l) => l.includes('!executor.sesion'));
    await session.open(uri, broken, 1);
    const diagnostics = await session.waitForDiagnostics(uri, (d, version) => version === 1 && d.length > 0);
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    const [error] = diagnostics;
    assert.ok(error);
    assert.equal(error.severity, 1);
    assert.equal(error.range.start.line, line);
    assert.match(messageText(error), /sesion/);

    await session.change(uri, good, 2);
    const fixed = await session.waitForDiagnostics(uri, (_d, version) => version === 2);
    assert.deepEqual(fixed, []);
    await session.close(uri);
  });

  it("publishes the passes' own errors, naming the pass", { skip, timeout: TIMEOUT }, async () => {
    const uri = scratchUri('scalar-launch.mlir');
    await session.open(uri, SCALAR_LAUNCH);
    const diagnostics = await session.waitForDiagnostics(uri, (d) => d.some((x) => x.source === 'executor-pipeline'));
    const fromPass = diagnostics.find((x) => x.source === 'executor-pipeline');
    assert.ok(fromPass);
    assert.match(messageText(fromPass), /^dispatch-executor-targets: .*cannot be sent to an executor/);
    assert.equal(fromPass.range.start.line, 2);
    await session.close(uri);
  });

  it('returns the snapshots the preview command lists and shows', { skip, timeout: TIMEOUT }, async () => {
    const file = samplePath('cross-compile-dispatch.mlir');
    const uri = uriOf(file);
    await session.open(uri, fs.readFileSync(file, 'utf8'));
    const run = await previews.run(uri, 0);
    const { preview } = run;
    assert.equal(preview.succeeded, true);
    assert.equal(preview.uri, uri);
    const passes = preview.snapshots.map((s) => s.pass);
    for (const pass of ['lower-runtime-dispatch', 'cross-compile-targets', 'dispatch-executor-targets', 'convert-executor-to-llvm']) {
      assert.ok(passes.includes(pass), `${pass} in ${passes.join(', ')}`);
    }
    assert.ok(
      passes.indexOf('cross-compile-targets') < passes.indexOf('dispatch-executor-targets') &&
        passes.indexOf('dispatch-executor-targets') < passes.indexOf('convert-executor-to-llvm'),
      'in the order of the default pipeline',
    );
    // The reply has the steps' summaries (with their sizes), no text: each
    // is fetched when it is shown (executor/stepText).
    assert.match(preview.recording ?? '', /^[0-9a-f]+$/);
    assert.equal(preview.input, undefined);
    for (const [position, snapshot] of preview.snapshots.entries()) {
      assert.ok((snapshot.bytes ?? 0) > 0 && (snapshot.lines ?? 0) > 0, `${snapshot.pass} has its sizes`);
      assert.ok(snapshot.milliseconds >= 0);
      if (snapshot.changed) {
        assert.equal(snapshot.ir, undefined, `${snapshot.pass}: no text until shown`);
      }
      const text = await previews.fetchText(run, position);
      assert.ok(text?.includes('module'), `${snapshot.pass} has its IR`);
      assert.equal(Buffer.byteLength(text ?? ''), snapshot.bytes, `${snapshot.pass}: the size the summary said`);
    }
    assert.ok((await previews.fetchText(run, -1))?.includes('catalyst.launch_kernel @compute::@square'));

    // The quick pick: the input, then every pass, each target's own steps
    // (down to its assembly) under cross-compile-targets.
    const items = previews.passItems(run);
    const nested = preview.snapshots.reduce((n, s) => n + s.nested.length, 0);
    assert.ok(items.some((i) => i.parent !== undefined && i.label.endsWith('compute/asm')), 'compute/asm is listed');
    assert.equal(items.length, preview.snapshots.length + nested + 1);
    assert.equal(items[0]?.label, 'input');
    const dispatch = passes.indexOf('dispatch-executor-targets');
    const dispatchItem = items.find((i) => i.position === dispatch);
    assert.match(dispatchItem?.description ?? '', /^changed · /);

    // The read-only document of the IR after dispatch-executor-targets.
    const after = await previews.content(previews.location(run, dispatch));
    assert.match(after, /executor\.launch/);
    assert.match(after, /executor\.open/);
    assert.doesNotMatch(after, /catalyst\.launch_kernel @compute/);
    assert.match(after, /call @sum|catalyst\.launch_kernel @local|func\.call @sum/);

    // "Compare with previous pass": the left side still launches kernels.
    const comparison = previews.comparison(run, dispatch);
    assert.ok(comparison);
    const before = await previews.content(comparison.left);
    assert.match(before, /catalyst\.launch_kernel @compute::@square/);
    assert.equal(await previews.content(comparison.right), after);
    assert.match(comparison.title, /cross-compile-targets ↔ dispatch-executor-targets/);

    // After convert-executor-to-llvm the runtime is called.
    const lowered = irAt(preview, passes.indexOf('convert-executor-to-llvm')) ?? '';
    assert.match(lowered, /@__catalyst__executor__/);

    // A text on demand is byte for byte what a reply with every text has.
    const full = parsePipelinePreview(await session.requestPreview({ uri, chunk: 0, withText: 'changes' }));
    assert.equal(full.recording, preview.recording, 'one recording, from the cache');
    for (let position = -1; position < entryCount(full); ++position) {
      assert.equal(await previews.fetchText(run, position), irAt(full, position), previews.title(run, position));
    }
    // A recording the server no longer keeps: said so.
    await assert.rejects(session.requestStepText({ recording: '00000000deadbeef', step: 0 }), /recording 00000000deadbeef is no longer kept/);
    await session.close(uri);
  });

  it("follows an op after each pass, down to its kernel's LLVM IR and assembly (Show This Op after Each Pass)", { skip, timeout: TIMEOUT }, async () => {
    const file = samplePath('cross-compile-dispatch.mlir');
    const uri = uriOf(file);
    const text = fs.readFileSync(file, 'utf8');
    await session.open(uri, text);
    // The cursor on `arith.mulf` of @compute::@square, as the command sends it.
    const line = text.split('\n').findIndex((l) => l.includes('%sq = arith.mulf'));
    const column = (text.split('\n')[line] ?? '').indexOf('arith.mulf');
    const histories = new OpHistoryService((params) => session.request(OP_HISTORY_METHOD, params));
    const run = await histories.follow({ uri, position: { line, character: column + 6 } });
    // Followed by its place in the document (1-based).
    assert.deepEqual(run.history.places, [{ file, line: line + 1, column: column + 1 }]);
    const byName = new Map(run.history.steps.map((s) => [s.name, s]));
    const input = byName.get('input');
    assert.equal(input?.lines.length, 1, JSON.stringify(input));
    assert.match(input.texts[0] ?? '', /arith\.mulf/);
    // The host keeps declarations only: the op left it at cross-compile-targets.
    assert.deepEqual(byName.get('cross-compile-targets')?.lines, []);
    for (const [name, pattern] of [
      ['cross-compile-targets/compute/extracted', /arith\.mulf/],
      ['cross-compile-targets/compute/convert-arith-to-llvm', /llvm\.fmul/],
      ['cross-compile-targets/compute/llvm', /fmul/],
      ['cross-compile-targets/compute/llvm-opt', /fmul/],
      ['cross-compile-targets/compute/asm', /mul/],
    ] as const) {
      const step = byName.get(name);
      assert.ok(step, `${name} in ${[...byName.keys()].join(', ')}`);
      assert.ok(step.lines.length > 0, name);
      assert.ok(step.texts.some((t) => pattern.test(t)), `${name}: ${step.texts.join(' | ')}`);
      // The document shows the step's text; the lines are those of the op.
      const doc = histories.content(histories.location(run, run.history.steps.indexOf(step))).split('\n');
      assert.equal(doc[step.lines[0] ?? -1]?.trim(), step.texts[0]);
    }
    // The other target does not have it.
    assert.ok(![...byName.keys()].some((n) => n.includes('/local/')), [...byName.keys()].join(', '));
    const items = historyItems(run.history);
    assert.match(items.find((i) => i.label.endsWith('compute/asm'))?.description ?? '', /^lines? \d+.* · assembly$/);

    // From a line of the assembly: the same op, by its .loc.
    const asm = run.history.steps.findIndex((s) => s.name === 'cross-compile-targets/compute/asm');
    const again = await histories.follow(histories.followFrom(histories.location(run, asm), run.history.steps[asm]?.lines[0] ?? 0));
    assert.deepEqual(again.history.places, [{ file, line: line + 1, column: column + 1 }]);

    // No op there, and no such snapshot: said so.
    await assert.rejects(session.request(OP_HISTORY_METHOD, { uri, position: { line: 0, character: 0 } }), /there is no op at line 1/);
    await assert.rejects(session.request(OP_HISTORY_METHOD, { uri, snapshot: 'nope/asm', line: 0 }), /there is no snapshot nope\/asm/);
    await session.close(uri);
  });

  it('compares two passes structurally (Compare with Previous Pass)', { skip, timeout: TIMEOUT }, async () => {
    const file = samplePath('cross-compile-dispatch.mlir');
    const uri = uriOf(file);
    await session.open(uri, fs.readFileSync(file, 'utf8'));
    const run = await previews.run(uri, 0);
    const dispatch = run.preview.snapshots.findIndex((s) => s.pass === 'dispatch-executor-targets');
    const comparison = previews.comparison(run, dispatch);
    assert.ok(comparison);
    const ask = async (lineDiff: boolean): Promise<AlignedSnapshots> => parseAlignedSnapshots(await session.request(ALIGNED_SNAPSHOTS_METHOD, {
      uri, chunk: 0, left: previews.snapshotRef(run, comparison.before), right: previews.snapshotRef(run, dispatch), lineDiff,
    }));
    const structural = await ask(false);
    const plain = await ask(true);
    assert.equal(structural.mode, 'structural');
    assert.equal(plain.mode, 'line');
    assert.equal(structural.left.name, 'cross-compile-targets');
    assert.equal(structural.right.name, 'dispatch-executor-targets');
    // The plain texts are the preview's (each run has a workspace of its own).
    const workspace = (text: string | undefined): string => (text ?? '').replace(/\/tmp\/executor-lsp-[^/]+\//g, 'WS/');
    assert.equal(workspace(plain.left.text), workspace(await previews.fetchText(run, comparison.before)));
    assert.equal(workspace(plain.right.text), workspace(await previews.fetchText(run, dispatch)));
    // Lines of the right side the left lacks: fewer once names are aligned.
    const added = (left: string, right: string): number => {
      const have = new Map<string, number>();
      for (const l of left.split('\n')) {
        have.set(l, (have.get(l) ?? 0) + 1);
      }
      let n = 0;
      for (const l of right.split('\n')) {
        const k = have.get(l) ?? 0;
        if (k > 0) {
          have.set(l, k - 1);
        } else {
          n += 1;
        }
      }
      return n;
    };
    assert.ok(added(structural.left.text, structural.right.text) < added(plain.left.text, plain.right.text),
      `${added(structural.left.text, structural.right.text)} vs ${added(plain.left.text, plain.right.text)}`);
    // A target's assembly is compared line by line.
    const asm = previews.passItems(run).find((i) => i.label.endsWith('compute/asm'));
    assert.ok(asm);
    const nested = parseAlignedSnapshots(await session.request(ALIGNED_SNAPSHOTS_METHOD, {
      uri, left: previews.snapshotRef(run, asm.position - 1), right: previews.snapshotRef(run, asm.position),
    }));
    assert.equal(nested.mode, 'line');
    assert.match(nested.why ?? '', /LLVM IR and assembly/);
    await session.close(uri);
  });

  it('code lenses run the preview command and open the IR at their pass', { skip, timeout: TIMEOUT }, async () => {
    const file = samplePath('cross-compile-dispatch.mlir');
    const uri = uriOf(file);
    const text = fs.readFileSync(file, 'utf8');
    await session.open(uri, text);
    // The kernels' "Launch" lenses are the launch suite's (below).
    const lenses = ((await session.codeLenses(uri)) ?? []).filter((l) => l.command?.command !== COMMANDS.launchKernel);
    assert.ok(lenses.length >= 4, `lenses: ${JSON.stringify(lenses)}`);
    const lines = text.split('\n');
    for (const lens of lenses) {
      assert.equal(lens.command?.command, COMMANDS.showPipelinePreview);
      const target = parseLensTarget(lens.command.arguments?.[0]);
      assert.ok(target, `a lens argument: ${JSON.stringify(lens.command.arguments)}`);
      assert.equal(target.uri, uri);
      const run = await previews.run(target.uri, target.chunk);
      const position = findLensSnapshot(run.preview, target);
      assert.ok(position !== undefined, `lens "${lens.command.title}" finds its pass`);
      assert.equal(run.preview.snapshots[position]?.pass, target.pass);
      const lensLine = lines[lens.range.start.line] ?? '';
      const ir = await previews.content(previews.location(run, position));
      if (lensLine.includes('launch_kernel @compute')) {
        assert.match(lens.command.title, /executor\.launch/);
        assert.match(ir, /executor\.launch /);
      } else if (lensLine.includes('launch_kernel @local')) {
        assert.match(ir, /call @sum/);
      } else {
        assert.match(lensLine, /module @(compute|local)/);
        assert.match(ir, /catalyst\.object_file/);
      }
    }
    await session.close(uri);
  });

  it('previews the chunk of a split file that the cursor is in', { skip, timeout: TIMEOUT }, async () => {
    const uri = scratchUri('split.mlir');
    const text = `${SCALAR_LAUNCH}// -----\n${readSample('all-ops.mlir')}`;
    await session.open(uri, text);
    const cursorLine = text.split('\n').findIndex((l) => l.includes('executor.launch_async'));
    const chunk = chunkAtLine(text, cursorLine);
    assert.equal(chunk, 1);
    const run = await previews.run(uri, chunk);
    assert.equal(run.preview.chunk, 1);
    assert.equal(run.preview.lineOffset, SCALAR_LAUNCH.split('\n').length);
    assert.equal(run.preview.succeeded, true);
    assert.match(await previews.fetchText(run, run.preview.snapshots.length - 1) ?? '', /llvm\.call @__catalyst__executor__launch_async/);

    // The first chunk fails in dispatch-executor-targets: the preview says so above the IR.
    const failing = await previews.run(uri, 0);
    assert.equal(failing.preview.succeeded, false);
    const last = failing.preview.snapshots.length - 1;
    assert.equal(failing.preview.snapshots[last]?.failed, true);
    const shown = await previews.content(previews.location(failing, last));
    assert.match(shown, /^\/\/ dispatch-executor-targets failed:\n\/\/ {3}error: 3:5: .*cannot be sent to an executor.*\[dispatch-executor-targets\]/);
    await session.close(uri);
  });

  it('says why a file that does not parse has no passes to show', { skip, timeout: TIMEOUT }, async () => {
    const uri = scratchUri('unparsable.mlir');
    await session.open(uri, 'module {\n  %0 = arith.constant 1 : i32\n  "executor.open"(\n}\n');
    const run = await previews.run(uri, 0);
    assert.equal(run.preview.snapshots.length, 0);
    assert.match(PipelinePreviewService.whyEmpty(run) ?? '', /^the pipeline did not run: error: \d+:\d+: /);
    await session.close(uri);
  });

  it('re-runs the passes after an edited snapshot and splices them onto the preview', { skip, timeout: TIMEOUT }, async () => {
    const file = samplePath('cross-compile-dispatch.mlir');
    const uri = uriOf(file);
    await session.open(uri, fs.readFileSync(file, 'utf8'));
    const base = await previews.run(uri, 0);
    const passes = base.preview.snapshots.map((s) => s.pass);
    const cross = passes.indexOf('cross-compile-targets');
    const dispatch = passes.indexOf('dispatch-executor-targets');
    assert.ok(cross >= 0 && dispatch === cross + 1, passes.join(', '));

    // The editable snapshot starts as the IR after cross-compile-targets.
    const editable = previews.location(base, cross, true);
    const original = await previews.editableText(editable);
    assert.match(original, /address = "ADDR:PORT"/);
    const textUri = `executor-snapshot:${editable.path}?${editable.query}`;
    const edited = original.replace('address = "ADDR:PORT"', 'address = "10.0.0.9:7000"');
    const outcome = await previews.rerun(base, cross, edited, textUri);
    assert.deepEqual(outcome.diagnostics, []);
    assert.equal(outcome.result.firstStep, cross + 1);
    assert.match(outcome.result.remainingPipeline ?? '', /^builtin\.module\(dispatch-executor-targets,convert-executor-to-llvm,/);
    const { run } = outcome;
    assert.ok(run);
    assert.equal(run.preview.succeeded, true);
    assert.deepEqual(run.preview.snapshots.map((s) => s.pass), passes, 'the same passes, in the same order');
    assert.deepEqual(run.preview.snapshots.map((s) => s.edited), passes.map((_p, i) => i === cross));
    for (let i = 0; i < cross; ++i) {
      assert.equal(await previews.fetchText(run, i), await previews.fetchText(base, i), `pass ${i + 1} is the base run's`);
    }
    assert.match(irAt(run.preview, cross) ?? '', /address = "10\.0\.0\.9:7000"/);
    const after = await previews.content(previews.location(run, dispatch));
    assert.match(after, /executor\.open\("10\.0\.0\.9:7000"\)/);
    assert.doesNotMatch(after, /ADDR:PORT/);
    assert.match(await previews.fetchText(base, dispatch) ?? '', /executor\.open\("ADDR:PORT"\)/, 'the base run is unchanged');
    assert.match(previews.listTitle(run), /re-run after \d+\. cross-compile-targets \(edited\), succeeded$/);

    // The rest fails (dispatch-executor-targets needs the object): its error is at its line of the edited text.
    const moduleLine = edited.split('\n').findIndex((l) => l.includes('module @compute attributes'));
    assert.ok(moduleLine > 0);
    const withoutObject = edited.replace(/, catalyst\.object_file = "[^"]*"/, '');
    assert.notEqual(withoutObject, edited);
    const failing = await previews.rerun(base, cross, withoutObject, textUri);
    assert.ok(failing.run, 'the passes ran');
    assert.equal(failing.run.preview.succeeded, false);
    assert.equal(failing.run.preview.snapshots.at(-1)?.pass, 'dispatch-executor-targets');
    assert.equal(failing.run.preview.snapshots.at(-1)?.failed, true);
    assert.deepEqual(
      failing.diagnostics.map((d) => [d.pass, d.range.start.line]),
      [['dispatch-executor-targets', moduleLine]],
      failing.diagnostics.map(formatDiagnostic).join('\n'),
    );
    assert.match(failing.diagnostics[0]?.message ?? '', /has no catalyst\.object_file/);

    // Edited IR that does not verify (an address without a port): nothing runs, the error is at its line.
    const refused = await previews.rerun(base, cross, edited.replace('"10.0.0.9:7000"', '"10.0.0.9"'), textUri);
    assert.equal(refused.run, undefined);
    assert.deepEqual(
      refused.diagnostics.map((d) => [d.source, d.range.start.line]),
      [['mlir', moduleLine]],
      refused.diagnostics.map(formatDiagnostic).join('\n'),
    );
    assert.match(refused.diagnostics[0]?.message ?? '', /has no port/);
    await session.close(uri);
  });

  it('turns requests the server refuses into errors the command reports', { skip, timeout: TIMEOUT }, async () => {
    await assert.rejects(previews.run(scratchUri('never-opened.mlir'), 0), /no open document/);
    const uri = scratchUri('one-chunk.mlir');
    await session.open(uri, readSample('all-ops.mlir'));
    await assert.rejects(previews.run(uri, 3), /out of range/);
    await session.close(uri);
  });

  for (const name of sampleNames()) {
    it(`${name}: the preview runs the whole pipeline and the grammar reads every pass's IR`, { skip, timeout: TIMEOUT }, async () => {
      const grammar = await loadGrammar();
      const uri = uriOf(samplePath(name));
      await session.open(uri, readSample(name));
      const run = await previews.run(uri, 0);
      assert.equal(run.preview.succeeded, true, JSON.stringify(run.preview.diagnostics));
      assert.ok(run.preview.snapshots.length >= 5);
      let lastIR = '';
      for (const item of previews.passItems(run)) {
        const text = await previews.content(previews.location(run, item.position));
        if (text === lastIR) {
          continue;
        }
        lastIR = text;
        const tokenized = tokenize(grammar, text);
        tokenized.depths.forEach((depth, line) => {
          assert.equal(depth, 1, `${name} after ${item.label}, line ${line + 1}, leaves the grammar inside a rule`);
        });
      }
      const final = tokenize(grammar, lastIR);
      const runtime = tokensOf(final, '__catalyst__executor__open').concat(tokensOf(final, '__catalyst__executor__launch'));
      if (name !== 'runtime-call.mlir') {
        assert.ok(runtime.length > 0, `${name}: the lowered IR calls the runtime`);
      }
      for (const token of runtime) {
        assert.ok(hasScope(token, 'entity.name.function.symbol.runtime.executor.mlir'));
      }
      await session.close(uri);
    });
  }
});

/** executor-opt of the same build as the server, for writing and reading bytecode. */
function locateOpt(): string | undefined {
  const candidate = path.join(path.dirname(serverPath), 'executor-opt');
  return serverPath !== '' && fs.existsSync(candidate) ? candidate : undefined;
}
const optPath = locateOpt();
const bytecodeSkip = skip !== false ? skip : optPath === undefined ? `no executor-opt next to ${serverPath}: the bytecode round trip is skipped` : false;

describe('.mlirbc through the mlir.bytecode-mlir file system', { timeout: TIMEOUT }, () => {
  it('reads bytecode as text, and saves the edited text as bytecode executor-opt reads', { skip: bytecodeSkip, timeout: TIMEOUT }, async () => {
    const opt = optPath ?? '';
    const bytecode = path.join(scratch, 'dir with space', 'host.mlirbc');
    fs.mkdirSync(path.dirname(bytecode), { recursive: true });
    execFileSync(opt, [samplePath('cross-compile-dispatch.mlir'), '--emit-bytecode', '-o', bytecode]);
    const session = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), EXTENSION_ARGS);
    try {
      // What vscode.Uri makes of the file under the scheme (uri.with({scheme}).toString()).
      const uri = `${BYTECODE_SCHEME}:${pathToFileURL(bytecode).pathname}`;
      assert.match(uri, /^mlir\.bytecode-mlir:\/.*\/dir%20with%20space\/host\.mlirbc$/);
      // readFile: the text VS Code shows.
      const text = conversionOutput(CONVERT_FROM_BYTECODE_METHOD, await session.request(CONVERT_FROM_BYTECODE_METHOD, { uri }));
      assert.match(text, /module @host/);
      assert.match(text, /catalyst\.launch_kernel @compute::@square/);
      assert.match(text, /address = "ADDR:PORT"/);

      // VS Code opens the document (the client's documentSelector has the scheme), the user edits it.
      const edited = text.replace('address = "ADDR:PORT"', 'address = "10.0.0.9:7000"');
      await session.open(uri, edited, 1);
      const diagnostics = await session.waitForDiagnostics(uri, (_d, version) => version === 1);
      assert.deepEqual(diagnostics.filter((d) => d.severity === 1), []);

      // writeFile: the open document as bytecode, written to the file.
      const bytes = decodeBytecode(conversionOutput(CONVERT_TO_BYTECODE_METHOD, await session.request(CONVERT_TO_BYTECODE_METHOD, { uri })));
      fs.writeFileSync(bytecode, bytes);
      const readBack = execFileSync(opt, [bytecode], { encoding: 'utf8' });
      assert.match(readBack, /address = "10\.0\.0\.9:7000"/);
      assert.match(readBack, /catalyst\.launch_kernel @compute::@square/);

      // A document with errors is not saved.
      await session.change(uri, `${edited}\n}\n`, 2);
      await session.waitForDiagnostics(uri, (d, version) => version === 2 && d.length > 0);
      await assert.rejects(session.request(CONVERT_TO_BYTECODE_METHOD, { uri }), /has errors/);
      // A file that is not there cannot be shown; the error names it.
      const missing = path.join(scratch, 'missing.mlirbc');
      await assert.rejects(session.request(CONVERT_FROM_BYTECODE_METHOD, { uri: `${BYTECODE_SCHEME}:${missing}` }), new RegExp(missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await session.close(uri);
    } finally {
      assert.equal(await session.stop(), 0);
    }
  });
});

describe('executorStudio.allowUnregisteredDialect', { timeout: TIMEOUT * 2 }, () => {
  async function diagnosticsWith(allow: boolean): Promise<{ messages: string[]; sources: string[] }> {
    const session = await ServerSession.start(serverPath, serverLaunch({ ...DEFAULT_SETTINGS, allowUnregisteredDialect: allow }), EXTENSION_ARGS);
    try {
      const uri = scratchUri(`unregistered-${allow}.mlir`);
      // A valid host program in one chunk, an op of an unknown dialect in the next.
      await session.open(uri, `${SCALAR_LAUNCH}// -----\n${UNREGISTERED}`);
      const diagnostics = await session.waitForDiagnostics(uri, (d) =>
        allow ? d.some((x) => x.source === 'executor-pipeline') : d.length > 0,
      );
      return { messages: diagnostics.map(messageText), sources: diagnostics.map((d) => d.source ?? '') };
    } finally {
      assert.equal(await session.stop(), 0);
    }
  }

  it('off: an unregistered dialect is an error', { skip, timeout: TIMEOUT }, async () => {
    const { messages } = await diagnosticsWith(false);
    assert.ok(messages.some((m) => m.includes('unregistered dialect')), messages.join('\n'));
  });

  it('on: the server is started with --allow-unregistered-dialect and lets it through', { skip, timeout: TIMEOUT }, async () => {
    assert.deepEqual(serverLaunch({ ...DEFAULT_SETTINGS, allowUnregisteredDialect: true }).args, ['--allow-unregistered-dialect']);
    const { messages, sources } = await diagnosticsWith(true);
    assert.ok(!messages.some((m) => m.includes('unregistered dialect')), messages.join('\n'));
    // The file is valid now, so the pipeline runs on it and reports its own error.
    assert.ok(sources.includes('executor-pipeline'), messages.join('\n'));
  });
});

describe('restarting the server', { timeout: TIMEOUT * 2 }, () => {
  it('stops the running server cleanly before the next one answers', { skip, timeout: TIMEOUT }, async () => {
    const exits: (number | null)[] = [];
    const lifecycle = new ServerLifecycle<ServerSession>({
      start: () => ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), EXTENSION_ARGS),
      stop: async (session) => {
        exits.push(await session.stop());
      },
    });
    try {
      const first = await lifecycle.restart();
      const second = await lifecycle.restart();
      assert.ok(first && second && first !== second);
      assert.deepEqual(exits, [0]);
      const uri = uriOf(samplePath('all-ops.mlir'));
      await second.open(uri, readSample('all-ops.mlir'));
      const run = await new PipelinePreviewService(second.requestPreview).run(uri, 0);
      assert.equal(run.preview.succeeded, true);
    } finally {
      await lifecycle.dispose();
    }
    assert.deepEqual(exits, [0, 0]);
  });
});

describe('the server process, as the extension starts and watches it', { timeout: TIMEOUT }, () => {
  it('takes the arguments vscode-languageclient passes (--stdio, --clientProcessId)', { skip: serverSkip }, async () => {
    assert.deepEqual(EXTENSION_ARGS, ['--stdio', `--clientProcessId=${process.pid}`]);
    const session = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), ['--stdio', '--clientProcessId', String(process.pid)]);
    assert.equal((await session.initializeResult).serverInfo?.name, 'executor-lsp-server');
    assert.equal(await session.stop(), 0);
  });

  it('exits by itself when the client process is gone', { skip: serverSkip, timeout: TIMEOUT }, async () => {
    const client = spawn('sleep', ['60'], { stdio: 'ignore' });
    const clientExit = new Promise((resolve) => client.once('exit', resolve));
    const pid = client.pid;
    assert.ok(pid !== undefined);
    const session = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), transportArgs(pid));
    try {
      client.kill('SIGKILL');
      await clientExit;
      const deadline = Date.now() + 10000;
      while (session.exitStatus === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(session.exitStatus, 1, `the server ended (exit ${String(session.exitStatus)}) within 10 s; it said:\n${session.log}`);
      assert.match(session.log, new RegExp(`the client process ${pid} \\(--clientProcessId\\) is gone`));
    } finally {
      client.kill('SIGKILL');
      await session.stop();
    }
  });

  it('refuses a transport it does not speak, and the extension says what it said', { skip: serverSkip }, async () => {
    const started = Date.now();
    const error = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), ['--socket=5007']).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof Error, 'the server did not start');
    assert.match(error.message, /exited with 2 before it answered initialize/);
    const said = error.message.split('\n').filter((line) => line.includes('--socket'));
    assert.ok(said.length > 0, error.message);
    const message = describeServerExit({ path: serverPath, code: 2, signal: null, uptimeMs: Date.now() - started, stderr: said });
    assert.match(message, /exited with code 2 as it started: ".*--socket is not supported: the server speaks LSP on stdin and stdout only/);
  });
});

// The "Launch" lens and the launch it runs (Executor: Launch Kernel), against
// a real executor-server beside the server binary: a kernel that crashes is
// reported with its frames, and as a diagnostic at its .mlir line.
const executorServer = serverPath === '' ? '' : path.join(path.dirname(serverPath), 'executor-server');
const crashFile = path.join(path.dirname(extensionRoot()), 'tests', 'e2e', 'Inputs', 'crash.mlir');
const launchSkip =
  serverSkip !== false
    ? serverSkip
    : !fs.existsSync(executorServer)
      ? `no executor-server beside ${serverPath}: the launch tests are skipped`
      : !fs.existsSync(crashFile)
        ? `no ${crashFile}: the launch tests are skipped`
        : false;

/** executor-server on a free loopback port; its address once it listens. */
async function startExecutor(): Promise<{ address: string; stop: () => void }> {
  const child = spawn(executorServer, ['--bind', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { reject(new Error(`executor-server did not listen within 10 s: ${out}`)); }, 10000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /^listening on (\S+)$/m.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`executor-server exited with ${String(code)}: ${out}`));
    });
  });
  return { address, stop: () => { child.kill('SIGTERM'); } };
}

describe('Executor: Launch Kernel (debug build)', { timeout: TIMEOUT * 2 }, () => {
  it('launches the lens\'s kernel, and a crash is a diagnostic at its .mlir line', { skip: launchSkip, timeout: TIMEOUT * 2 }, async () => {
    const executor = await startExecutor();
    const session = await ServerSession.start(serverPath, serverLaunch(DEFAULT_SETTINGS), EXTENSION_ARGS);
    try {
      const uri = scratchUri('crash.mlir');
      const text = fs.readFileSync(crashFile, 'utf8');
      const faultLine = text.split('\n').findIndex((l) => l.includes('// FAULT'));
      await session.open(uri, text);
      const lenses = (await session.codeLenses(uri)) ?? [];
      const lens = lenses.find((l) => l.command?.command === COMMANDS.launchKernel);
      assert.ok(lens, JSON.stringify(lenses));
      const target = parseLaunchTarget(lens.command?.arguments?.[0]);
      assert.deepEqual(target, { uri, kernel: '@kernels::@oob' });

      // In bounds (x = 1, 2, 3, 4: y[1] = 1), on the address the user gave.
      const good = launchParams(target, executor.address, '');
      assert.ok(typeof good !== 'string');
      const done = parseLaunchResult(await session.request(LAUNCH_METHOD, good));
      assert.ok(done?.ok, JSON.stringify(done));
      const values = (done.results?.[0] as { values: unknown[] }).values;
      assert.equal(values[1], 1);
      assert.match(describeLaunch(done), new RegExp(`^@kernels::@oob on ${executor.address}: `));

      // x[0] = 1e12: the store faults.
      const bad = launchParams(target, executor.address, '[[1e12, 0, 0, 0]]');
      assert.ok(typeof bad !== 'string');
      const crashed = parseLaunchResult(await session.request(LAUNCH_METHOD, bad));
      assert.ok(crashed && !crashed.ok, JSON.stringify(crashed));
      assert.equal(crashed.signal, 11);
      assert.match(crashed.error ?? '', /kernel oob crashed with signal 11 \(Segmentation fault\)/);
      const innermost = (crashed.frames ?? [])[0];
      assert.ok(innermost, JSON.stringify(crashed));
      assert.equal(innermost.line, faultLine + 1);
      assert.ok(innermost.inKernel);
      assert.match(describeLaunch(crashed), /failed: .*crashed with signal 11/);
      const diagnostics = await session.waitForDiagnostics(uri, (d) => d.some((x) => x.source === 'executor-launch'));
      const diagnostic = diagnostics.find((x) => x.source === 'executor-launch');
      assert.ok(diagnostic);
      assert.equal(diagnostic.severity, 1);
      assert.equal(diagnostic.range.start.line, faultLine);
      assert.match(messageText(diagnostic), /^kernel oob crashed with signal 11 \(Segmentation fault\) here/);
      assert.ok((diagnostic.relatedInformation ?? []).some((r) => r.message.includes('_mlir_ciface_oob at ')));

      // An edit takes it away.
      await session.change(uri, text, 2);
      const after = await session.waitForDiagnostics(uri, (_d, version) => version === 2);
      assert.ok(!after.some((x) => x.source === 'executor-launch'), JSON.stringify(after));
      await session.close(uri);

      // What the command refuses before it asks.
      const notJson = launchParams(target, '', '{');
      assert.ok(typeof notJson === 'string');
      assert.match(notJson, /not JSON/);
      const notArray = launchParams(target, '', '{"a": 1}');
      assert.ok(typeof notArray === 'string');
      assert.match(notArray, /must be a JSON array/);
      assert.equal(parseLaunchTarget({ uri, kernel: 'oob' }), undefined);
    } finally {
      assert.equal(await session.stop(), 0);
      executor.stop();
    }
  });
});
