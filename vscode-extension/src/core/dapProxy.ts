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
// as the editor names the kernel (nameKernelFrames), and its variables are
// shown with their MLIR types and a memref's data (KernelVariables,
// kernelVariables.ts, which reads the elements with `evaluate` requests of
// its own).

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

import { splitKernel } from './kernelDebug';
import { type DapVariable, type KernelArgument, KernelVariables } from './kernelVariables';

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

/** The seq of the first request the channel sends lldb-dap itself (VS Code's count from 1). */
const OWN_SEQ = 1_000_000_000;

/** The arguments of an attach configuration's `executorKernel.arguments`, if well formed. */
function markerArguments(marker: { arguments?: unknown } | undefined): KernelArgument[] {
  const args = marker?.arguments;
  if (!Array.isArray(args)) {
    return [];
  }
  return args.filter((a): a is KernelArgument => {
    const arg = a as { name?: unknown; type?: unknown } | null;
    return typeof arg?.name === 'string' && typeof arg.type === 'string';
  });
}

/**
 * lldb-dap as the executor-kernel debugger runs it: spawned, its messages
 * unframed and passed through StopFocus to `onMessage` (a stop of SIGSTOPs
 * only goes out once lldb-dap has been quiet for `quietMs`), in the order
 * lldb-dap sent them (a `variables` reply of the kernel's frame waits for
 * the elements it shows, read with requests of the channel's own, whose
 * replies go nowhere else), and what it is sent framed to it. Ends with a
 * `terminated` event when lldb-dap exits.
 */
export class LldbDapChannel {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly framer = new DapFramer();
  private readonly focus = new StopFocus();
  private timer: NodeJS.Timeout | undefined;
  /** The kernel of the attach configuration sent (its `executorKernel.kernel`). */
  private kernel = '';
  /** The rewrites of the kernel frame's variables (its `executorKernel.arguments`). */
  private variables = new KernelVariables([], () => Promise.resolve(new Error('not attached')));
  /** VS Code's stackTrace, scopes and variables requests whose replies are rewritten, by seq. */
  private readonly requests = new Map<number, DapMessage>();
  /** The frames (ids) of the kernel in this stop's stack traces. */
  private readonly kernelFrames = new Set<number>();
  /** The channel's own requests waiting for lldb-dap's reply, by seq. */
  private readonly own = new Map<number, (reply: DapMessage | Error) => void>();
  private nextSeq = OWN_SEQ;
  /** The seq of the last message forwarded: the channel's own replies take it (VS Code needs no new numbers). */
  private lastSeq = 0;
  /** What goes to `onMessage`, in lldb-dap's order. */
  private queue: Promise<void> = Promise.resolve();
  exited = false;

  constructor(
    lldbDap: string,
    private readonly onMessage: (message: DapMessage) => void,
    private readonly onLog: (line: string) => void,
    private readonly quietMs = 300,
    private readonly ownTimeoutMs = 10000,
  ) {
    this.child = spawn(lldbDap, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => {
      for (const message of this.framer.push(chunk)) {
        const answer = message.type === 'response' && typeof message['request_seq'] === 'number' ? this.own.get(message['request_seq']) : undefined;
        if (answer) {
          answer(message);
          continue;
        }
        this.enqueue(async () => {
          this.forward(this.focus.filter(await this.rewrite(message)));
        });
      }
      this.enqueue(() => {
        clearTimeout(this.timer);
        if (this.focus.holding()) {
          this.timer = setTimeout(() => {
            this.enqueue(() => {
              this.forward(this.focus.flush());
            });
          }, this.quietMs);
        }
      });
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
      for (const answer of this.own.values()) {
        answer(new Error('lldb-dap exited'));
      }
      if (code !== 0) {
        onLog(`lldb-dap exited with ${signal ?? String(code)}`);
      }
      this.enqueue(() => {
        this.forward([...this.focus.flush(), { seq: 0, type: 'event', event: 'terminated' }]);
      });
    });
  }

  private enqueue(step: () => void | Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.onLog(`executor-kernel: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private forward(messages: DapMessage[]): void {
    for (const message of messages) {
      if (typeof message.seq === 'number' && message.seq > this.lastSeq) {
        this.lastSeq = message.seq;
      }
      this.onMessage(message);
    }
  }

  /** lldb-dap's `message` as VS Code gets it: the kernel's frames named, its variables with MLIR types and data. */
  private async rewrite(message: DapMessage): Promise<DapMessage> {
    if (message.type === 'event' && (message.event === 'continued' || message.event === 'exited')) {
      // lldb-dap's frames and variables references of the last stop are gone.
      this.kernelFrames.clear();
      this.variables.reset();
      return message;
    }
    const seq = message['request_seq'];
    const request = message.type === 'response' && typeof seq === 'number' ? this.requests.get(seq) : undefined;
    if (!request || typeof seq !== 'number') {
      return message;
    }
    this.requests.delete(seq);
    const args = (request['arguments'] ?? {}) as Record<string, unknown>;
    if (message.command === 'stackTrace') {
      const named = nameKernelFrames(message, this.kernel);
      const frames = named.body?.['stackFrames'];
      for (const f of Array.isArray(frames) ? frames : []) {
        const frame = f as { id?: unknown; name?: unknown } | null;
        if (frame?.name === this.kernel && typeof frame.id === 'number') {
          this.kernelFrames.add(frame.id);
        }
      }
      return named;
    }
    const scopes = message.body?.['scopes'];
    if (message.command === 'scopes' && typeof args['frameId'] === 'number' && this.kernelFrames.has(args['frameId']) && Array.isArray(scopes)) {
      this.variables.addScopes(scopes as { variablesReference?: unknown; name?: unknown; presentationHint?: unknown }[], args['frameId']);
      return message;
    }
    const variables = message.body?.['variables'];
    if (message.command === 'variables' && message['success'] === true && typeof args['variablesReference'] === 'number' && Array.isArray(variables)) {
      const rewritten = await this.variables.rewrite(args['variablesReference'], variables as DapVariable[]);
      return { ...message, body: { ...message.body, variables: rewritten } };
    }
    return message;
  }

  /** lldb's value of variable path `path` in frame `frameId` (no expression is compiled), or why not. */
  private readValue(path: string, frameId: number): Promise<string | Error> {
    if (this.exited) {
      return Promise.resolve(new Error('lldb-dap exited'));
    }
    const seq = this.nextSeq++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.own.delete(seq);
        resolve(new Error(`lldb-dap did not answer within ${this.ownTimeoutMs / 1000} s`));
      }, this.ownTimeoutMs);
      this.own.set(seq, (reply) => {
        clearTimeout(timer);
        this.own.delete(seq);
        if (reply instanceof Error) {
          resolve(reply);
        } else if (reply['success'] === true && typeof reply.body?.['result'] === 'string') {
          resolve(reply.body['result']);
        } else {
          const error = (reply.body?.['error'] as { format?: unknown } | undefined)?.format;
          const text = typeof error === 'string' ? error : reply['message'];
          resolve(new Error(typeof text === 'string' ? text : 'no value'));
        }
      });
      this.child.stdin.write(frame({ seq, type: 'request', command: 'evaluate', arguments: { expression: path, frameId, context: 'hover' } }));
    });
  }

  send(message: unknown): void {
    const request = message as DapMessage;
    if (request.command === 'attach') {
      const marker = (request['arguments'] as { executorKernel?: { kernel?: unknown; arguments?: unknown } } | undefined)?.executorKernel;
      this.kernel = typeof marker?.kernel === 'string' ? marker.kernel : '';
      this.variables = new KernelVariables(markerArguments(marker), (path, frameId) => this.readValue(path, frameId));
    }
    if (request.type === 'request' && typeof request.seq === 'number' && ['stackTrace', 'scopes', 'variables'].includes(request.command ?? '')) {
      const reference = (request['arguments'] as { variablesReference?: unknown } | undefined)?.variablesReference;
      const children = typeof reference === 'number' ? this.variables.ownChildren(reference) : undefined;
      if (children) {
        // A memref's `data`: its elements, read already.
        const seq = request.seq;
        this.enqueue(() => {
          this.forward([{ seq: this.lastSeq, type: 'response', request_seq: seq, command: 'variables', success: true, body: { variables: children } }]);
        });
        return;
      }
      this.requests.set(request.seq, request);
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
