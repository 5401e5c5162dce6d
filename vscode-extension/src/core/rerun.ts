// Edit the IR after one pass and re-run the rest (`executor/rerunFrom`): the
// reply read into the preview model, spliced onto the run it was edited
// from (the passes before it unchanged, the edited one marked, the re-run
// ones after it), and its errors as diagnostics of the edited document. No
// VS Code API here.

import type { PipelinePreview, Snapshot } from './preview';
import { PreviewFormatError, parsePipelinePreview } from './preview';
import type { PreviewDiagnostic } from './protocol';
import { isRecord } from './protocol';

/** The reply of `executor/rerunFrom`: the recording of the steps after the edited snapshot. */
export interface RerunResult {
  /** The steps re-run, with the snapshot indices of the whole pipeline; `input` is the edited IR as the server printed it. */
  rest: PipelinePreview;
  /** The snapshot the text replaced (-1: the input). */
  editedSnapshot: number;
  /** The index of the first step re-run. */
  firstStep: number;
  /** The steps re-run as a pipeline (`executor-opt --pass-pipeline` reproduces the re-run with it). */
  remainingPipeline: string | undefined;
}

/** Reads the reply of `executor/rerunFrom`. */
export function parseRerun(value: unknown): RerunResult {
  if (!isRecord(value)) {
    throw new PreviewFormatError(`expected an object, got ${value === null ? 'null' : typeof value}`);
  }
  const edited = value['editedSnapshot'];
  if (typeof edited !== 'number' || !Number.isInteger(edited) || edited < -1) {
    throw new PreviewFormatError('a re-run names no "editedSnapshot"');
  }
  const firstStep = typeof value['firstStep'] === 'number' ? value['firstStep'] : edited + 1;
  const rest = parsePipelinePreview(value);
  return {
    rest,
    editedSnapshot: edited,
    firstStep,
    remainingPipeline: typeof value['remainingPipeline'] === 'string' ? value['remainingPipeline'] : undefined,
  };
}

/**
 * Whether the re-run ran: false when the edited text did not parse or
 * verify (the reply then has its errors and no snapshots).
 */
export function rerunRan(result: RerunResult): boolean {
  return result.rest.succeeded || result.rest.snapshots.length > 0;
}

/** Every error of a re-run, all at lines of the edited text: the parser's and verifier's, then the passes'. */
export function rerunDiagnostics(result: RerunResult): PreviewDiagnostic[] {
  const diagnostics = [...result.rest.diagnostics];
  for (const snapshot of result.rest.snapshots) {
    for (const diagnostic of snapshot.diagnostics) {
      diagnostics.push(diagnostic.pass === undefined ? { ...diagnostic, pass: snapshot.pass } : diagnostic);
    }
  }
  return diagnostics;
}

/**
 * The whole pipeline as the re-run left it: `base`'s snapshots up to the
 * edited one, that one with `editedText` (as the server printed it, when it
 * did) and marked edited, then the re-run's. As the recorder's
 * spliceRecording does for the studio.
 */
export function spliceRerun(base: PipelinePreview, result: RerunResult, editedText: string): PipelinePreview {
  const editedIR = result.rest.input ?? editedText;
  const edited = result.editedSnapshot;
  const kept: Snapshot[] = base.snapshots.filter((s) => s.index <= edited).map((s) => ({ ...s }));
  const last = kept.at(-1);
  if (edited >= 0 && last?.index !== edited) {
    throw new PreviewFormatError(`the run has no snapshot ${edited} to splice the re-run onto`);
  }
  if (last !== undefined) {
    last.ir = editedIR;
    last.edited = true;
    last.changed = true;
    last.failed = false;
    last.diagnostics = [];
    last.nested = []; // the edited IR replaced what they led to
  }
  const snapshots = [...kept, ...result.rest.snapshots.map((s) => ({ ...s }))];
  const before = kept.reduce((sum, s) => sum + s.milliseconds, 0);
  const spliced: PipelinePreview = {
    uri: base.uri,
    version: result.rest.version ?? base.version,
    chunk: base.chunk,
    lineOffset: base.lineOffset,
    pipeline: base.pipeline,
    succeeded: result.rest.succeeded,
    totalMilliseconds: before + result.rest.totalMilliseconds,
    input: edited < 0 ? editedIR : base.input,
    hasInput: edited < 0 || base.hasInput,
    diagnostics: edited < 0 ? result.rest.diagnostics : base.diagnostics,
    snapshots,
    edited: edited < 0 ? -1 : kept.length - 1,
  };
  // The input's text, when fetched, is the base run's (each step keeps its own recording).
  if (edited >= 0 && base.recording !== undefined) {
    spliced.recording = base.recording;
  }
  return spliced;
}
