// What "Executor: Show Pipeline Preview" shows, without the VS Code API: it
// runs `executor/pipelinePreview`, keeps the last runs, lists their passes,
// names a read-only document for the IR after each pass and pairs a pass
// with the one before it for the diff. The VS Code layer only turns these
// into a quick pick, `vscode.Uri`s, a TextDocumentContentProvider and
// `vscode.diff`.

import * as path from 'node:path';

import type { PipelinePreview } from './preview';
import { entryCount, formatDiagnostic, formatMilliseconds, irAt, nestedAt, nestedEntries, parsePipelinePreview, setTextAt, stepTextAddress } from './preview';
import type { PipelinePreviewParams, PreviewDiagnostic, RerunFromParams, StepTextParams } from './protocol';
import { isRecord } from './protocol';
import type { RerunResult } from './rerun';
import { parseRerun, rerunDiagnostics, rerunRan, spliceRerun } from './rerun';

/** Sends `executor/pipelinePreview` and returns the raw reply. */
export type PreviewRequester = (params: PipelinePreviewParams, signal?: AbortSignal) => Promise<unknown>;
/** Sends `executor/rerunFrom` and returns the raw reply. */
export type RerunRequester = (params: RerunFromParams, signal?: AbortSignal) => Promise<unknown>;
/** Sends `executor/stepText` and returns the raw reply. */
export type StepTextRequester = (params: StepTextParams, signal?: AbortSignal) => Promise<unknown>;

/** One run of the pipeline on one chunk of a document. */
export interface PreviewRun {
  id: number;
  source: string;
  chunk: number;
  preview: PipelinePreview;
  /** The client's pipeline, when it asked for one. */
  pipeline?: string;
  /** A re-run: the run it was edited from. */
  basedOn?: number;
}

/** What a save of an edited snapshot gave. */
export interface RerunOutcome {
  /** The whole pipeline with the edit and the re-run passes; undefined when the edited IR did not parse or verify. */
  run: PreviewRun | undefined;
  result: RerunResult;
  /** Every error of the re-run, at lines of the edited text. */
  diagnostics: PreviewDiagnostic[];
}

/**
 * A line of the pass list. Position -1 is the input, before the first pass;
 * a target's own steps (nested inside `cross-compile-targets`) follow the
 * passes' positions and are listed after their pass.
 */
export interface PassItem {
  position: number;
  /** A target's own step, inside the pass at this position. */
  parent?: number;
  label: string;
  description: string;
  detail: string;
  changed: boolean;
  failed: boolean;
  /** The IR the user edited (the passes after it re-ran on it). */
  edited: boolean;
  diagnostics: number;
}

export type StepKind = 'mlir' | 'llvm' | 'asm';

/** A step offered in a pick: its pass list label and how the server names it. */
export interface StepChoice {
  label: string;
  description: string;
  /** -1 (the input), a pass's index, or a target's step by name (`compute/asm`). */
  ref: number | string;
  kind: StepKind;
}

/** The choice a previous pick named `preferred` (a ref, or a step's last name: `asm`). */
export function preferredChoice(choices: readonly StepChoice[], preferred: number | string | undefined): StepChoice | undefined {
  if (preferred === undefined) {
    return undefined;
  }
  return choices.find((c) => c.ref === preferred)
    ?? (typeof preferred === 'string' ? choices.find((c) => typeof c.ref === 'string' && c.ref.endsWith(`/${preferred}`)) : undefined);
}

/** Where a preview document lives: the path and query of its URI. */
export interface PreviewLocation {
  path: string;
  query: string;
}

/** What a preview location names. */
export interface PreviewAddress {
  runId: number;
  source: string;
  chunk: number;
  position: number;
}

export interface Comparison {
  /** The position of the left side. */
  before: number;
  left: PreviewLocation;
  right: PreviewLocation;
  title: string;
}

function sourceName(source: string): string {
  try {
    const url = new URL(source);
    const base = path.posix.basename(decodeURIComponent(url.pathname));
    return base === '' ? 'document' : base;
  } catch {
    return path.basename(source) || 'document';
  }
}

function safeName(text: string): string {
  return text.replace(/[^\w.-]+/g, '_');
}

export class PipelinePreviewService {
  private readonly runs = new Map<number, PreviewRun>();
  private nextId = 1;

  constructor(
    private readonly request: PreviewRequester,
    /** How many runs to keep for the documents still open. */
    private readonly keep = 8,
    private readonly rerunRequest?: RerunRequester,
    /** Fetches a step's text when it is shown (the preview sends only the steps' summaries). */
    private readonly stepTextRequest?: StepTextRequester,
  ) {}

  /** Runs the pipeline on `chunk` of the document `source` (a URI). */
  async run(source: string, chunk: number, signal?: AbortSignal, pipeline?: string): Promise<PreviewRun> {
    const params: PipelinePreviewParams = { uri: source, chunk };
    if (pipeline !== undefined && pipeline.trim() !== '') {
      params.pipeline = pipeline;
    }
    const reply = await this.request(params, signal);
    const run: PreviewRun = { id: this.nextId++, source, chunk, preview: parsePipelinePreview(reply) };
    if (params.pipeline !== undefined) {
      run.pipeline = params.pipeline;
    }
    this.store(run);
    return run;
  }

  /**
   * Re-runs the passes after `position` of `base` (-1: all of them) on
   * `text`, the edited IR after it. The new run (kept like the others) is the
   * whole pipeline: `base` up to the edited pass, that one with `text` and
   * marked edited, then the passes re-run.
   */
  async rerun(base: PreviewRun, position: number, text: string, textUri?: string, signal?: AbortSignal): Promise<RerunOutcome> {
    if (this.rerunRequest === undefined) {
      throw new Error('this preview cannot re-run passes');
    }
    const nested = nestedAt(base.preview, position);
    if (nested !== undefined) {
      throw new Error(`${nested.step.name} is a target's own step: edit the IR after ${base.preview.snapshots[nested.parent]?.pass ?? 'its pass'} instead`);
    }
    if (!Number.isInteger(position) || position < -1 || position >= base.preview.snapshots.length) {
      throw new Error(`the pipeline has ${base.preview.snapshots.length} passes, not ${position + 1}`);
    }
    const pass = position < 0 ? -1 : base.preview.snapshots[position]?.index ?? position;
    const params: RerunFromParams = { uri: base.source, chunk: base.chunk, pass, text };
    if (textUri !== undefined) {
      params.textUri = textUri;
    }
    if (base.pipeline !== undefined) {
      params.pipeline = base.pipeline;
    }
    const result = parseRerun(await this.rerunRequest(params, signal));
    const diagnostics = rerunDiagnostics(result);
    if (!rerunRan(result)) {
      return { run: undefined, result, diagnostics };
    }
    const run: PreviewRun = {
      id: this.nextId++,
      source: base.source,
      chunk: base.chunk,
      preview: spliceRerun(base.preview, result, text),
      basedOn: base.id,
    };
    if (base.pipeline !== undefined) {
      run.pipeline = base.pipeline;
    }
    this.store(run);
    return { run, result, diagnostics };
  }

  get(runId: number): PreviewRun | undefined {
    return this.runs.get(runId);
  }

  /** The latest run of `source` and `chunk`, if any is kept. */
  latest(source: string, chunk: number): PreviewRun | undefined {
    let latest: PreviewRun | undefined;
    for (const run of this.runs.values()) {
      if (run.source === source && run.chunk === chunk && (latest === undefined || run.id > latest.id)) {
        latest = run;
      }
    }
    return latest;
  }

  /** Why a run shows no passes (the input did not parse, say), or undefined. */
  static whyEmpty(run: PreviewRun): string | undefined {
    if (run.preview.snapshots.length > 0) {
      return undefined;
    }
    const errors = run.preview.diagnostics.map(formatDiagnostic);
    return errors.length > 0
      ? `the pipeline did not run: ${errors.join('; ')}`
      : 'the pipeline ran no pass';
  }

  /** The pass list: the input, then each pass in the order it ran. */
  passItems(run: PreviewRun): PassItem[] {
    const items: PassItem[] = [];
    if (run.preview.hasInput) {
      items.push({
        position: -1,
        label: 'input',
        description: run.preview.edited === -1 ? 'edited · the pipeline re-ran on this IR' : 'before the first pass',
        detail: run.preview.pipeline,
        changed: false,
        failed: false,
        edited: run.preview.edited === -1,
        diagnostics: run.preview.diagnostics.length,
      });
    }
    const width = String(run.preview.snapshots.length).length;
    const nested = nestedEntries(run.preview);
    run.preview.snapshots.forEach((snapshot, position) => {
      const parts = snapshot.edited
        ? ['edited', 'the passes after it re-ran on this IR']
        : [snapshot.failed ? 'failed' : snapshot.changed ? 'changed' : 'no change', formatMilliseconds(snapshot.milliseconds)];
      if (snapshot.anchor !== '') {
        parts.push(`on ${snapshot.anchor}`);
      }
      const details: string[] = [];
      if (snapshot.options !== snapshot.pass) {
        details.push(snapshot.options);
      }
      if (snapshot.diagnostics.length > 0) {
        details.push(snapshot.diagnostics.map(formatDiagnostic).join('; '));
      }
      items.push({
        position,
        label: `${String(position + 1).padStart(width, ' ')}. ${snapshot.pass}`,
        description: parts.join(' · '),
        detail: details.join(' — '),
        changed: snapshot.changed,
        failed: snapshot.failed,
        edited: snapshot.edited,
        diagnostics: snapshot.diagnostics.length,
      });
      nested.forEach((entry, i) => {
        if (entry.parent !== position) {
          return;
        }
        const step = entry.step;
        const stepParts = [step.failed ? 'failed' : step.changed ? 'changed' : 'no change', formatMilliseconds(step.milliseconds)];
        if (step.kind !== 'mlir') {
          stepParts.push(`${step.kind === 'asm' ? 'assembly' : 'LLVM IR'} for ${step.anchor}`);
        }
        items.push({
          position: run.preview.snapshots.length + i,
          parent: position,
          label: `${' '.repeat(width + 2)}${String(step.number).padStart(2, ' ')}. ${step.pass}`,
          description: stepParts.join(' · '),
          detail: step.diagnostics.map(formatDiagnostic).join('; '),
          changed: step.changed,
          failed: step.failed,
          edited: false,
          diagnostics: step.diagnostics.length,
        });
      });
    });
    return items;
  }

  /**
   * The preview document of the IR after `position` (-1: the input); with
   * `editable`, the editable snapshot of it (its name ends in `.edit.mlir`).
   */
  location(run: PreviewRun, position: number, editable = false): PreviewLocation {
    const nested = nestedAt(run.preview, position);
    const name = nested !== undefined
      // `03-cross-compile-targets.compute.15-asm.s`: named (and highlighted) as executor-compile saves it.
      ? `${String(nested.parent + 1).padStart(2, '0')}-${safeName(run.preview.snapshots[nested.parent]?.pass ?? 'pass')}.` +
        `${safeName(nested.step.target)}.${String(nested.step.number).padStart(2, '0')}-` +
        safeName(nested.step.pass.slice(nested.step.target.length + 1))
      : (position < 0
        ? '00-input'
        : `${String(position + 1).padStart(2, '0')}-${safeName(run.preview.snapshots[position]?.pass ?? 'pass')}`) +
      (editable ? '.edit' : '');
    const query = new URLSearchParams({
      source: run.source,
      chunk: String(run.chunk),
      position: String(position),
      run: String(run.id),
    });
    const extension = nested?.step.kind === 'asm' ? 's' : nested?.step.kind === 'llvm' ? 'll' : 'mlir';
    return { path: `/${safeName(sourceName(run.source))}/${name}.${extension}`, query: query.toString() };
  }

  /** Reads a preview location back; undefined when it is not one. */
  static parseLocation(location: PreviewLocation): PreviewAddress | undefined {
    const query = new URLSearchParams(location.query);
    const source = query.get('source');
    const chunk = Number(query.get('chunk'));
    const position = Number(query.get('position'));
    const runId = Number(query.get('run'));
    if (source === null || source === '' || !Number.isInteger(chunk) || chunk < 0 ||
        !Number.isInteger(position) || position < -1 || !Number.isInteger(runId) || runId < 1) {
      return undefined;
    }
    return { runId, source, chunk, position };
  }

  /**
   * The run a location names. A run no longer kept (the window reloaded, say)
   * runs again on the document as it is now.
   */
  async resolve(location: PreviewLocation, signal?: AbortSignal): Promise<{ run: PreviewRun; position: number }> {
    const address = PipelinePreviewService.parseLocation(location);
    if (address === undefined) {
      throw new Error(`not a pipeline preview: ${location.path}?${location.query}`);
    }
    let run = this.runs.get(address.runId);
    if (run === undefined) {
      const reply = await this.request({ uri: address.source, chunk: address.chunk }, signal);
      run = { id: address.runId, source: address.source, chunk: address.chunk, preview: parsePipelinePreview(reply) };
      this.nextId = Math.max(this.nextId, address.runId + 1);
      this.store(run);
    }
    if (address.position >= entryCount(run.preview)) {
      throw new Error(`the pipeline has ${run.preview.snapshots.length} passes, not ${address.position + 1}`);
    }
    return { run, position: address.position };
  }

  /**
   * The text at `position` (-1: the input), fetched from the server
   * (`executor/stepText`) the first time it is shown, then kept with the run;
   * undefined when the server recorded none.
   */
  async fetchText(run: PreviewRun, position: number, signal?: AbortSignal): Promise<string | undefined> {
    const known = irAt(run.preview, position);
    if (known !== undefined || this.stepTextRequest === undefined) {
      return known;
    }
    const address = stepTextAddress(run.preview, position);
    if (address === undefined) {
      return undefined;
    }
    const params: StepTextParams = { recording: address.recording, step: address.step };
    if (address.nested !== undefined) {
      params.nested = address.nested;
    }
    const reply = await this.stepTextRequest(params, signal);
    if (!isRecord(reply) || typeof reply['text'] !== 'string') {
      throw new Error(`malformed reply to executor/stepText for ${this.title(run, position)}`);
    }
    setTextAt(run.preview, position, reply['text']);
    return reply['text'];
  }

  /** The text an editable snapshot starts with: the IR after that pass, as it is. */
  async editableText(location: PreviewLocation, signal?: AbortSignal): Promise<string> {
    const { run, position } = await this.resolve(location, signal);
    const ir = await this.fetchText(run, position, signal);
    if (ir === undefined) {
      throw new Error(`the server recorded no IR after ${this.title(run, position)}`);
    }
    return ir;
  }

  /** The text of a preview document: the IR after that pass. */
  async content(location: PreviewLocation, signal?: AbortSignal): Promise<string> {
    const { run, position } = await this.resolve(location, signal);
    await this.fetchText(run, position, signal);
    return PipelinePreviewService.text(run, position);
  }

  /** The IR after `position`, with the errors of a failed pass on top. */
  static text(run: PreviewRun, position: number): string {
    const ir = irAt(run.preview, position);
    const snapshot = position >= 0 ? run.preview.snapshots[position] ?? nestedAt(run.preview, position)?.step : undefined;
    const header: string[] = [];
    if (snapshot?.failed === true) {
      header.push(`// ${snapshot.pass} failed:`);
      for (const diagnostic of snapshot.diagnostics) {
        header.push(`//   ${formatDiagnostic(diagnostic)}`);
      }
    }
    if (ir === undefined) {
      header.push('// The server recorded no IR for this pass.');
      return `${header.join('\n')}\n`;
    }
    return header.length > 0 ? `${header.join('\n')}\n${ir}` : ir;
  }

  /** The document's file name, for titles. */
  sourceLabel(run: PreviewRun): string {
    return sourceName(run.source);
  }

  /** A title for the IR after `position`. */
  title(run: PreviewRun, position: number): string {
    return `${sourceName(run.source)}: after ${this.passName(run, position)}`;
  }

  /** `input`, a pass, or a target's own step with its pass (`cross-compile-targets/compute/asm`). */
  passName(run: PreviewRun, position: number): string {
    if (position < 0) {
      return 'input';
    }
    return run.preview.snapshots[position]?.pass ?? nestedAt(run.preview, position)?.step.name ?? 'pass';
  }

  /** What the pass list of a run is titled: the document, and the edited pass of a re-run. */
  listTitle(run: PreviewRun): string {
    const edited = run.preview.edited;
    if (edited === undefined) {
      return sourceName(run.source);
    }
    const pass = edited < 0 ? 'the input' : `${edited + 1}. ${run.preview.snapshots[edited]?.pass ?? 'pass'}`;
    const outcome = run.preview.succeeded ? 'succeeded' : 'failed';
    return `${sourceName(run.source)}: re-run after ${pass} (edited), ${outcome}`;
  }

  /**
   * How the server names the snapshot at `position` (`executor/opHistory`,
   * `executor/alignedSnapshots`): its index (-1 the input), or a target's
   * step by name (`cross-compile-targets/arm/asm`).
   */
  snapshotRef(run: PreviewRun, position: number): number | string {
    if (position < 0) {
      return -1;
    }
    const nested = nestedAt(run.preview, position);
    if (nested !== undefined) {
      return nested.step.name;
    }
    return run.preview.snapshots[position]?.index ?? position;
  }

  /**
   * The steps to pick from (Show IR Graph, Show a Step Linked to the
   * Source): the pass list's labels, of the kinds asked for (all: none
   * given), each with the name the language server takes for it.
   */
  stepChoices(run: PreviewRun, kinds?: readonly StepKind[]): StepChoice[] {
    return this.passItems(run)
      .map((pass) => ({ pass, kind: this.kindAt(run, pass.position) }))
      .filter(({ kind }) => kinds === undefined || kinds.includes(kind))
      .map(({ pass, kind }) => ({ label: pass.label, description: pass.description, ref: this.snapshotRef(run, pass.position), kind }));
  }

  /** What the text at `position` is: MLIR, LLVM IR or assembly. */
  kindAt(run: PreviewRun, position: number): 'mlir' | 'llvm' | 'asm' {
    return nestedAt(run.preview, position)?.step.kind ?? 'mlir';
  }

  /** Lines the preview document of `position` puts above the IR (a failed pass's errors). */
  static headerLines(run: PreviewRun, position: number): number {
    const text = PipelinePreviewService.text(run, position);
    const ir = irAt(run.preview, position);
    return ir === undefined ? 0 : text.slice(0, text.length - ir.length).split('\n').length - 1;
  }

  /** The pass before `position` and this one, for `vscode.diff`; none for the input. */
  comparison(run: PreviewRun, position: number): Comparison | undefined {
    if (position < 0 || position >= entryCount(run.preview)) {
      return undefined;
    }
    // A target's own step is compared with the one before it in its target.
    const nested = nestedAt(run.preview, position);
    const before = nested?.previous ?? position - 1;
    const beforeName = this.passName(run, before);
    const afterName = this.passName(run, position);
    const number = nested === undefined
      ? `${position + 1}/${run.preview.snapshots.length}`
      : `${nested.parent + 1}/${run.preview.snapshots.length}, step ${nested.step.number}`;
    return {
      before,
      left: this.location(run, before),
      right: this.location(run, position),
      title: `${sourceName(run.source)}: ${beforeName} ↔ ${afterName} (${number})`,
    };
  }

  private store(run: PreviewRun): void {
    this.runs.set(run.id, run);
    while (this.runs.size > this.keep) {
      const oldest = Math.min(...this.runs.keys());
      this.runs.delete(oldest);
    }
  }
}
