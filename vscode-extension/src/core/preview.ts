// The pipeline recorder's snapshots as `executor/pipelinePreview` returns
// them, read into one model the preview command shows. No VS Code API here.

import type { PreviewDiagnostic, PreviewLensTarget, Range } from './protocol';
import { isRecord } from './protocol';

/**
 * One step of a target's own lowering, recorded inside `cross-compile-targets`:
 * its extracted module, the IR after each step of its pipeline, its LLVM IR
 * before and after LLVM's optimisation, and its assembly for its triple.
 */
export interface NestedStep {
  /** The number within its target (0: the extracted module), as `executor-compile` names the file in `ir/TARGET/`. */
  number: number;
  /** With its parent's pass: `cross-compile-targets/compute/convert-func-to-llvm` (the server sends its `pass` only). */
  name: string;
  /** `compute/convert-func-to-llvm`, `compute/asm`. */
  pass: string;
  target: string;
  kind: 'mlir' | 'llvm' | 'asm';
  /** The operation it ran on; for LLVM IR and assembly, the target's triple. */
  anchor: string;
  changed: boolean;
  failed: boolean;
  milliseconds: number;
  /**
   * Filled in from the step before it in its target when it changed nothing
   * and the server left it out; else fetched when shown (`executor/stepText`).
   */
  ir: string | undefined;
  /** The size of its text, sent or not. */
  bytes?: number;
  lines?: number;
  diagnostics: PreviewDiagnostic[];
}

/** One pass of the pipeline, after it ran. */
export interface Snapshot {
  /** Position in the recording, from 0. */
  index: number;
  /** The pass argument (`cross-compile-targets`). */
  pass: string;
  /** The pass as a pipeline element with its options. */
  options: string;
  /** The operation the pass ran on (`builtin.module`, `func.func @main`). */
  anchor: string;
  changed: boolean;
  failed: boolean;
  /** Whether its IR is text the user put in place of the pass's output (a re-run from it). */
  edited: boolean;
  milliseconds: number;
  /**
   * The whole IR after the pass. The server leaves out the IR of a pass that
   * changed nothing; here it is filled in from the pass before (or the input).
   * Undefined when the server recorded no IR.
   */
  ir: string | undefined;
  /** The size of its text, sent or not. */
  bytes?: number;
  lines?: number;
  /** The recording whose texts `executor/stepText` fetches (a re-run's steps have their own). */
  recording?: string;
  diagnostics: PreviewDiagnostic[];
  /** Each target's own steps (`cross-compile-targets` only). */
  nested: NestedStep[];
}

/** The result of one `executor/pipelinePreview`. */
export interface PipelinePreview {
  uri: string | undefined;
  version: number | undefined;
  chunk: number;
  /** Where the chunk starts in the document (0-based line). */
  lineOffset: number;
  pipeline: string;
  succeeded: boolean;
  totalMilliseconds: number;
  /** The input as printed before the first pass (undefined until fetched, when the server sent only summaries). */
  input: string | undefined;
  /** Whether the run has an input text (sent, or to fetch). */
  hasInput: boolean;
  /** The server's id of the recording, for `executor/stepText`. */
  recording?: string;
  /** Diagnostics of parsing, verification and the pipeline text. */
  diagnostics: PreviewDiagnostic[];
  snapshots: Snapshot[];
  /**
   * A re-run (`executor/rerunFrom`, or one spliced onto the run it came
   * from): the position of the edited snapshot (-1: the input).
   */
  edited?: number;
}

/** Thrown for a reply that is not the recorder's snapshots. */
export class PreviewFormatError extends Error {
  constructor(message: string) {
    super(`malformed pipeline preview: ${message}`);
    this.name = 'PreviewFormatError';
  }
}

function readNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function readString(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function readRange(value: unknown): Range {
  const zero: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (!isRecord(value) || !isRecord(value['start']) || !isRecord(value['end'])) {
    return zero;
  }
  const start = value['start'];
  const end = value['end'];
  return {
    start: { line: readNumber(start['line'], 0), character: readNumber(start['character'], 0) },
    end: { line: readNumber(end['line'], 0), character: readNumber(end['character'], 0) },
  };
}

export function readDiagnostics(value: unknown): PreviewDiagnostic[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const result: PreviewDiagnostic[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item['message'] !== 'string') {
      continue;
    }
    const diagnostic: PreviewDiagnostic = {
      range: readRange(item['range']),
      severity: readNumber(item['severity'], 1),
      message: item['message'],
    };
    if (typeof item['source'] === 'string') {
      diagnostic.source = item['source'];
    }
    if (typeof item['pass'] === 'string' && item['pass'] !== '') {
      diagnostic.pass = item['pass'];
    }
    result.push(diagnostic);
  }
  return result;
}

function readSizes(raw: Record<string, unknown>, into: { bytes?: number; lines?: number }): void {
  if (typeof raw['bytes'] === 'number') {
    into.bytes = raw['bytes'];
  }
  if (typeof raw['lines'] === 'number') {
    into.lines = raw['lines'];
  }
}

/** A pass's nested steps; `parent` is the pass, which a step's name starts with. */
function readNested(value: unknown, parent: string): NestedStep[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const steps: NestedStep[] = [];
  for (const raw of value) {
    if (!isRecord(raw) || typeof raw['pass'] !== 'string') {
      continue;
    }
    const target = readString(raw['target'], raw['pass'].split('/')[0] ?? '');
    const before = steps.at(-1);
    const kind = raw['kind'] === 'llvm' || raw['kind'] === 'asm' ? raw['kind'] : 'mlir';
    // A step that changed nothing has the text of the one before it in its target.
    const inherited = before?.target === target && raw['changed'] !== true ? before.ir : undefined;
    const step: NestedStep = {
      number: readNumber(raw['number'], steps.length),
      name: readString(raw['name'], `${parent}/${raw['pass']}`),
      pass: raw['pass'],
      target,
      kind,
      anchor: readString(raw['anchor'], ''),
      changed: raw['changed'] === true,
      failed: raw['failed'] === true,
      milliseconds: readNumber(raw['milliseconds'], 0),
      ir: typeof raw['ir'] === 'string' ? raw['ir'] : inherited,
      diagnostics: readDiagnostics(raw['diagnostics']),
    };
    readSizes(raw, step);
    steps.push(step);
  }
  return steps;
}

/** A nested step, where it hangs and what it is compared with. */
export interface NestedEntry {
  /** The position of the pass it is inside of. */
  parent: number;
  step: NestedStep;
  /** The position before it: the step before it in its target, or the pass before its parent. */
  previous: number;
}

/**
 * The nested steps of every pass, in order. Their positions follow the
 * passes': nested entry `i` is position `snapshots.length + i`.
 */
export function nestedEntries(preview: PipelinePreview): NestedEntry[] {
  const entries: NestedEntry[] = [];
  preview.snapshots.forEach((snapshot, parent) => {
    let before: NestedStep | undefined;
    for (const step of snapshot.nested) {
      const position = preview.snapshots.length + entries.length;
      entries.push({ parent, step, previous: before?.target === step.target ? position - 1 : parent - 1 });
      before = step;
    }
  });
  return entries;
}

/** The nested entry at `position`, if it is one. */
export function nestedAt(preview: PipelinePreview, position: number): NestedEntry | undefined {
  return position >= preview.snapshots.length ? nestedEntries(preview)[position - preview.snapshots.length] : undefined;
}

/** Passes and nested steps: positions 0 .. entryCount - 1. */
export function entryCount(preview: PipelinePreview): number {
  return preview.snapshots.length + nestedEntries(preview).length;
}

/**
 * Reads the reply of `executor/pipelinePreview` (one chunk's recording; a
 * bare array of snapshots is read too) and fills in the IR that the server
 * deduplicated.
 */
export function parsePipelinePreview(value: unknown): PipelinePreview {
  const root: Record<string, unknown> = Array.isArray(value) ? { snapshots: value } : isRecord(value) ? value : {};
  if (!isRecord(value) && !Array.isArray(value)) {
    throw new PreviewFormatError(`expected an object, got ${value === null ? 'null' : typeof value}`);
  }
  const rawSnapshots = root['snapshots'] ?? [];
  if (!Array.isArray(rawSnapshots)) {
    throw new PreviewFormatError('"snapshots" is not an array');
  }
  const input = typeof root['input'] === 'string' ? root['input'] : undefined;
  const recording = typeof root['recording'] === 'string' && root['recording'] !== '' ? root['recording'] : undefined;
  const snapshots: Snapshot[] = [];
  let previousIR = input;
  rawSnapshots.forEach((raw: unknown, position: number) => {
    if (!isRecord(raw) || typeof raw['pass'] !== 'string') {
      throw new PreviewFormatError(`snapshot ${position} has no "pass"`);
    }
    // A pass that changed nothing has the text of the one before it; the
    // text of one that did, when the server sent only summaries, is
    // fetched when shown.
    const ir = typeof raw['ir'] === 'string' ? raw['ir'] : raw['changed'] === true ? undefined : previousIR;
    previousIR = ir;
    const snapshot: Snapshot = {
      index: readNumber(raw['index'], position),
      pass: raw['pass'],
      options: readString(raw['options'], raw['pass']),
      anchor: readString(raw['anchor'], ''),
      changed: raw['changed'] === true,
      failed: raw['failed'] === true,
      edited: raw['edited'] === true,
      milliseconds: readNumber(raw['milliseconds'], readNumber(raw['ms'], 0)),
      ir,
      diagnostics: readDiagnostics(raw['diagnostics']),
      nested: readNested(raw['nested'], raw['pass']),
    };
    readSizes(raw, snapshot);
    if (recording !== undefined) {
      snapshot.recording = recording;
    }
    snapshots.push(snapshot);
  });
  const preview: PipelinePreview = {
    uri: typeof root['uri'] === 'string' ? root['uri'] : undefined,
    version: typeof root['version'] === 'number' ? root['version'] : undefined,
    chunk: readNumber(root['chunk'], 0),
    lineOffset: readNumber(root['lineOffset'], 0),
    pipeline: readString(root['pipeline'], ''),
    succeeded: root['succeeded'] === true || (root['succeeded'] === undefined && !snapshots.some((s) => s.failed)),
    totalMilliseconds: readNumber(
      root['totalMilliseconds'],
      snapshots.reduce((sum, s) => sum + s.milliseconds, 0),
    ),
    input,
    hasInput: input !== undefined || typeof root['inputBytes'] === 'number',
    diagnostics: readDiagnostics(root['diagnostics']),
    snapshots,
  };
  if (recording !== undefined) {
    preview.recording = recording;
  }
  return preview;
}

/** The position of the snapshot a preview lens points at, or undefined. */
export function findLensSnapshot(preview: PipelinePreview, target: PreviewLensTarget): number | undefined {
  const { snapshots } = preview;
  if (target.passIndex !== undefined) {
    const byIndex = snapshots.findIndex((s) => s.index === target.passIndex);
    if (byIndex >= 0 && (target.pass === undefined || snapshots[byIndex]?.pass === target.pass)) {
      return byIndex;
    }
  }
  if (target.pass === undefined) {
    return undefined;
  }
  const pass = target.pass;
  const byName = snapshots.findIndex((s) => s.pass === pass);
  if (byName >= 0) {
    return byName;
  }
  const byOptions = snapshots.findIndex((s) => s.options.startsWith(pass));
  return byOptions >= 0 ? byOptions : undefined;
}

/** The IR after snapshot `position`; -1 is the input. */
export function irAt(preview: PipelinePreview, position: number): string | undefined {
  if (position < 0) {
    return preview.input;
  }
  return position < preview.snapshots.length ? preview.snapshots[position]?.ir : nestedAt(preview, position)?.step.ir;
}

/**
 * How `executor/stepText` names the text at `position` (-1: the input):
 * the recording, the snapshot's index and a nested step's position in its
 * snapshot; undefined when the server named no recording for it.
 */
export function stepTextAddress(preview: PipelinePreview, position: number): { recording: string; step: number; nested?: number } | undefined {
  if (position < 0) {
    return preview.recording === undefined ? undefined : { recording: preview.recording, step: -1 };
  }
  const snapshot = preview.snapshots[position];
  if (snapshot !== undefined) {
    return snapshot.recording === undefined ? undefined : { recording: snapshot.recording, step: snapshot.index };
  }
  const entry = nestedAt(preview, position);
  const parent = entry === undefined ? undefined : preview.snapshots[entry.parent];
  if (entry === undefined || parent?.recording === undefined) {
    return undefined;
  }
  return { recording: parent.recording, step: parent.index, nested: parent.nested.indexOf(entry.step) };
}

/** Keeps a fetched text at `position` (-1: the input) in the model. */
export function setTextAt(preview: PipelinePreview, position: number, text: string): void {
  if (position < 0) {
    preview.input = text;
    return;
  }
  const snapshot = preview.snapshots[position];
  if (snapshot !== undefined) {
    snapshot.ir = text;
    return;
  }
  const entry = nestedAt(preview, position);
  if (entry !== undefined) {
    entry.step.ir = text;
  }
}

const SEVERITY_NAMES = ['error', 'error', 'warning', 'note', 'hint'];

/** A diagnostic on one line: `error: 12:5: message [pass]`, lines 1-based. */
export function formatDiagnostic(diagnostic: PreviewDiagnostic): string {
  const severity = SEVERITY_NAMES[diagnostic.severity] ?? 'error';
  const where = `${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1}`;
  const pass = diagnostic.pass === undefined ? '' : ` [${diagnostic.pass}]`;
  return `${severity}: ${where}: ${diagnostic.message}${pass}`;
}

/** Milliseconds the way the pass list shows them. */
export function formatMilliseconds(ms: number): string {
  if (ms >= 100) {
    return `${ms.toFixed(0)} ms`;
  }
  if (ms >= 1) {
    return `${ms.toFixed(1)} ms`;
  }
  return `${ms.toFixed(2)} ms`;
}
