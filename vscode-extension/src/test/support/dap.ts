// A Debug Adapter Protocol client for the tests: Content-Length framed JSON
// on an adapter's standard input and output, as VS Code speaks it.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

import { LldbDapChannel } from '../../core/dapProxy';

export interface DapMessage {
  seq: number;
  type: 'request' | 'response' | 'event';
  command?: string;
  event?: string;
  request_seq?: number;
  success?: boolean;
  message?: string;
  body?: Record<string, unknown>;
}

export class DapClient {
  readonly process: ChildProcessWithoutNullStreams | undefined;
  /** When the client speaks through the extension's LldbDapChannel (as VS Code does). */
  private readonly channel: LldbDapChannel | undefined;
  /** Every message the adapter sent, in order. */
  readonly received: DapMessage[] = [];
  private buffer = Buffer.alloc(0);
  private seq = 0;
  private waiters: (() => void)[] = [];
  private closed = false;

  /**
   * `throughExtension`: through the extension's LldbDapChannel, which
   * passes lldb-dap's messages through StopFocus, as VS Code gets them.
   */
  constructor(adapter: string, throughExtension = false) {
    if (throughExtension) {
      this.channel = new LldbDapChannel(
        adapter,
        (message) => {
          this.received.push(message as DapMessage);
          if (this.channel?.exited === true) {
            this.closed = true;
          }
          this.wake();
        },
        () => undefined,
      );
      return;
    }
    const child = spawn(adapter, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.process = child;
    child.stdout.on('data', (chunk: Buffer) => {
      this.read(chunk);
    });
    child.on('exit', () => {
      this.closed = true;
      this.wake();
    });
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      const length = Number(/content-length:\s*(\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1] ?? 'NaN');
      if (this.buffer.length < end + 4 + length) {
        return;
      }
      this.received.push(JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()) as DapMessage);
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.wake();
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      w();
    }
  }

  send(command: string, args?: unknown): number {
    const request = { seq: ++this.seq, type: 'request', command, arguments: args };
    if (this.channel) {
      this.channel.send(request);
      return this.seq;
    }
    const message = JSON.stringify(request);
    this.process?.stdin.write(`Content-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`);
    return this.seq;
  }

  /** The first message after `after` (an adapter seq) that `match` takes. */
  async waitFor(match: (m: DapMessage) => boolean, what: string, timeoutMs = 120000, after = 0): Promise<DapMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((m) => m.seq > after && match(m));
      if (found) {
        return found;
      }
      if (this.closed) {
        throw new Error(`lldb-dap exited while the test waited for ${what}; it sent:\n${this.transcript()}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}; lldb-dap sent:\n${this.transcript()}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async request(command: string, args?: unknown, timeoutMs = 120000): Promise<Record<string, unknown>> {
    const seq = this.send(command, args);
    const response = await this.waitFor((m) => m.type === 'response' && m.request_seq === seq, `the response to ${command}`, timeoutMs);
    if (!response.success) {
      throw new Error(`${command} failed: ${response.message ?? ''} ${JSON.stringify(response.body ?? {})}`);
    }
    return response.body ?? {};
  }

  event(name: string, timeoutMs = 120000, after = 0): Promise<DapMessage> {
    return this.waitFor((m) => m.type === 'event' && m.event === name, `the ${name} event`, timeoutMs, after);
  }

  transcript(): string {
    return this.received
      .map((m) => (m.event === 'output' ? `output: ${(typeof m.body?.['output'] === 'string' ? m.body['output'] : '').trimEnd()}` : JSON.stringify(m)))
      .join('\n');
  }

  kill(): void {
    this.channel?.dispose(0);
    if (!this.closed) {
      this.process?.kill('SIGKILL');
    }
  }
}
