// The logic under the VS Code layer: lens arguments, split files, the
// preview model, editable pass snapshots and their re-run, .mlirbc
// conversion, the server path, the settings and the restart queue.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

import { BYTECODE_MAGIC, bytecodeErrorMessage, conversionOutput, decodeBytecode } from '../core/bytecode';
import { chunkAtLine, countChunks } from '../core/chunks';
import { describeLaunch, parseLaunchResult } from '../core/launch';
import { ServerLifecycle } from '../core/lifecycle';
import type { OpHistoryParams } from '../core/opHistory';
import { OpHistoryService, historyItems, parseAlignedSnapshots, parseOpHistory, withoutLocation } from '../core/opHistory';
import { findLensSnapshot, formatDiagnostic, formatMilliseconds, irAt, parsePipelinePreview, PreviewFormatError } from '../core/preview';
import { PipelinePreviewService, preferredChoice } from '../core/previewService';
import type { PipelinePreviewParams, RerunFromParams, StepTextParams } from '../core/protocol';
import { COMMANDS, parseLensTarget } from '../core/protocol';
import { parseRerun, rerunDiagnostics, rerunRan, spliceRerun } from '../core/rerun';
import { BUILD_RELATIVE_PATH, expandConfiguredPath, isExecutableFile, resolveServerPath } from '../core/serverPath';
import { OutputTail, RestartPolicy, describeServerExit, transportArgs } from '../core/serverProcess';
import { extensionRoot } from './support/paths';
import { LINK_COLOURS, SourceLinesFormatError, colourLinks, parseSourceLines, sourceLinesOf, stepLinesOf } from '../core/sourceLines';
import { DEFAULT_SETTINGS, RESTART_SETTINGS, SETTING_KEYS, readSettings, serverLaunch } from '../core/settings';

/** A reply shaped like lsp/lib/PipelineResults.cpp writes it. */
function sampleReply(): Record<string, unknown> {
  const diagnostic = {
    range: { start: { line: 4, character: 2 }, end: { line: 4, character: 9 } },
    severity: 2,
    message: 'unused target',
    source: 'executor-pipeline',
    pass: 'cross-compile-targets',
  };
  return {
    uri: 'file:///w/a.mlir',
    version: 3,
    chunk: 0,
    lineOffset: 0,
    pipeline: 'builtin.module(lower-runtime-dispatch,cross-compile-targets,dispatch-executor-targets)',
    succeeded: true,
    totalMilliseconds: 4.5,
    input: 'module {INPUT}\n',
    diagnostics: [],
    snapshots: [
      { index: 0, pass: 'lower-runtime-dispatch', options: 'lower-runtime-dispatch', anchor: 'builtin.module', changed: false, failed: false, milliseconds: 0.25, diagnostics: [] },
      { index: 1, pass: 'cross-compile-targets', options: 'cross-compile-targets{workspace=/tmp/ws}', anchor: 'builtin.module', changed: true, failed: false, milliseconds: 3, ir: 'module {CROSS}\n', diagnostics: [diagnostic] },
      { index: 2, pass: 'canonicalize', options: 'canonicalize', anchor: 'func.func @main', changed: false, failed: false, ms: 0.5, diagnostics: [] },
      { index: 3, pass: 'dispatch-executor-targets', options: 'dispatch-executor-targets', anchor: 'builtin.module', changed: true, failed: false, milliseconds: 1, ir: 'module {DISPATCH}\n', diagnostics: [] },
    ],
  };
}

describe('source lines (executor/sourceLines)', () => {
  const reply = {
    name: 'cross-compile-targets/k/asm', kind: 'asm', text: 'a\nb\nc\nd\ne\n',
    links: [{ sourceLine: 29, stepLines: [1, 3] }, { sourceLine: 20, stepLines: [0] }],
  };
  it('reads a reply, its links in source order', () => {
    const lines = parseSourceLines(reply);
    assert.deepEqual(lines.links.map((l) => l.sourceLine), [20, 29]);
    assert.deepEqual(stepLinesOf(lines, 29), [1, 3]);
    assert.deepEqual(stepLinesOf(lines, 5), []);
    assert.deepEqual(sourceLinesOf(lines, 3), [29]);
  });
  it('gives a source line and what it became one colour, by rank', () => {
    const colours = colourLinks(parseSourceLines(reply));
    assert.equal(colours.source.length, LINK_COLOURS.length);
    assert.deepEqual(colours.source[0], [20]);
    assert.deepEqual(colours.step[0], [0]);
    assert.deepEqual(colours.source[1], [29]);
    assert.deepEqual(colours.step[1], [1, 3]);
  });
  it('refuses what it cannot read, saying what', () => {
    assert.throws(() => parseSourceLines(null), SourceLinesFormatError);
    assert.throws(() => parseSourceLines({ ...reply, links: undefined }), /no "links"/);
    assert.throws(() => parseSourceLines({ ...reply, links: [{ sourceLine: 1, stepLines: [99] }] }), /within the step/);
    assert.throws(() => parseSourceLines({ ...reply, text: 3 }), /no "name", "kind" or "text"/);
  });
});

describe('lens arguments', () => {
  it('reads what the server puts in a lens', () => {
    assert.deepEqual(
      parseLensTarget({ uri: 'file:///w/a.mlir', chunk: 2, pass: 'dispatch-executor-targets', passIndex: 3 }),
      { uri: 'file:///w/a.mlir', chunk: 2, pass: 'dispatch-executor-targets', passIndex: 3 },
    );
    assert.deepEqual(parseLensTarget({ uri: 'file:///w/a.mlir' }), { uri: 'file:///w/a.mlir', chunk: 0 });
  });
  it('is undefined for what is not a lens argument', () => {
    assert.equal(parseLensTarget(undefined), undefined);
    assert.equal(parseLensTarget('file:///w/a.mlir'), undefined);
    assert.equal(parseLensTarget({ chunk: 1 }), undefined);
    assert.equal(parseLensTarget([{ uri: 'file:///a' }]), undefined);
    assert.deepEqual(parseLensTarget({ uri: 'file:///a', chunk: -1, passIndex: 1.5, pass: '' }), { uri: 'file:///a', chunk: 0 });
  });
  it('names the command the server uses', () => {
    assert.equal(COMMANDS.showPipelinePreview, 'executor.showPipelinePreview');
  });
});

describe('split files', () => {
  const text = ['module {}', '// -----', 'module {}', '  // ----- second', 'module {}'].join('\n');
  it('counts the chunk of a line as the server does', () => {
    assert.equal(chunkAtLine(text, 0), 0);
    assert.equal(chunkAtLine(text, 1), 0);
    assert.equal(chunkAtLine(text, 2), 1);
    assert.equal(chunkAtLine(text, 3), 1);
    assert.equal(chunkAtLine(text, 4), 2);
    assert.equal(chunkAtLine(text, 99), 2);
    assert.equal(countChunks(text), 3);
    assert.equal(countChunks('module {}'), 1);
  });
});

describe('preview model', () => {
  it('fills in the IR the server left out for unchanged passes', () => {
    const preview = parsePipelinePreview(sampleReply());
    assert.equal(preview.snapshots.length, 4);
    assert.equal(irAt(preview, -1), 'module {INPUT}\n');
    assert.equal(irAt(preview, 0), 'module {INPUT}\n');
    assert.equal(irAt(preview, 1), 'module {CROSS}\n');
    assert.equal(irAt(preview, 2), 'module {CROSS}\n');
    assert.equal(irAt(preview, 3), 'module {DISPATCH}\n');
    assert.equal(preview.snapshots[2]?.milliseconds, 0.5, '`ms` is read as well as `milliseconds`');
    assert.equal(preview.snapshots[1]?.diagnostics[0]?.pass, 'cross-compile-targets');
    assert.equal(preview.version, 3);
  });
  it('reads a bare array of snapshots and rejects what is not a preview', () => {
    const preview = parsePipelinePreview([{ pass: 'cse', ir: 'x' }]);
    assert.equal(preview.snapshots[0]?.ir, 'x');
    assert.equal(preview.snapshots[0].index, 0);
    assert.throws(() => parsePipelinePreview(null), PreviewFormatError);
    assert.throws(() => parsePipelinePreview({ snapshots: 3 }), PreviewFormatError);
    assert.throws(() => parsePipelinePreview({ snapshots: [{ ir: 'x' }] }), PreviewFormatError);
  });
  it('finds the snapshot a lens points at', () => {
    const preview = parsePipelinePreview(sampleReply());
    assert.equal(findLensSnapshot(preview, { uri: 'u', chunk: 0, pass: 'dispatch-executor-targets', passIndex: 3 }), 3);
    // A stale index falls back to the pass name.
    assert.equal(findLensSnapshot(preview, { uri: 'u', chunk: 0, pass: 'cross-compile-targets', passIndex: 0 }), 1);
    assert.equal(findLensSnapshot(preview, { uri: 'u', chunk: 0, pass: 'cross-compile-targets' }), 1);
    assert.equal(findLensSnapshot(preview, { uri: 'u', chunk: 0, passIndex: 2 }), 2);
    assert.equal(findLensSnapshot(preview, { uri: 'u', chunk: 0, pass: 'no-such-pass' }), undefined);
    assert.equal(findLensSnapshot(preview, { uri: 'u', chunk: 0 }), undefined);
  });
  it('formats diagnostics and times', () => {
    const preview = parsePipelinePreview(sampleReply());
    const diagnostic = preview.snapshots[1]?.diagnostics[0];
    assert.ok(diagnostic);
    assert.equal(formatDiagnostic(diagnostic), 'warning: 5:3: unused target [cross-compile-targets]');
    assert.equal(formatMilliseconds(0.25), '0.25 ms');
    assert.equal(formatMilliseconds(3), '3.0 ms');
    assert.equal(formatMilliseconds(1234.4), '1234 ms');
  });
});

describe('preview service', () => {
  function service(keep = 8): { previews: PipelinePreviewService; requests: PipelinePreviewParams[] } {
    const requests: PipelinePreviewParams[] = [];
    const previews = new PipelinePreviewService((params) => {
      requests.push(params);
      return Promise.resolve(sampleReply());
    }, keep);
    return { previews, requests };
  }

  it('lists the input and every pass', async () => {
    const { previews, requests } = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    assert.deepEqual(requests, [{ uri: 'file:///w/a.mlir', chunk: 0 }]);
    const items = previews.passItems(run);
    assert.deepEqual(items.map((i) => i.position), [-1, 0, 1, 2, 3]);
    assert.equal(items[0]?.label, 'input');
    assert.equal(items[2]?.label, '2. cross-compile-targets');
    assert.match(items[2].description, /^changed · 3\.0 ms · on builtin\.module$/);
    assert.match(items[2].detail, /cross-compile-targets\{workspace=\/tmp\/ws\}/);
    assert.match(items[2].detail, /unused target/);
    assert.match(items[1]?.description ?? '', /^no change/);
    assert.equal(PipelinePreviewService.whyEmpty(run), undefined);
  });

  it('names one read-only document per pass and reads it back', async () => {
    const { previews, requests } = service();
    const run = await previews.run('file:///w/dir%20x/a.mlir', 0);
    const location = previews.location(run, 3);
    assert.equal(location.path, '/a.mlir/04-dispatch-executor-targets.mlir');
    assert.deepEqual(PipelinePreviewService.parseLocation(location), {
      runId: run.id,
      source: 'file:///w/dir%20x/a.mlir',
      chunk: 0,
      position: 3,
    });
    assert.equal(await previews.content(location), 'module {DISPATCH}\n');
    assert.equal(await previews.content(previews.location(run, -1)), 'module {INPUT}\n');
    assert.equal(requests.length, 1, 'a kept run is not asked for again');
    assert.equal(PipelinePreviewService.parseLocation({ path: '/x.mlir', query: 'source=a' }), undefined);
    await assert.rejects(previews.content({ path: '/x', query: '' }), /not a pipeline preview/);
  });

  it('pairs a pass with the one before it', async () => {
    const { previews } = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    const comparison = previews.comparison(run, 3);
    assert.ok(comparison);
    assert.equal(await previews.content(comparison.left), 'module {CROSS}\n');
    assert.equal(await previews.content(comparison.right), 'module {DISPATCH}\n');
    assert.equal(comparison.title, 'a.mlir: canonicalize ↔ dispatch-executor-targets (4/4)');
    assert.equal(previews.sourceLabel(run), 'a.mlir');
    const first = previews.comparison(run, 0);
    assert.ok(first);
    assert.equal(await previews.content(first.left), 'module {INPUT}\n');
    assert.equal(previews.comparison(run, -1), undefined);
  });

  it('runs again for a preview it no longer keeps', async () => {
    const { previews, requests } = service(1);
    const first = await previews.run('file:///w/a.mlir', 0);
    const second = await previews.run('file:///w/b.mlir', 1);
    assert.equal(previews.get(first.id), undefined);
    assert.equal(previews.latest('file:///w/b.mlir', 1), second);
    assert.equal(await previews.content(previews.location(first, 1)), 'module {CROSS}\n');
    assert.deepEqual(requests.at(-1), { uri: 'file:///w/a.mlir', chunk: 0 });
    await assert.rejects(previews.content(previews.location(first, 9)), /has 4 passes/);
  });

  it('says why there is nothing to show', async () => {
    const previews = new PipelinePreviewService(() =>
      Promise.resolve({
        snapshots: [],
        diagnostics: [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }, severity: 1, message: 'expected op' }],
      }),
    );
    const run = await previews.run('file:///w/a.mlir', 0);
    assert.equal(PipelinePreviewService.whyEmpty(run), 'the pipeline did not run: error: 3:1: expected op');
  });

  it('puts the errors of a failed pass above its IR', async () => {
    const previews = new PipelinePreviewService(() =>
      Promise.resolve({
        input: 'in\n',
        snapshots: [{
          pass: 'cross-compile-targets', failed: true, ir: 'partial\n',
          diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 1, message: 'two targets named @t', pass: 'cross-compile-targets' }],
        }],
      }),
    );
    const run = await previews.run('file:///w/a.mlir', 0);
    assert.equal(
      PipelinePreviewService.text(run, 0),
      '// cross-compile-targets failed:\n//   error: 1:1: two targets named @t [cross-compile-targets]\npartial\n',
    );
    assert.equal(previews.passItems(run)[1]?.failed, true);
  });
});

/** A snapshot's summary: without its "ir", with its sizes. */
function withoutText(snapshot: Record<string, unknown>): Record<string, unknown> {
  const summary: Record<string, unknown> = { ...snapshot, bytes: 15, lines: 1 };
  delete summary['ir'];
  return summary;
}

/** sampleReply() as the server sends it by default: the steps' summaries, no text. */
function summaryReply(recording = 'r1'): Record<string, unknown> {
  const reply = sampleReply();
  delete reply['input'];
  reply['inputBytes'] = 15;
  reply['inputLines'] = 1;
  reply['recording'] = recording;
  const snapshots = (reply['snapshots'] as Record<string, unknown>[]).map((s) => withoutText(s));
  reply['snapshots'] = snapshots;
  const cross = snapshots[1];
  assert.ok(cross);
  cross['nested'] = [
    { number: 0, name: 'cross-compile-targets/t/extracted', pass: 't/extracted', target: 't', kind: 'mlir', changed: true, bytes: 9, lines: 1, diagnostics: [] },
    { number: 1, name: 'cross-compile-targets/t/asm', pass: 't/asm', target: 't', kind: 'asm', changed: true, bytes: 9, lines: 1, diagnostics: [] },
  ];
  return reply;
}

describe('texts fetched when shown (executor/stepText)', () => {
  function service(): { previews: PipelinePreviewService; asked: StepTextParams[] } {
    const asked: StepTextParams[] = [];
    const texts: Record<string, string> = { '-1': 'module {INPUT}\n', 0: 'module {INPUT}\n', 1: 'module {CROSS}\n', 2: 'module {CROSS}\n', 3: 'module {DISPATCH}\n', '1/0': 't {EXTRACTED}\n', '1/1': 't: {ASM}\n' };
    const previews = new PipelinePreviewService(
      () => Promise.resolve(summaryReply()),
      8,
      () => {
        // The re-run's summaries, and its own recording.
        const reply = rerunReply();
        delete reply['input'];
        reply['recording'] = 'rerun';
        reply['snapshots'] = (reply['snapshots'] as Record<string, unknown>[]).map((s) => withoutText(s));
        return Promise.resolve(reply);
      },
      (params) => {
        asked.push(params);
        if (params.recording !== 'r1' && params.recording !== 'rerun') {
          return Promise.reject(new Error(`recording ${params.recording} is no longer kept`));
        }
        const key = params.nested === undefined ? String(params.step) : `${params.step}/${params.nested}`;
        return Promise.resolve({ recording: params.recording, step: params.step, text: `${params.recording}:${texts[key] ?? '?'}` });
      },
    );
    return { previews, asked };
  }

  it('lists every step from the summaries, with the input, and sends no text request until one is shown', async () => {
    const { previews, asked } = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    assert.equal(run.preview.recording, 'r1');
    assert.equal(run.preview.input, undefined);
    assert.equal(run.preview.snapshots[1]?.bytes, 15);
    assert.deepEqual(previews.passItems(run).map((i) => i.position), [-1, 0, 1, 4, 5, 2, 3], 'the nested steps under their pass');
    assert.deepEqual(asked, []);
  });

  it('offers the steps to pick by their pass list labels, as the server names them (Show IR Graph, Show a Step Linked)', async () => {
    const { previews, asked } = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    const all = previews.stepChoices(run);
    assert.deepEqual(all.map((c) => c.ref), [-1, 0, 1, 'cross-compile-targets/t/extracted', 'cross-compile-targets/t/asm', 2, 3]);
    assert.deepEqual(all.map((c) => c.label), previews.passItems(run).map((i) => i.label));
    assert.equal(all[4]?.kind, 'asm');
    // The graph's: MLIR steps only.
    assert.deepEqual(previews.stepChoices(run, ['mlir']).map((c) => c.ref), [-1, 0, 1, 'cross-compile-targets/t/extracted', 2, 3]);
    // The last one chosen, by its ref or its last name.
    assert.equal(preferredChoice(all, 'asm')?.ref, 'cross-compile-targets/t/asm');
    assert.equal(preferredChoice(all, 1)?.ref, 1);
    assert.equal(preferredChoice(all, 'nope'), undefined);
    assert.equal(preferredChoice(all, undefined), undefined);
    assert.deepEqual(asked, [], 'no text is fetched to list them');
  });

  it('fetches a step the first time it is shown, then keeps it', async () => {
    const { previews, asked } = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    assert.equal(await previews.content(previews.location(run, 1)), 'r1:module {CROSS}\n');
    assert.equal(await previews.content(previews.location(run, 1)), 'r1:module {CROSS}\n');
    assert.equal(await previews.content(previews.location(run, -1)), 'r1:module {INPUT}\n');
    assert.deepEqual(asked, [{ recording: 'r1', step: 1 }, { recording: 'r1', step: -1 }]);
    // A pass that changed nothing is not the text of a pass that was not shown.
    assert.equal(irAt(run.preview, 2), undefined);
    assert.equal(await previews.editableText(previews.location(run, 2, true)), 'r1:module {CROSS}\n');
    assert.deepEqual(asked.at(-1), { recording: 'r1', step: 2 });
  });

  it("fetches a target's own step by its position in its pass's nested steps", async () => {
    const { previews, asked } = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    // Position 5: the second nested step (the passes are 0..3).
    assert.equal(previews.passName(run, 5), 'cross-compile-targets/t/asm');
    assert.equal(await previews.content(previews.location(run, 5)), 'r1:t: {ASM}\n');
    assert.deepEqual(asked, [{ recording: 'r1', step: 1, nested: 1 }]);
  });

  it("fetches a re-run's passes from its recording, the passes before it from the base run's", async () => {
    const { previews, asked } = service();
    const base = await previews.run('file:///w/a.mlir', 0);
    const outcome = await previews.rerun(base, 1, 'module {EDITED}\n');
    const run = outcome.run;
    assert.ok(run);
    assert.equal(await previews.content(previews.location(run, 1)), 'module {EDITED}\n', 'the edited text is the client\'s');
    await previews.content(previews.location(run, 0));
    await previews.content(previews.location(run, 2));
    assert.deepEqual(asked, [{ recording: 'r1', step: 0 }, { recording: 'rerun', step: 2 }]);
  });

  it('reports a recording the server no longer keeps', async () => {
    const previews = new PipelinePreviewService(() => Promise.resolve(summaryReply('gone')), 8, undefined,
      (params) => Promise.reject(new Error(`recording ${params.recording} is no longer kept`)));
    const run = await previews.run('file:///w/a.mlir', 0);
    await assert.rejects(previews.content(previews.location(run, 1)), /recording gone is no longer kept/);
  });
});

/** A reply shaped like executor/rerunFrom's after snapshot 1 of sampleReply()'s pipeline. */
function rerunReply(): Record<string, unknown> {
  return {
    uri: 'file:///w/a.mlir',
    version: 3,
    chunk: 0,
    lineOffset: 0,
    pipeline: 'builtin.module(lower-runtime-dispatch,cross-compile-targets,canonicalize,dispatch-executor-targets)',
    editedSnapshot: 1,
    firstStep: 2,
    remainingPipeline: 'builtin.module(canonicalize,dispatch-executor-targets)',
    succeeded: false,
    totalMilliseconds: 2,
    input: 'module {EDITED, PRINTED}\n',
    textUri: 'executor-snapshot:/a.mlir/02-cross-compile-targets.edit.mlir',
    diagnostics: [],
    snapshots: [
      { index: 2, pass: 'canonicalize', options: 'canonicalize', anchor: 'builtin.module', changed: false, failed: false, milliseconds: 0.5, diagnostics: [] },
      {
        index: 3, pass: 'dispatch-executor-targets', options: 'dispatch-executor-targets', anchor: 'builtin.module', changed: true, failed: true, milliseconds: 1.5,
        ir: 'module {PARTIAL}\n',
        diagnostics: [{ range: { start: { line: 6, character: 4 }, end: { line: 6, character: 9 } }, severity: 1, message: 'no address', source: 'executor-pipeline', pass: 'dispatch-executor-targets' }],
      },
    ],
  };
}

describe('editable pass snapshots and their re-run', () => {
  function service(reply: unknown = rerunReply()): { previews: PipelinePreviewService; reruns: RerunFromParams[] } {
    const reruns: RerunFromParams[] = [];
    const previews = new PipelinePreviewService(
      () => Promise.resolve(sampleReply()),
      8,
      (params) => {
        reruns.push(params);
        return Promise.resolve(reply);
      },
    );
    return { previews, reruns };
  }

  it('reads the reply: the rest, the edited snapshot, the pipeline that reproduces it', () => {
    const result = parseRerun(rerunReply());
    assert.equal(result.editedSnapshot, 1);
    assert.equal(result.firstStep, 2);
    assert.equal(result.remainingPipeline, 'builtin.module(canonicalize,dispatch-executor-targets)');
    assert.deepEqual(result.rest.snapshots.map((s) => s.index), [2, 3]);
    assert.equal(result.rest.snapshots[0]?.ir, 'module {EDITED, PRINTED}\n', 'an unchanged pass shows the edited IR');
    assert.equal(rerunRan(result), true);
    assert.throws(() => parseRerun({ snapshots: [] }), /editedSnapshot/);
    assert.throws(() => parseRerun('x'), PreviewFormatError);
  });

  it('splices the re-run onto the run it was edited from, the edited pass marked', () => {
    const base = parsePipelinePreview(sampleReply());
    const spliced = spliceRerun(base, parseRerun(rerunReply()), 'module {EDITED}\n');
    assert.deepEqual(spliced.snapshots.map((s) => [s.index, s.pass, s.edited]), [
      [0, 'lower-runtime-dispatch', false],
      [1, 'cross-compile-targets', true],
      [2, 'canonicalize', false],
      [3, 'dispatch-executor-targets', false],
    ]);
    assert.equal(spliced.edited, 1);
    assert.equal(irAt(spliced, -1), 'module {INPUT}\n', 'the input stays');
    assert.equal(irAt(spliced, 0), 'module {INPUT}\n');
    assert.equal(irAt(spliced, 1), 'module {EDITED, PRINTED}\n', 'the server\'s print of the edit');
    assert.deepEqual(spliced.snapshots[1]?.diagnostics, [], 'the pass\'s own diagnostics are gone with its output');
    assert.equal(spliced.snapshots[1].changed, true);
    assert.equal(irAt(spliced, 3), 'module {PARTIAL}\n');
    assert.equal(spliced.succeeded, false);
    assert.equal(spliced.totalMilliseconds, 0.25 + 3 + 2);
    assert.equal(base.snapshots[1]?.edited, false, 'the base run is left as it was');
    assert.equal(irAt(base, 1), 'module {CROSS}\n');

    // The input edited: the whole pipeline re-ran.
    const all = spliceRerun(base, parseRerun({ ...rerunReply(), editedSnapshot: -1, firstStep: 0 }), 'module {EDITED}\n');
    assert.equal(all.edited, -1);
    assert.equal(all.input, 'module {EDITED, PRINTED}\n');
    assert.deepEqual(all.snapshots.map((s) => s.index), [2, 3]);
    // A snapshot the base does not have.
    assert.throws(() => spliceRerun(base, parseRerun({ ...rerunReply(), editedSnapshot: 7 }), 'x'), /no snapshot 7/);
  });

  it('sends the snapshot index, the text and its document, and keeps the re-run as a run', async () => {
    const { previews, reruns } = service();
    const base = await previews.run('file:///w/a.mlir', 0);
    const editable = previews.location(base, 1, true);
    assert.equal(editable.path, '/a.mlir/02-cross-compile-targets.edit.mlir');
    assert.equal(await previews.editableText(editable), 'module {CROSS}\n', 'the IR as it is, no header');
    const outcome = await previews.rerun(base, 1, 'module {EDITED}\n', 'executor-snapshot:/a.mlir/02-cross-compile-targets.edit.mlir');
    assert.deepEqual(reruns, [{
      uri: 'file:///w/a.mlir', chunk: 0, pass: 1, text: 'module {EDITED}\n',
      textUri: 'executor-snapshot:/a.mlir/02-cross-compile-targets.edit.mlir',
    }]);
    assert.ok(outcome.run);
    assert.notEqual(outcome.run.id, base.id);
    assert.equal(outcome.run.basedOn, base.id);
    assert.equal(previews.get(outcome.run.id), outcome.run);
    assert.equal(previews.latest('file:///w/a.mlir', 0), outcome.run);
    // The pass list marks the edited pass; its title says what re-ran.
    const items = previews.passItems(outcome.run);
    assert.deepEqual(items.filter((i) => i.edited).map((i) => i.label), ['2. cross-compile-targets']);
    assert.match(items[2]?.description ?? '', /^edited · /);
    assert.equal(previews.listTitle(outcome.run), 'a.mlir: re-run after 2. cross-compile-targets (edited), failed');
    assert.equal(previews.listTitle(base), 'a.mlir');
    assert.equal(await previews.content(previews.location(outcome.run, 1)), 'module {EDITED, PRINTED}\n');
    // Every error is at a line of the edited text, with its pass.
    assert.deepEqual(outcome.diagnostics.map(formatDiagnostic), ['error: 7:5: no address [dispatch-executor-targets]']);
    // The input: pass -1.
    await previews.rerun(base, -1, 'module {}\n');
    assert.equal(reruns.at(-1)?.pass, -1);
    await assert.rejects(previews.rerun(base, 4, 'x'), /has 4 passes, not 5/);
  });

  it('runs nothing on edited IR that does not parse, and says where', async () => {
    const error = { range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } }, severity: 1, message: "custom op 'fnuc.return' is unknown", source: 'mlir' };
    const { previews } = service({ ...rerunReply(), input: undefined, succeeded: false, snapshots: [], diagnostics: [error] });
    const base = await previews.run('file:///w/a.mlir', 0);
    const outcome = await previews.rerun(base, 1, 'module {\n\n    fnuc.return\n}\n');
    assert.equal(outcome.run, undefined);
    assert.equal(rerunRan(outcome.result), false);
    assert.deepEqual(rerunDiagnostics(outcome.result).map(formatDiagnostic), ["error: 3:5: custom op 'fnuc.return' is unknown"]);
  });

  it('passes on the pipeline the preview ran', async () => {
    const { previews, reruns } = service();
    const base = await previews.run('file:///w/a.mlir', 1, undefined, 'builtin.module(cse)');
    await previews.rerun(base, 0, 'module {}\n');
    assert.equal(reruns[0]?.pipeline, 'builtin.module(cse)');
    assert.equal(reruns[0].chunk, 1);
    await assert.rejects(new PipelinePreviewService(() => Promise.resolve(sampleReply())).rerun(base, 0, 'x'), /cannot re-run/);
  });
});

describe('.mlirbc as text', () => {
  it('takes the output of a conversion, or says what came instead', () => {
    assert.equal(conversionOutput('mlir/convertFromBytecode', { output: 'module {}' }), 'module {}');
    assert.throws(() => conversionOutput('mlir/convertFromBytecode', { text: 'x' }), /^Error: mlir\/convertFromBytecode answered without an "output": \{"text":"x"\}/);
    assert.throws(() => conversionOutput('mlir/convertToBytecode', null), /without an "output"/);
  });
  it('decodes base64 bytecode and refuses what is not bytecode', () => {
    const bytes = Buffer.concat([BYTECODE_MAGIC, Buffer.from([1, 2, 3])]);
    assert.deepEqual(Buffer.from(decodeBytecode(bytes.toString('base64'))), bytes);
    assert.throws(() => decodeBytecode(Buffer.from('module {}').toString('base64')), /not MLIR bytecode/);
    assert.throws(() => decodeBytecode('not base64!'), /not base64/);
    assert.throws(() => decodeBytecode(''), /not MLIR bytecode/);
  });
  it('says which file could not be shown or saved, and why', () => {
    assert.equal(bytecodeErrorMessage('read', '/w/a.mlirbc', new Error('bad magic')), 'Executor Studio cannot show /w/a.mlirbc as text: bad magic');
    assert.equal(bytecodeErrorMessage('save', '/w/a.mlirbc', 'the document has errors'), 'Executor Studio did not save /w/a.mlirbc as bytecode: the document has errors');
  });
});

describe('server path', () => {
  const trees: string[] = [];
  after(() => {
    for (const tree of trees) {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });
  function tempTree(): string {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'executor-studio-test-'));
    trees.push(tree);
    return tree;
  }
  function makeExecutable(file: string): string {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\n');
    fs.chmodSync(file, 0o755);
    return file;
  }

  it('takes the build directory of the workspace, or of a folder above it', () => {
    const root = tempTree();
    const server = makeExecutable(path.join(root, BUILD_RELATIVE_PATH));
    const nested = path.join(root, 'samples', 'deeper');
    fs.mkdirSync(nested, { recursive: true });
    assert.deepEqual(resolveServerPath({ configured: '', workspaceFolders: [root], envPath: '' }), {
      found: true, path: server, source: 'build',
    });
    assert.deepEqual(resolveServerPath({ configured: '', workspaceFolders: [nested], envPath: '' }), {
      found: true, path: server, source: 'build',
    });
    assert.deepEqual(resolveServerPath({ configured: '', workspaceFolders: [], extraRoots: [nested], envPath: '' }), {
      found: true, path: server, source: 'build',
    });
  });

  it('falls back to the PATH', () => {
    const workspace = tempTree();
    const bin = tempTree();
    const server = makeExecutable(path.join(bin, 'executor-lsp-server'));
    const result = resolveServerPath({ configured: '', workspaceFolders: [workspace], envPath: `/nonexistent${path.delimiter}${bin}` });
    assert.deepEqual(result, { found: true, path: server, source: 'PATH' });
  });

  it('uses the setting, and says so when it points nowhere', () => {
    const workspace = tempTree();
    const server = makeExecutable(path.join(workspace, 'tools', 'my-server'));
    // Also present in build/: the setting wins.
    makeExecutable(path.join(workspace, BUILD_RELATIVE_PATH));
    for (const configured of [server, 'tools/my-server', '${workspaceFolder}/tools/my-server']) {
      assert.deepEqual(resolveServerPath({ configured, workspaceFolders: [workspace], envPath: '' }), {
        found: true, path: server, source: 'setting',
      });
    }
    assert.deepEqual(resolveServerPath({ configured: 'my-server', workspaceFolders: [], envPath: path.dirname(server) }), {
      found: true, path: server, source: 'setting',
    });
    const missing = resolveServerPath({ configured: '/nowhere/executor-lsp-server', workspaceFolders: [workspace], envPath: '' });
    assert.ok(!missing.found);
    assert.match(missing.message, /executorStudio\.serverPath is "\/nowhere\/executor-lsp-server"/);
  });

  it('reports where it looked when nothing is there', () => {
    const workspace = tempTree();
    const result = resolveServerPath({ configured: '', workspaceFolders: [workspace], envPath: '/nonexistent' });
    assert.ok(!result.found);
    assert.ok(result.tried.includes(path.join(workspace, BUILD_RELATIVE_PATH)));
    assert.ok(result.tried.includes('/nonexistent/executor-lsp-server'));
  });

  it('needs an executable file', () => {
    const dir = tempTree();
    const plain = path.join(dir, 'plain');
    fs.writeFileSync(plain, '');
    assert.equal(isExecutableFile(plain), false);
    assert.equal(isExecutableFile(dir), false);
    assert.equal(isExecutableFile(makeExecutable(path.join(dir, 'x'))), true);
    assert.equal(expandConfiguredPath('~/bin/s', undefined, '/home/u'), '/home/u/bin/s');
    assert.equal(expandConfiguredPath('${userHome}/s', undefined, '/home/u'), '/home/u/s');
  });
});

describe('settings', () => {
  it('reads the settings, with defaults for what is unset or wrong', () => {
    const values: Record<string, unknown> = { serverPath: '/x', allowUnregisteredDialect: true, previewTimeoutMs: -3, 'format.dropComments': true };
    assert.deepEqual(readSettings((key) => values[key]), {
      serverPath: '/x', allowUnregisteredDialect: true, pipelineDiagnostics: true, previewTimeoutMs: 0, formatDropComments: true,
    });
    assert.deepEqual(readSettings(() => undefined), DEFAULT_SETTINGS);
  });
  it('passes --allow-unregistered-dialect when asked', () => {
    assert.deepEqual(serverLaunch(DEFAULT_SETTINGS), {
      args: [],
      initializationOptions: { allowUnregisteredDialect: false, pipelineDiagnostics: true, formatDropsComments: false },
    });
    assert.deepEqual(serverLaunch({ ...DEFAULT_SETTINGS, allowUnregisteredDialect: true, previewTimeoutMs: 5000 }), {
      args: ['--allow-unregistered-dialect'],
      initializationOptions: { allowUnregisteredDialect: true, pipelineDiagnostics: true, previewTimeoutMs: 5000, formatDropsComments: false },
    });
  });
  it('asks the server to format although comments are lost only when executorStudio.format.dropComments says so', () => {
    assert.equal(serverLaunch({ ...DEFAULT_SETTINGS, formatDropComments: true }).initializationOptions['formatDropsComments'], true);
  });
  it('restarts on the settings package.json contributes', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default: unknown }> } };
    };
    const properties = manifest.contributes.configuration.properties;
    for (const [field, key] of Object.entries(SETTING_KEYS)) {
      const full = `executorStudio.${key}`;
      assert.ok(RESTART_SETTINGS.includes(full), `${full} restarts the server`);
      assert.ok(full in properties, `${full} is contributed`);
      assert.deepEqual(properties[full]?.default, DEFAULT_SETTINGS[field as keyof typeof DEFAULT_SETTINGS], `${full} has the same default`);
    }
  });
});

describe('server lifecycle', () => {
  it('stops the running client before it starts the next', async () => {
    const events: string[] = [];
    let next = 0;
    const lifecycle = new ServerLifecycle<number>({
      start: async () => {
        const id = ++next;
        events.push(`start ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return id;
      },
      stop: async (id) => {
        events.push(`stop ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    assert.equal(await lifecycle.restart(), 1);
    assert.equal(lifecycle.current, 1);
    assert.equal(await lifecycle.restart(), 2);
    await lifecycle.stop();
    assert.equal(lifecycle.current, undefined);
    assert.deepEqual(events, ['start 1', 'stop 1', 'start 2', 'stop 2']);
  });

  it('folds restarts asked for together into one', async () => {
    let starts = 0;
    const lifecycle = new ServerLifecycle<number>({
      start: () => Promise.resolve(++starts),
      stop: () => Promise.resolve(),
    });
    const first = lifecycle.restart();
    const [a, b, c] = await Promise.all([first, lifecycle.restart(), lifecycle.restart()]);
    assert.deepEqual([a, b, c], [1, 1, 1]);
    assert.equal(await lifecycle.restart(), 2);
  });

  it('recovers from a start that fails', async () => {
    let fail = true;
    const lifecycle = new ServerLifecycle<string>({
      start: () => (fail ? Promise.reject(new Error('not built')) : Promise.resolve('client')),
      stop: () => Promise.resolve(),
    });
    await assert.rejects(lifecycle.restart(), /not built/);
    assert.equal(lifecycle.current, undefined);
    fail = false;
    assert.equal(await lifecycle.restart(), 'client');
    await lifecycle.dispose();
    assert.equal(await lifecycle.restart(), undefined, 'nothing starts after dispose');
  });
});

describe('the server process: arguments, last words, restarts', () => {
  it('passes what vscode-languageclient passes a stdio server, and the pid to watch', () => {
    assert.deepEqual(transportArgs(4242), ['--stdio', '--clientProcessId=4242']);
  });

  it('keeps the last lines of stderr, bounded', () => {
    const tail = new OutputTail(100);
    tail.append('first line\nsecond ');
    tail.append('line\n\nthird line\n');
    assert.deepEqual(tail.lines(2), ['second line', 'third line']);
    const short = new OutputTail(20);
    short.append('x'.repeat(50));
    short.append('\nlast\n');
    assert.deepEqual(short.lines(), ['x'.repeat(14), 'last']);
  });

  it('says how the server ended, and what it said', () => {
    const base = { path: '/x/executor-lsp-server', code: null, signal: null, uptimeMs: 50, stderr: [] };
    assert.equal(
      describeServerExit({ ...base, code: 1, stderr: ["executor-lsp-server: Unknown command line argument '--bogus'."] }),
      "/x/executor-lsp-server exited with code 1 as it started: \"executor-lsp-server: Unknown command line argument '--bogus'.\"",
    );
    assert.equal(describeServerExit({ ...base, signal: 'SIGSEGV', uptimeMs: 61000 }), '/x/executor-lsp-server was killed by SIGSEGV after 61 s');
    assert.equal(
      describeServerExit({ ...base, spawnError: 'spawn /x/executor-lsp-server EACCES' }),
      '/x/executor-lsp-server could not be run: spawn /x/executor-lsp-server EACCES',
    );
  });

  it('restarts a server that ran a while, at most 4 times in 3 minutes, never one that died as it started', () => {
    const policy = new RestartPolicy();
    assert.equal(policy.shouldRestart(0, 500), false, 'died as it started');
    for (let i = 0; i < 4; ++i) {
      assert.equal(policy.shouldRestart(1000 * i, 60000), true, `restart ${i + 1}`);
    }
    assert.equal(policy.shouldRestart(5000, 60000), false, 'the fifth within 3 minutes');
    assert.equal(policy.shouldRestart(3 * 60 * 1000 + 1000, 60000), true, 'the first one is older than 3 minutes now');
    policy.reset();
    for (let i = 0; i < 4; ++i) {
      assert.equal(policy.shouldRestart(200000, 60000), true);
    }
  });
});

describe('a target\'s own steps in the preview', () => {
  /** cross-compile-targets with the nested steps of one target, as the server writes them. */
  function nestedReply(): Record<string, unknown> {
    const reply = sampleReply();
    const snapshots = reply['snapshots'] as Record<string, unknown>[];
    const step = (number: number, pass: string, kind: string, changed: boolean, ir?: string): Record<string, unknown> => ({
      number,
      name: `cross-compile-targets/arm/${pass}`,
      pass: `arm/${pass}`,
      target: 'arm',
      kind,
      anchor: kind === 'mlir' ? 'builtin.module' : 'aarch64-unknown-linux-gnu',
      changed,
      failed: false,
      milliseconds: 0.5,
      diagnostics: [],
      ...(ir === undefined ? {} : { ir }),
    });
    snapshots[1] = {
      ...snapshots[1],
      nested: [
        step(0, 'extracted', 'mlir', true, 'module {ARM}\n'),
        step(1, 'cse', 'mlir', false),
        step(2, 'llvm', 'llvm', true, '; ModuleID = \'arm\'\n'),
        step(3, 'asm', 'asm', true, 'twice:\n\tret\n'),
      ],
    };
    return reply;
  }
  function service(): PipelinePreviewService {
    return new PipelinePreviewService(() => Promise.resolve(nestedReply()));
  }

  it('reads them and fills in the IR the server left out', () => {
    const preview = parsePipelinePreview(nestedReply());
    const nested = preview.snapshots[1]?.nested ?? [];
    assert.deepEqual(nested.map((s) => s.number), [0, 1, 2, 3]);
    assert.equal(nested[1]?.ir, 'module {ARM}\n', 'an unchanged step has the text before it');
    assert.equal(nested[3]?.kind, 'asm');
    assert.equal(preview.snapshots[0]?.nested.length, 0);
    // Positions after the passes'.
    assert.equal(irAt(preview, 4), 'module {ARM}\n');
    assert.equal(irAt(preview, 7), 'twice:\n\tret\n');
    assert.equal(irAt(preview, 3), 'module {DISPATCH}\n');
  });

  it('lists them under their pass, with numbers within the target', async () => {
    const previews = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    const items = previews.passItems(run);
    assert.deepEqual(items.map((i) => i.position), [-1, 0, 1, 4, 5, 6, 7, 2, 3]);
    assert.equal(items[3]?.parent, 1);
    assert.match(items[3].label, /^ +0\. arm\/extracted$/);
    assert.match(items[6]?.label ?? '', /^ +3\. arm\/asm$/);
    assert.match(items[6]?.description ?? '', /^changed · 0\.50 ms · assembly for aarch64-unknown-linux-gnu$/);
    assert.equal(items[7]?.parent, undefined);
  });

  it('names their documents as executor-compile names their files, and compares each with the step before it', async () => {
    const previews = service();
    const run = await previews.run('file:///w/a.mlir', 0);
    assert.equal(previews.location(run, 7).path, '/a.mlir/02-cross-compile-targets.arm.03-asm.s');
    assert.equal(previews.location(run, 6).path, '/a.mlir/02-cross-compile-targets.arm.02-llvm.ll');
    assert.equal(await previews.content(previews.location(run, 7)), 'twice:\n\tret\n');
    const asm = previews.comparison(run, 7);
    assert.ok(asm);
    assert.equal(await previews.content(asm.left), '; ModuleID = \'arm\'\n');
    assert.equal(asm.title, 'a.mlir: cross-compile-targets/arm/llvm ↔ cross-compile-targets/arm/asm (2/4, step 3)');
    // The extracted module: against the IR before its pass.
    const extracted = previews.comparison(run, 4);
    assert.ok(extracted);
    assert.equal(await previews.content(extracted.left), 'module {INPUT}\n');
    assert.equal(previews.title(run, 5), 'a.mlir: after cross-compile-targets/arm/cse');
    await assert.rejects(previews.content(previews.location(run, 8)), /has 4 passes/);
  });

  it('does not re-run from a target\'s own step', async () => {
    const previews = new PipelinePreviewService(() => Promise.resolve(nestedReply()), 8, () => Promise.reject(new Error('not sent')));
    const run = await previews.run('file:///w/a.mlir', 0);
    await assert.rejects(previews.rerun(run, 7, 'x'), /is a target's own step/);
  });
});

/** An op history shaped like lsp/lib/OpHistory.cpp writes it. */
function historyReply(): Record<string, unknown> {
  const range = (line: number, start: number, end: number): Record<string, unknown> => ({ start: { line, character: start }, end: { line, character: end } });
  return {
    uri: 'file:///w/arm.mlir',
    version: 2,
    chunk: 0,
    lineOffset: 0,
    pipeline: 'builtin.module(cross-compile-targets,cse)',
    succeeded: true,
    diagnostics: [],
    places: [{ file: '/w/arm.mlir', line: 16, column: 9 }],
    steps: [
      { name: 'input', index: -1, number: 0, kind: 'mlir', lines: [13], ranges: [range(13, 8, 40)],
        texts: ['%1 = arith.addf %0, %0 : f64 loc(#loc12)'], ir: 'module {\n' },
      { name: 'cross-compile-targets', pass: 'cross-compile-targets', index: 0, number: 1, kind: 'mlir', changed: true,
        lines: [], ranges: [], texts: [] },
      { name: 'cross-compile-targets/arm/llvm', pass: 'arm/llvm', target: 'arm', parent: 0, number: 12, kind: 'llvm', changed: true,
        lines: [20, 31], ranges: [range(20, 2, 30), range(31, 2, 30)],
        texts: ['%5 = fadd double %4, %4, !dbg !12', '%9 = fadd double %8, %8, !dbg !12'], ir: 'define void @twice()\n' },
      { name: 'cross-compile-targets/arm/asm', pass: 'arm/asm', target: 'arm', parent: 0, number: 14, kind: 'asm', changed: true,
        lines: [40], ranges: [range(40, 1, 20)], texts: ['fadd\tv0.2d, v0.2d, v0.2d'], ir: 'twice:\n' },
      { name: 'cse', pass: 'cse', index: 1, number: 2, kind: 'mlir', changed: false, lines: [], ranges: [], texts: [] },
    ],
  };
}

describe("an op's history", () => {
  it('reads the reply and lists each pass with the lines the op became', () => {
    const history = parseOpHistory(historyReply());
    assert.deepEqual(history.places, [{ file: '/w/arm.mlir', line: 16, column: 9 }]);
    assert.equal(history.steps.length, 5);
    const items = historyItems(history);
    assert.deepEqual(items.map((i) => i.label.trim()), [
      'input', '1. cross-compile-targets', '12. cross-compile-targets/arm/llvm', '14. cross-compile-targets/arm/asm', '2. cse',
    ]);
    assert.deepEqual(items.map((i) => i.present), [true, false, true, true, false]);
    assert.deepEqual(items.map((i) => i.nested), [false, false, true, true, false]);
    // 1-based lines, the kind of text, and the lines without their locations.
    const [input, cross, ll, asm] = items;
    assert.ok(input && cross && ll && asm);
    assert.equal(input.description, 'line 14');
    assert.equal(input.detail, '%1 = arith.addf %0, %0 : f64');
    assert.equal(cross.description, 'gone: no line names its location');
    assert.equal(ll.description, 'lines 21, 32 · LLVM IR');
    assert.equal(ll.detail, '%5 = fadd double %4, %4  |  %9 = fadd double %8, %8');
    assert.equal(asm.description, 'line 41 · assembly');
  });

  it('refuses a reply whose lines, ranges and texts do not pair up', () => {
    const reply = historyReply();
    const steps = reply['steps'] as Record<string, unknown>[];
    const llvm = steps[2];
    assert.ok(llvm);
    llvm['texts'] = ['one'];
    assert.throws(() => parseOpHistory(reply), /do not pair up/);
    assert.throws(() => parseOpHistory({ steps: [] }), /no "steps" or "places"/);
    assert.throws(() => parseOpHistory({ places: [], steps: [{ name: 'x', number: 0, kind: 'wasm', lines: [], ranges: [], texts: [] }] }),
      /kind "wasm"/);
  });

  it('strips locations from MLIR and LLVM IR lines', () => {
    assert.equal(withoutLocation('%0 = arith.muli %a, %b : i32 loc(#loc3)'), '%0 = arith.muli %a, %b : i32');
    assert.equal(withoutLocation('%0 = arith.muli %a, %b : i32 loc(fused["a.mlir":1:2, "b.py":3:4])'), '%0 = arith.muli %a, %b : i32');
    assert.equal(withoutLocation('  ret void, !dbg !14'), 'ret void');
    assert.equal(withoutLocation('fmul\td0, d0, d0'), 'fmul\td0, d0, d0');
  });

  it('names a document for each step, asks the server for it and follows an op from it', async () => {
    const sent: OpHistoryParams[] = [];
    const histories = new OpHistoryService((params) => {
      sent.push(params);
      return Promise.resolve(historyReply());
    }, 2);
    const run = await histories.follow({ uri: 'file:///w/arm.mlir', position: { line: 15, character: 12 } });
    // The texts are always asked for: the documents show them.
    assert.deepEqual(sent[0], { uri: 'file:///w/arm.mlir', position: { line: 15, character: 12 }, withIR: true });
    assert.match(OpHistoryService.title(run), /^arm\.mlir: arm\.mlir:16:9 after each pass \(in 3 of 5 snapshots\)$/);
    const asm = histories.location(run, 3);
    assert.equal(asm.path, '/arm.mlir/history-1/14-cross-compile-targets_arm_asm.s');
    assert.deepEqual(OpHistoryService.parseLocation(asm), { history: run.id, step: 3 });
    assert.equal(histories.content(asm), 'twice:\n');
    assert.match(histories.content(histories.location(run, 1)), /not in cross-compile-targets/);
    assert.equal(histories.location(run, 0).path, '/arm.mlir/history-1/00-input.mlir');
    // From a step's document: that snapshot (a target's step by name) and the line.
    assert.deepEqual(histories.followFrom(asm, 40), { uri: 'file:///w/arm.mlir', chunk: 0, snapshot: 'cross-compile-targets/arm/asm', line: 40 });
    assert.deepEqual(histories.followFrom(histories.location(run, 0), 13), { uri: 'file:///w/arm.mlir', chunk: 0, snapshot: -1, line: 13 });
    // Only the last `keep` histories are kept.
    await histories.follow({ uri: 'file:///w/arm.mlir', position: { line: 1, character: 1 } });
    await histories.follow({ uri: 'file:///w/arm.mlir', position: { line: 2, character: 1 } });
    assert.throws(() => histories.content(asm), /no longer kept/);
  });

  it('reads the two texts of a structural diff', () => {
    const aligned = parseAlignedSnapshots({
      mode: 'structural', matchedOps: 7, renamed: 2,
      left: { name: 'cross-compile-targets', kind: 'mlir', text: 'a' },
      right: { name: 'dispatch-executor-targets', kind: 'mlir', text: 'b' },
    });
    assert.equal(aligned.mode, 'structural');
    assert.equal(aligned.right.text, 'b');
    assert.equal(aligned.matchedOps, 7);
    assert.throws(() => parseAlignedSnapshots({ mode: 'words' }), /without a "mode"/);
    assert.throws(() => parseAlignedSnapshots({ mode: 'line', left: { name: 'x', kind: 'mlir' }, right: {} }), /left side/);
  });

  it('says when a launch compiled its kernel for the executor\'s triple', () => {
    const result = parseLaunchResult({
      kernel: '@arm::@twice', address: 'ADDR:PORT', ok: true,
      results: [{ sizes: [1], values: [2] }], retargeted: 'x86_64-pc-linux-gnu',
    });
    assert.ok(result);
    assert.equal(result.retargeted, 'x86_64-pc-linux-gnu');
    assert.equal(describeLaunch(result),
      '@arm::@twice on ADDR:PORT (compiled for x86_64-pc-linux-gnu, the executor\'s triple): [{"sizes":[1],"values":[2]}]');
  });
});
