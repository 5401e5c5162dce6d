// Starts, stops and restarts one server client at a time. Restarts asked for
// while one is under way (a command and a settings change together) are
// folded into one more. No VS Code API here.

export interface LifecycleHooks<Client> {
  /** Starts a client; throws when it cannot. */
  start: () => Promise<Client>;
  /** Stops a client that `start` returned. */
  stop: (client: Client) => Promise<void>;
}

export class ServerLifecycle<Client> {
  private client: Client | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pendingRestart: Promise<Client | undefined> | undefined;
  private disposed = false;

  constructor(private readonly hooks: LifecycleHooks<Client>) {}

  /** The running client, if any. */
  get current(): Client | undefined {
    return this.client;
  }

  /** Stops the running client (if any) and starts a new one. */
  restart(): Promise<Client | undefined> {
    // A restart that has not begun yet will see the newest settings: share it.
    if (this.pendingRestart !== undefined) {
      return this.pendingRestart;
    }
    const restart = this.enqueue(async () => {
      this.pendingRestart = undefined;
      await this.stopCurrent();
      if (this.disposed) {
        return undefined;
      }
      this.client = await this.hooks.start();
      return this.client;
    });
    this.pendingRestart = restart;
    return restart;
  }

  /** Stops the running client; a later `restart` starts one again. */
  stop(): Promise<void> {
    return this.enqueue(() => this.stopCurrent());
  }

  /** Stops for good. */
  dispose(): Promise<void> {
    this.disposed = true;
    return this.stop();
  }

  private async stopCurrent(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      await this.hooks.stop(client);
    }
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const result = this.queue.then(step);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
