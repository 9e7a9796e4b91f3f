import net from 'node:net';

/**
 * A protocol-ignorant socket peer for tests: it records every byte it receives and lets a test
 * write anything, so it can play a hostile client or check what a server sends before auth.
 */
export class RawPeer {
  readonly chunks: Buffer[] = [];
  private buffer = '';
  private readonly lines: string[] = [];
  private waiters: Array<() => void> = [];
  readonly closed: Promise<void>;
  isClosed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffer += chunk.toString('utf8');
      let newline = this.buffer.indexOf('\n');
      while (newline !== -1) {
        this.lines.push(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
        newline = this.buffer.indexOf('\n');
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.isClosed = true;
        this.wake();
        resolve();
      }),
    );
  }

  static connect(address: string): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(address);
      socket.once('connect', () => resolve(new RawPeer(socket)));
      socket.once('error', reject);
    });
  }

  /** Wraps an accepted socket (fake servers). */
  static wrap(socket: net.Socket): RawPeer {
    return new RawPeer(socket);
  }

  get bytesReceived(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  get receivedText(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** The next complete line, or null if the socket closes (or `timeoutMs` passes) first. */
  async nextLine(timeoutMs = 5_000): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      if (this.isClosed || Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async nextFrame(timeoutMs = 5_000): Promise<Record<string, unknown> | null> {
    const line = await this.nextLine(timeoutMs);
    return line === null ? null : (JSON.parse(line) as Record<string, unknown>);
  }

  send(text: string | Buffer): void {
    this.socket.write(text);
  }

  sendFrame(frame: unknown): void {
    this.socket.write(`${JSON.stringify(frame)}\n`);
  }

  destroy(): void {
    this.socket.destroy();
  }
}
