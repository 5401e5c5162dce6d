// The names and shapes shared with executor-lsp-server (lsp/lib/Server.cpp,
// lsp/lib/PipelineResults.cpp). No VS Code API here.

/** The server's request for the recorder's snapshots of one document chunk. */
export const PIPELINE_PREVIEW_METHOD = 'executor/pipelinePreview';
export const STEP_TEXT_METHOD = 'executor/stepText';

/**
 * The server's request to re-run the rest of the pipeline on edited IR: the
 * text replaces the IR after snapshot `pass`, the steps after it run on it.
 */
export const RERUN_FROM_METHOD = 'executor/rerunFrom';

/** mlir-lsp-server's bytecode requests, as vscode-mlir sends them. */
export const CONVERT_FROM_BYTECODE_METHOD = 'mlir/convertFromBytecode';
export const CONVERT_TO_BYTECODE_METHOD = 'mlir/convertToBytecode';

/** The extension's commands; the server's code lenses run `showPipelinePreview`. */
export const COMMANDS = {
  showPipelinePreview: 'executor.showPipelinePreview',
  comparePipelinePass: 'executor.comparePipelinePass',
  editPipelinePass: 'executor.editPipelinePass',
  rerunFromPass: 'executor.rerunFromPass',
  showOpHistory: 'executor.showOpHistory',
  /** A step beside the .mlir file, each source line and what it became in one colour (core/sourceLines.ts). */
  showLinkedStep: 'executor.showLinkedStep',
  /** The graph of the function at the cursor (core/graph.ts, graphView.ts). */
  showIrGraph: 'executor.showIrGraph',
  restartServer: 'executor.restartServer',
  /** The server's "Launch" lenses run it (`executor/launch`, core/launch.ts). */
  launchKernel: 'executor.launchKernel',
  /** The "Debug" lens beside each "Launch" lens: an executor-kernel debug session (core/kernelDebug.ts). */
  debugKernel: 'executor.debugKernel',
} as const;

/** The language id and the scheme of the read-only preview documents. */
export const LANGUAGE_ID = 'mlir';
export const PREVIEW_SCHEME = 'executor-preview';
/** The scheme of the editable pass snapshots, whose save re-runs the rest. */
export const SNAPSHOT_SCHEME = 'executor-snapshot';
/** The scheme of a step's text linked to its source (executor.showLinkedStep). */
export const LINKED_SCHEME = 'executor-linked';
/** The scheme of an op history's documents (each step's text, with locations). */
export const HISTORY_SCHEME = 'executor-history';
/** The scheme of the two texts of a structural diff. */
export const ALIGNED_SCHEME = 'executor-aligned';
/**
 * vscode-mlir's scheme for a .mlirbc file shown as text (the server reads
 * and writes the file under it), and the custom editor that opens it.
 */
export const BYTECODE_SCHEME = 'mlir.bytecode-mlir';
export const BYTECODE_VIEW_TYPE = 'mlir.bytecode';
export const CONFIGURATION_SECTION = 'executorStudio';
export const SERVER_EXECUTABLE = 'executor-lsp-server';

/** Parameters of `executor/pipelinePreview`. */
export interface PipelinePreviewParams {
  uri: string;
  /** A textual pipeline; the server's default pipeline when absent. */
  pipeline?: string;
  /** The `// -----` chunk of a split file (0 when absent). */
  chunk?: number;
  /**
   * Which texts the reply carries: snapshot indices (-1: the input), or
   * 'changes' (every changed one). Absent: none, only the steps' summaries;
   * a text shown is fetched with `executor/stepText`.
   */
  withText?: number[] | 'changes' | 'none';
}

/** Parameters of `executor/stepText`: one text of a recording a preview named. */
export interface StepTextParams {
  /** The preview's "recording". */
  recording: string;
  /** The snapshot's index; -1 for the input. */
  step: number;
  /** A target's own step: its position in the snapshot's "nested". */
  nested?: number;
}

/** Parameters of `executor/rerunFrom`. */
export interface RerunFromParams extends PipelinePreviewParams {
  /** The snapshot ("index") whose IR `text` replaces; -1 for the input. */
  pass: number;
  /** The edited IR. */
  text: string;
  /** The document that holds `text` (the diagnostics' related locations). */
  textUri?: string;
}

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A diagnostic as the recorder reports it, with the pass that emitted it. */
export interface PreviewDiagnostic {
  range: Range;
  /** LSP severity: 1 error, 2 warning, 3 information, 4 hint. */
  severity: number;
  message: string;
  source?: string;
  pass?: string;
}

/** What a preview code lens passes to `executor.showPipelinePreview`. */
export interface PreviewLensTarget {
  uri: string;
  chunk: number;
  /** The pass argument whose result the lens opens (`dispatch-executor-targets`). */
  pass?: string;
  /** The snapshot index of that pass in the default pipeline, when known. */
  passIndex?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Reads the argument of a preview lens; undefined when `value` is not one
 * (e.g. the command was run from the palette, with no argument, or from the
 * editor title, with the document's URI).
 */
export function parseLensTarget(value: unknown): PreviewLensTarget | undefined {
  if (!isRecord(value) || typeof value['uri'] !== 'string' || value['uri'] === '') {
    return undefined;
  }
  const target: PreviewLensTarget = {
    uri: value['uri'],
    chunk: isNonNegativeInteger(value['chunk']) ? value['chunk'] : 0,
  };
  if (typeof value['pass'] === 'string' && value['pass'] !== '') {
    target.pass = value['pass'];
  }
  if (isNonNegativeInteger(value['passIndex'])) {
    target.passIndex = value['passIndex'];
  }
  return target;
}

export { isRecord };
