// `executor/launch`: a kernel of the document, compiled with debug info and
// run on an executor (lsp/lib/Launch.cpp). The server's "Launch" lens gives
// the command `{uri, kernel}`; a kernel that crashes comes back with its
// frames, and the server publishes a diagnostic at the faulting .mlir line.
// No VS Code API here.

import { isRecord } from './protocol';

export const LAUNCH_METHOD = 'executor/launch';

/** What a "Launch" lens names. */
export interface LaunchTarget {
  uri: string;
  /** `@module::@entry`. */
  kernel: string;
}

export interface LaunchParams extends LaunchTarget {
  /** The executor (`host:port`, `unix:PATH`); the target's dispatch address when absent. */
  address?: string;
  /** One value per argument (a memref's elements, a scalar's number). */
  inputs?: unknown[];
}

export interface LaunchFrame {
  text: string;
  inKernel: boolean;
  file?: string;
  line?: number;
  column?: number;
}

export interface LaunchResult {
  kernel: string;
  address: string;
  ok: boolean;
  results?: unknown[];
  error?: string;
  signal?: number;
  frames?: LaunchFrame[];
  /** The triple the kernel's target was compiled for instead of its own: the executor's. */
  retargeted?: string;
}

const KERNEL = /^@[^:\s]+::@[^:\s]+$/;

/** The argument of a "Launch" lens; undefined when `value` is not one. */
export function parseLaunchTarget(value: unknown): LaunchTarget | undefined {
  if (!isRecord(value) || typeof value['uri'] !== 'string' || value['uri'] === '') {
    return undefined;
  }
  const kernel = value['kernel'];
  if (typeof kernel !== 'string' || !KERNEL.test(kernel)) {
    return undefined;
  }
  return { uri: value['uri'], kernel };
}

/**
 * The request for `target` with what the user typed: an address (empty: the
 * target's) and the inputs as a JSON array (empty: 1, 2, 3, ...). A string
 * says what is wrong with the inputs.
 */
export function launchParams(target: LaunchTarget, address: string, inputs: string): LaunchParams | string {
  const params: LaunchParams = { ...target };
  if (address.trim() !== '') {
    params.address = address.trim();
  }
  if (inputs.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(inputs);
    } catch (error) {
      return `the inputs are not JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!Array.isArray(parsed)) {
      return 'the inputs must be a JSON array, one value per argument (e.g. [[1, 2, 3, 4]])';
    }
    params.inputs = parsed;
  }
  return params;
}

function parseFrame(value: unknown): LaunchFrame | undefined {
  if (!isRecord(value) || typeof value['text'] !== 'string') {
    return undefined;
  }
  const frame: LaunchFrame = { text: value['text'], inKernel: value['inKernel'] === true };
  if (typeof value['file'] === 'string' && typeof value['line'] === 'number') {
    frame.file = value['file'];
    frame.line = value['line'];
    frame.column = typeof value['column'] === 'number' ? value['column'] : 0;
  }
  return frame;
}

/** The server's answer; undefined when it is not one. */
export function parseLaunchResult(value: unknown): LaunchResult | undefined {
  if (!isRecord(value) || typeof value['kernel'] !== 'string' || typeof value['ok'] !== 'boolean') {
    return undefined;
  }
  const result: LaunchResult = {
    kernel: value['kernel'],
    address: typeof value['address'] === 'string' ? value['address'] : '',
    ok: value['ok'],
  };
  if (Array.isArray(value['results'])) {
    result.results = value['results'];
  }
  if (typeof value['error'] === 'string') {
    result.error = value['error'];
  }
  if (typeof value['signal'] === 'number') {
    result.signal = value['signal'];
  }
  if (typeof value['retargeted'] === 'string') {
    result.retargeted = value['retargeted'];
  }
  if (Array.isArray(value['frames'])) {
    result.frames = value['frames'].map(parseFrame).filter((f): f is LaunchFrame => f !== undefined);
  }
  return result;
}

/** What the extension says of a launch: its results, or its error and frames. */
export function describeLaunch(result: LaunchResult): string {
  if (result.ok) {
    const retargeted = result.retargeted ? ` (compiled for ${result.retargeted}, the executor's triple)` : '';
    return `${result.kernel} on ${result.address}${retargeted}: ${JSON.stringify(result.results ?? [])}`;
  }
  const lines = [`${result.kernel} on ${result.address} failed: ${result.error ?? 'no reason given'}`];
  return lines.join('\n');
}
