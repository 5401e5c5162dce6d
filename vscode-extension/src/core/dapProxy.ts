// Between VS Code and lldb-dap (no VS Code API): the Debug Adapter
// Protocol's framing, and the one rewrite the executor-kernel debugger
// makes. A session has a PID namespace of its own, which does not see
// lldb-server's PID, so the SIGSTOPs with which lldb-server stops the other
// threads at a breakpoint or a step reach them with si_pid 0 and lldb takes
// them for the program's own: lldb-dap reports, with each stop, one
// `stopped` event a thread, "exception: signal SIGSTOP" for all but the
// thread that stopped, and gives the focus to the first of them (the main
// thread), so VS Code would show the main thread "paused on exception"
// rather than the kernel at its breakpoint. StopFocus keeps, of a stop, the
// event of the thread that really stopped, focused; a stop of SIGSTOPs
// only (a pause) goes through as it came. And the kernel's frame is named
// as the editor names the kernel (nameKernelFrames).

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

import { splitKernel } from './kernelDebug';

export interface DapMessage {
  seq?: number;
  type?: string;
  event?: string;
  command?: string;
  body?: Record<string, unknown>;
  [key: string]: unknown;
}

function isSigstop(message: DapMessage): boolean {
  return message.type === 'event' && message.event === 'stopped' && message.body?.['description'] === 'signal SIGSTOP';
}

export class StopFocus {
  private held: DapMessage[] = [];
  /** A real stop's event went out since the last `continued`: the SIGSTOPs of this stop are dropped. */
  private focused = false;

  /** What to send VS Code for `message` from lldb-dap, in order. */
  filter(message: DapMessage): DapMessage[] {
    if (message.type === 'event' && message.event === 'stopped') {
      if (isSigstop(message)) {
        if (!this.focused) {
          this.held.push(message);
        }
        return [];
      }
      this.held = [];
      this.focused = true;
      return [{ ...message, body: { ...message.body, preserveFocusHint: false, threadCausedFocus: true } }];
    }
    if (message.type === 'event' && (message.event === 'continued' || message.event === 'exited' || message.event === 'terminated')) {
      this.focused = false;
      return [...this.flush(), message];
    }
    if (message.type === 'event' && message.event === 'output') {
      // Output may come between a stop's events.
      return [message];
    }
    return [...this.flush(), message];
  }

  /** The held SIGSTOP events of a stop that had no other (a pause), as they came. */
  flush(): DapMessage[] {
    const held = this.held;
    this.held = [];
    if (held.length > 0) {
      this.focused = true;
    }
    return held;
  }

  /** Whether events wait for `flush` (call it when lldb-dap has said nothing for a moment). */
  holding(): boolean {
    return this.held.length > 0;
  }
}

/**
 * lldb names a kernel's frame by its symbol (`square`); in a `stackTrace`
 * response, the frame of `kernel`'s entry at a `.mlir` line gets the
 * kernel's own name, `@compute::@square`, as the lens, the launch
 * configuration and the studio call it (its wrappers,
 * `_mlir_ciface_square` and `_catalyst_pyface_square`, keep theirs).
 */
export function nameKernelFrames(message: DapMessage, kernel: string): DapMessage {
  const entry = splitKernel(kernel)?.entry;
  const frames = message.body?.['stackFrames'];
  if (entry === undefined || message.type !== 'response' || message.command !== 'stackTrace' || !Array.isArray(frames)) {
    return message;
  }
  const named = frames.map((f: unknown) => {
    const frame = f as { name?: unknown; source?: { path?: unknown } } | null;
    const file = frame?.source?.path;
    return frame?.name === entry && typeof file === 'string' && file.endsWith('.mlir') ? { ...frame, name: kernel } : f;
  });
  return { ...message, body: { ...message.body, stackFrames: named } };
}

/** Content-Length framed JSON from a stream, message by message. */
export class DapFramer {
  private buffer = Buffer.alloc(0);

  push(chunk: Buffer): DapMessage[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const messages: DapMessage[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        return messages;
      }
      const length = Number(/content-length:\s*(\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1] ?? 'NaN');
      if (Number.isNaN(length)) {
        // Not a header: skip it.
        this.buffer = this.buffer.subarray(end + 4);
        continue;
      }
      if (this.buffer.length < end + 4 + length) {
        return messages;
      }
      messages.push(JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()) as DapMessage);
      this.buffer = this.buffer.subarray(end + 4 + length);
    }
  }
}

export function frame(message: unknown): string {
  const text = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

/**
 * lldb-dap as the executor-kernel debugger runs it: spawned, its messages
 * unframed and passed through StopFocus to `onMessage` (a stop of SIGSTOPs
 * only goes out once lldb-dap has been quiet for `quietMs`), and what it
 * is sent framed to it. Ends with a `terminated` event when lldb-dap exits.
 */
export class LldbDapChannel {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly framer = new DapFramer();
  private readonly focus = new StopFocus();
  private timer: NodeJS.Timeout | undefined;
  /** The kernel of the attach configuration sent (its `executorKernel.kernel`). */
  private kernel = '';
  exited = false;

  constructor(
    lldbDap: string,
    private readonly onMessage: (message: DapMessage) => void,
    onLog: (line: string) => void,
    quietMs = 300,
  ) {
    this.child = spawn(lldbDap, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => {
      for (const message of this.framer.push(chunk)) {
        this.forward(this.focus.filter(nameKernelFrames(message, this.kernel)));
      }
      clearTimeout(this.timer);
      if (this.focus.holding()) {
        this.timer = setTimeout(() => {
          this.forward(this.focus.flush());
        }, quietMs);
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      onLog(`lldb-dap: ${chunk.toString().trimEnd()}`);
    });
    this.child.on('error', (error) => {
      onLog(`lldb-dap: ${error.message}`);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      clearTimeout(this.timer);
      if (code !== 0) {
        onLog(`lldb-dap exited with ${signal ?? String(code)}`);
      }
      this.forward([...this.focus.flush(), { seq: 0, type: 'event', event: 'terminated' }]);
    });
  }

  private forward(messages: DapMessage[]): void {
    for (const message of messages) {
      this.onMessage(message);
    }
  }

  send(message: unknown): void {
    const request = message as DapMessage;
    if (request.command === 'attach') {
      const marker = (request['arguments'] as { executorKernel?: { kernel?: unknown } } | undefined)?.executorKernel;
      this.kernel = typeof marker?.kernel === 'string' ? marker.kernel : '';
    }
    if (!this.exited) {
      this.child.stdin.write(frame(message));
    }
  }

  /** lldb-dap ends by itself after `disconnect`; after `graceMs`, it is killed. */
  dispose(graceMs = 5000): void {
    clearTimeout(this.timer);
    if (!this.exited) {
      setTimeout(() => {
        if (!this.exited) {
          this.child.kill('SIGKILL');
        }
      }, graceMs).unref();
    }
  }
}
