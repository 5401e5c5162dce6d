// What the extension knows about the executor-lsp-server process it started,
// and what it tells the user when that process does not start or dies: the
// path, the exit code or signal, the last lines the server wrote on stderr,
// and what to do. Also how often a server that dies is started again. No VS
// Code API here.

/** The arguments vscode-languageclient passes for TransportKind.stdio, plus the editor's pid. */
export function transportArgs(clientProcessId: number): string[] {
  return ['--stdio', `--clientProcessId=${clientProcessId}`];
}

/** The last lines of a stream (the server's stderr), bounded in size. */
export class OutputTail {
  private text = '';

  constructor(private readonly maxChars = 4000) {}

  append(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.maxChars);
  }

  /** The last `count` non-empty lines. */
  lines(count = 5): string[] {
    return this.text
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '')
      .slice(-count);
  }
}

/** How a server process ended (or failed to start). */
export interface ServerExit {
  /** The executable. */
  path: string;
  /** The exit code; null when a signal ended it or it never ran. */
  code: number | null;
  signal: string | null;
  /** spawn's error (ENOENT, EACCES, ...), when it could not run at all. */
  spawnError?: string;
  /** How long it ran, in milliseconds. */
  uptimeMs: number;
  /** Its last lines on stderr. */
  stderr: string[];
}

/** One sentence (and the server's last words) for an error message. */
export function describeServerExit(exit: ServerExit): string {
  let what: string;
  if (exit.spawnError !== undefined) {
    what = `${exit.path} could not be run: ${exit.spawnError}`;
  } else if (exit.signal !== null) {
    what = `${exit.path} was killed by ${exit.signal}`;
  } else if (exit.code !== null) {
    what = `${exit.path} exited with code ${exit.code}`;
  } else {
    what = `${exit.path} stopped`;
  }
  if (exit.spawnError === undefined) {
    what += exit.uptimeMs < 10000 ? ' as it started' : ` after ${Math.round(exit.uptimeMs / 1000)} s`;
  }
  const said = exit.stderr.length > 0 ? `: "${exit.stderr.join(' ')}"` : '';
  return `${what}${said}`;
}

/**
 * Whether a server that died is started again: at most `maxRestarts` times in
 * `windowMs` (vscode-languageclient's own default is 4 in 3 minutes), and
 * never one that died as it started (a wrong path or argument does not get
 * better by trying again).
 */
export class RestartPolicy {
  private restarts: number[] = [];

  constructor(
    private readonly maxRestarts = 4,
    private readonly windowMs = 3 * 60 * 1000,
    private readonly minUptimeMs = 10000,
  ) {}

  shouldRestart(now: number, uptimeMs: number): boolean {
    if (uptimeMs < this.minUptimeMs) {
      return false;
    }
    this.restarts = this.restarts.filter((time) => now - time < this.windowMs);
    if (this.restarts.length >= this.maxRestarts) {
      return false;
    }
    this.restarts.push(now);
    return true;
  }

  /** Forgets earlier restarts (the user restarted the server or changed its settings). */
  reset(): void {
    this.restarts = [];
  }
}
