// "Executor: Show This Op after Each Pass" without the VS Code API: it sends
// `executor/opHistory` (the op at the cursor of a .mlir file, or at a line
// of a snapshot), keeps the answers, lists each pass with the lines the op
// became there, and names a read-only document for each step's text (the
// server prints it with locations: MLIR's `loc(...)`, LLVM IR's `!dbg`,
// the assembly's `.loc`). It also reads `executor/alignedSnapshots`, the two
// texts of the structural diff.

import * as path from 'node:path';

import type { Range } from './protocol';
import { isRecord } from './protocol';

/** The server's request for an op's history. */
export const OP_HISTORY_METHOD = 'executor/opHistory';
/** The server's request for two snapshots aligned by the structural diff. */
export const ALIGNED_SNAPSHOTS_METHOD = 'executor/alignedSnapshots';

/** Parameters of `executor/opHistory`. */
export interface OpHistoryParams {
  uri: string;
  chunk?: number;
  pipeline?: string;
  /** The op at this position of the document, */
  position?: { line: number; character: number };
  /** or at `line` (0-based) of this snapshot (index, -1 the input, or a target's step by name), */
  snapshot?: number | string;
  line?: number;
  /** counted as the preview prints the snapshot (without locations), not as the history does. */
  previewLine?: boolean;
  /** Each step's text where the op is. */
  withIR?: boolean;
}

/** A place in a source file an op's location names (1-based). */
export interface HistoryPlace {
  file: string;
  line: number;
  column: number;
}

export type SnapshotKind = 'mlir' | 'llvm' | 'asm';

/** One snapshot of the history. */
export interface HistoryStep {
  /** `input`, the pass, or a target's step with its pass (`cross-compile-targets/arm/asm`). */
  name: string;
  /** A pass's snapshot index (-1: the input); undefined for a target's own step. */
  index?: number;
  /** For a target's own step: the index of the pass it is recorded in. */
  parent?: number;
  /** As the preview numbers it: a pass's index + 1; a target's step within its target. */
  number: number;
  kind: SnapshotKind;
  changed: boolean;
  /** 0-based lines of `ir` the op became (none: it is gone). */
  lines: number[];
  ranges: Range[];
  /** The text of those lines. */
  texts: string[];
  ir?: string;
}

export interface OpHistory {
  uri: string | undefined;
  version: number | undefined;
  chunk: number;
  pipeline: string;
  succeeded: boolean;
  /** The places the op is followed by. */
  places: HistoryPlace[];
  steps: HistoryStep[];
}

export class HistoryFormatError extends Error {
  constructor(what: string) {
    super(`executor-lsp-server sent an op history this extension cannot read: ${what}`);
    this.name = 'HistoryFormatError';
  }
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function readRange(value: unknown): Range | undefined {
  if (!isRecord(value) || !isRecord(value['start']) || !isRecord(value['end'])) {
    return undefined;
  }
  const { start, end } = value;
  if (!isInteger(start['line']) || !isInteger(start['character']) || !isInteger(end['line']) || !isInteger(end['character'])) {
    return undefined;
  }
  return { start: { line: start['line'], character: start['character'] }, end: { line: end['line'], character: end['character'] } };
}

/** Reads an `executor/opHistory` reply; throws HistoryFormatError for anything else. */
export function parseOpHistory(value: unknown): OpHistory {
  if (!isRecord(value)) {
    throw new HistoryFormatError('not an object');
  }
  const steps = value['steps'];
  const places = value['places'];
  if (!Array.isArray(steps) || !Array.isArray(places)) {
    throw new HistoryFormatError('no "steps" or "places"');
  }
  const history: OpHistory = {
    uri: typeof value['uri'] === 'string' ? value['uri'] : undefined,
    version: isInteger(value['version']) ? value['version'] : undefined,
    chunk: isInteger(value['chunk']) ? value['chunk'] : 0,
    pipeline: typeof value['pipeline'] === 'string' ? value['pipeline'] : '',
    succeeded: value['succeeded'] === true,
    places: [],
    steps: [],
  };
  for (const place of places) {
    if (!isRecord(place) || typeof place['file'] !== 'string' || !isInteger(place['line']) || !isInteger(place['column'])) {
      throw new HistoryFormatError(`a place is not {file, line, column}: ${JSON.stringify(place)}`);
    }
    history.places.push({ file: place['file'], line: place['line'], column: place['column'] });
  }
  steps.forEach((step: unknown, i) => {
    if (!isRecord(step) || typeof step['name'] !== 'string' || !isInteger(step['number']) ||
        !Array.isArray(step['lines']) || !Array.isArray(step['ranges']) || !Array.isArray(step['texts'])) {
      throw new HistoryFormatError(`step ${i} lacks its name, number, lines, ranges or texts`);
    }
    const kind = step['kind'];
    if (kind !== 'mlir' && kind !== 'llvm' && kind !== 'asm') {
      throw new HistoryFormatError(`step ${i} is of kind ${JSON.stringify(kind)}`);
    }
    const lines = step['lines'].filter(isInteger);
    const ranges = step['ranges'].map(readRange).filter((r): r is Range => r !== undefined);
    const texts = step['texts'].filter((t): t is string => typeof t === 'string');
    if (lines.length !== step['lines'].length || ranges.length !== lines.length || texts.length !== lines.length) {
      throw new HistoryFormatError(`step ${i} (${step['name']}) has lines, ranges and texts that do not pair up`);
    }
    const read: HistoryStep = {
      name: step['name'],
      number: step['number'],
      kind,
      changed: step['changed'] === true,
      lines,
      ranges,
      texts,
    };
    if (isInteger(step['index'])) {
      read.index = step['index'];
    }
    if (isInteger(step['parent'])) {
      read.parent = step['parent'];
    }
    if (typeof step['ir'] === 'string') {
      read.ir = step['ir'];
    }
    history.steps.push(read);
  });
  return history;
}

/** A line as the user reads it: without its location (` loc(#loc3)`, `, !dbg !12`). */
export function withoutLocation(text: string): string {
  return text
    .replace(/\s+loc\((?:[^()"]|"(?:[^"\\]|\\.)*"|\((?:[^()"]|"(?:[^"\\]|\\.)*")*\))*\)\s*$/, '')
    .replace(/,\s*!dbg\s+!\d+\s*$/, '')
    .trim();
}

/** `file:line:column` of the places, as a title says it. */
export function describePlaces(places: HistoryPlace[]): string {
  return places.map((p) => `${path.basename(p.file)}:${p.line}:${p.column}`).join(', ');
}

/** A line of the history's pass list. */
export interface HistoryItem {
  /** The step (index into `steps`). */
  step: number;
  label: string;
  description: string;
  detail: string;
  /** Whether the op is in this step's text. */
  present: boolean;
  /** A target's own step. */
  nested: boolean;
}

const KIND_NAMES: Record<SnapshotKind, string> = { mlir: 'MLIR', llvm: 'LLVM IR', asm: 'assembly' };

/** The pass list: each step with the lines (1-based) the op became there, and their text. */
export function historyItems(history: OpHistory): HistoryItem[] {
  const width = String(Math.max(1, ...history.steps.map((s) => (s.index ?? -1) + 1))).length;
  return history.steps.map((step, i): HistoryItem => {
    const nested = step.parent !== undefined;
    const label = step.index === -1
      ? 'input'
      : nested ? `${' '.repeat(width + 2)}${String(step.number).padStart(2, ' ')}. ${step.name}` : `${String(step.number).padStart(width, ' ')}. ${step.name}`;
    const shown = step.lines.slice(0, 6).map((l) => String(l + 1));
    const where = step.lines.length === 0
      ? 'gone: no line names its location'
      : `line${step.lines.length === 1 ? '' : 's'} ${shown.join(', ')}${step.lines.length > shown.length ? ` and ${step.lines.length - shown.length} more` : ''}`;
    const description = step.kind === 'mlir' ? where : `${where} · ${KIND_NAMES[step.kind]}`;
    let detail = step.texts.map(withoutLocation).join('  |  ');
    if (detail.length > 240) {
      detail = `${detail.slice(0, 239)}…`;
    }
    return { step: i, label, description, detail, present: step.lines.length > 0, nested };
  });
}

/** Where a history step's document lives: the path and query of its URI. */
export interface HistoryLocation {
  path: string;
  query: string;
}

function safeName(text: string): string {
  return text.replace(/[^\w.-]+/g, '_');
}

function sourceName(source: string | undefined): string {
  if (source === undefined) {
    return 'document';
  }
  try {
    return path.posix.basename(decodeURIComponent(new URL(source).pathname)) || 'document';
  } catch {
    return path.basename(source) || 'document';
  }
}

/** One history kept by the service. */
export interface HistoryRun {
  id: number;
  source: string;
  chunk: number;
  pipeline?: string;
  history: OpHistory;
}

/** Sends `executor/opHistory` and returns the raw reply. */
export type HistoryRequester = (params: OpHistoryParams, signal?: AbortSignal) => Promise<unknown>;

export class OpHistoryService {
  private readonly runs = new Map<number, HistoryRun>();
  private nextId = 1;

  constructor(private readonly request: HistoryRequester, private readonly keep = 8) {}

  /** Follows the op `params` names; the texts of the steps where it is come along. */
  async follow(params: OpHistoryParams, signal?: AbortSignal): Promise<HistoryRun> {
    const history = parseOpHistory(await this.request({ ...params, withIR: true }, signal));
    const run: HistoryRun = { id: this.nextId++, source: params.uri, chunk: params.chunk ?? history.chunk, history };
    if (params.pipeline !== undefined) {
      run.pipeline = params.pipeline;
    }
    this.runs.set(run.id, run);
    while (this.runs.size > this.keep) {
      this.runs.delete(Math.min(...this.runs.keys()));
    }
    return run;
  }

  get(id: number): HistoryRun | undefined {
    return this.runs.get(id);
  }

  /** The title of the pass list. */
  static title(run: HistoryRun): string {
    const present = run.history.steps.filter((s) => s.lines.length > 0).length;
    return `${sourceName(run.source)}: ${describePlaces(run.history.places)} after each pass (in ${present} of ${run.history.steps.length} snapshots)`;
  }

  /** The document of step `step`'s text: `/prog.mlir/history-1/03-cross-compile-targets.arm.asm.s`. */
  location(run: HistoryRun, step: number): HistoryLocation {
    const s = run.history.steps[step];
    if (s === undefined) {
      throw new Error(`the history has ${run.history.steps.length} steps, not ${step + 1}`);
    }
    const extension = s.kind === 'asm' ? 's' : s.kind === 'llvm' ? 'll' : 'mlir';
    const name = `${String(s.index === undefined ? s.number : s.index + 1).padStart(2, '0')}-${safeName(s.name)}`;
    const query = new URLSearchParams({ history: String(run.id), step: String(step) });
    return { path: `/${safeName(sourceName(run.source))}/history-${run.id}/${name}.${extension}`, query: query.toString() };
  }

  /** Reads a history location back; undefined when it is not one. */
  static parseLocation(location: HistoryLocation): { history: number; step: number } | undefined {
    const query = new URLSearchParams(location.query);
    const history = Number(query.get('history'));
    const step = Number(query.get('step'));
    if (!Number.isInteger(history) || history < 1 || !Number.isInteger(step) || step < 0) {
      return undefined;
    }
    return { history, step };
  }

  /** The step a location names, with its run. */
  resolve(location: HistoryLocation): { run: HistoryRun; step: HistoryStep } {
    const address = OpHistoryService.parseLocation(location);
    const run = address === undefined ? undefined : this.runs.get(address.history);
    const step = address === undefined ? undefined : run?.history.steps[address.step];
    if (run === undefined || step === undefined) {
      throw new Error(`this history is no longer kept (${location.path}): show the op's history again`);
    }
    return { run, step };
  }

  /** The text of a history document. */
  content(location: HistoryLocation): string {
    const { step } = this.resolve(location);
    if (step.ir === undefined) {
      return `// The op is not in ${step.name}: no line names its location.\n`;
    }
    return step.ir;
  }

  /**
   * The request that follows the op at `line` of the step a history document
   * shows (its text, as the server printed it).
   */
  followFrom(location: HistoryLocation, line: number): OpHistoryParams {
    const { run, step } = this.resolve(location);
    const params: OpHistoryParams = { uri: run.source, chunk: run.chunk, snapshot: step.index ?? step.name, line };
    if (run.pipeline !== undefined) {
      params.pipeline = run.pipeline;
    }
    return params;
  }
}

/** One side of an aligned pair. */
export interface AlignedSide {
  name: string;
  kind: SnapshotKind;
  text: string;
}

/** An `executor/alignedSnapshots` reply. */
export interface AlignedSnapshots {
  /** `structural`: names aligned; `line`: the texts as printed (`why` says why). */
  mode: 'structural' | 'line';
  why?: string;
  left: AlignedSide;
  right: AlignedSide;
  matchedOps?: number;
  renamed?: number;
}

function readSide(value: unknown, which: string): AlignedSide {
  if (!isRecord(value) || typeof value['name'] !== 'string' || typeof value['text'] !== 'string' ||
      (value['kind'] !== 'mlir' && value['kind'] !== 'llvm' && value['kind'] !== 'asm')) {
    throw new HistoryFormatError(`the ${which} side of the aligned snapshots is not {name, kind, text}`);
  }
  return { name: value['name'], kind: value['kind'], text: value['text'] };
}

/** Reads an `executor/alignedSnapshots` reply. */
export function parseAlignedSnapshots(value: unknown): AlignedSnapshots {
  if (!isRecord(value) || (value['mode'] !== 'structural' && value['mode'] !== 'line')) {
    throw new HistoryFormatError('aligned snapshots without a "mode"');
  }
  const aligned: AlignedSnapshots = { mode: value['mode'], left: readSide(value['left'], 'left'), right: readSide(value['right'], 'right') };
  if (typeof value['why'] === 'string') {
    aligned.why = value['why'];
  }
  if (isInteger(value['matchedOps'])) {
    aligned.matchedOps = value['matchedOps'];
  }
  if (isInteger(value['renamed'])) {
    aligned.renamed = value['renamed'];
  }
  return aligned;
}
