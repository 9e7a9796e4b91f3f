import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { nodeDurableFs, type DurableFile, type DurableFs, type FileStat, type OpenFlags } from './durable-fs.js';

/**
 * A DurableFs wrapper for tests: counts every operation that changes the disk (write, fsync,
 * rename, truncate, link, unlink, mkdir), can fail the Nth one with an errno (ENOSPC, EIO), can run
 * a hook after the Kth one (the crash suite SIGKILLs itself there), and can simulate power loss:
 * `powerLoss()` puts every touched file and directory back to what was last fsynced.
 *
 * Power-loss model (files only): a file's durable content is what it held at its last fsync (or
 * when first seen); a directory's durable entries are those at its last fsync (or when first seen).
 * Directories created by mkdir are treated as durable at once (the store fsyncs their parent right
 * after), and directory renames are outside the model.
 */
export type MutatingOp = 'write' | 'sync' | 'rename' | 'truncate' | 'link' | 'unlink' | 'mkdir' | 'fsyncDir' | 'chmod';

export interface FaultPlan {
  /** Fail the op with this 1-based count with `errno` (the op does not happen). */
  failAt?: number;
  /** Keep failing every op from failAt on (a full disk stays full). */
  failForever?: boolean;
  errno?: 'ENOSPC' | 'EIO' | 'EACCES';
  /** Only ops of these kinds count towards failAt (default: all). */
  failKinds?: MutatingOp[];
  /** Called after each op completes, with its 1-based count. */
  afterOp?: (count: number, op: MutatingOp, path: string) => void;
  /** If op number `tearWriteAt` is a write, only its first half reaches the file before afterOp runs. */
  tearWriteAt?: number;
  /** Track durable state for powerLoss() (costs a read of the file at every fsync). */
  trackPowerLoss?: boolean;
}

export class SimulatedCrash extends Error {
  readonly code = 'ESIMCRASH';
  constructor() {
    super('simulated power loss: the file system is gone');
  }
}

interface DirEntry {
  ino: number;
}

export class FaultFs implements DurableFs {
  count = 0;
  failCount = 0;
  crashed = false;
  /** Content as of the last fsync, by inode. */
  private readonly durableContent = new Map<number, Buffer>();
  /** Entries (files only) as of the last directory fsync, by directory path. */
  private readonly durableDirs = new Map<string, Map<string, DirEntry>>();

  constructor(
    private readonly plan: FaultPlan = {},
    private readonly inner: DurableFs = nodeDurableFs,
  ) {}

  /** Counts an op; throws the injected errno or SimulatedCrash when it must not happen. */
  private gate(op: MutatingOp, path: string): void {
    if (this.crashed) throw new SimulatedCrash();
    const counts = !this.plan.failKinds || this.plan.failKinds.includes(op);
    const n = counts ? this.failCount + 1 : this.failCount;
    if (counts) this.failCount = n;
    const { failAt } = this.plan;
    if (counts && failAt !== undefined && (n === failAt || (this.plan.failForever && n > failAt))) {
      const code = this.plan.errno ?? 'EIO';
      throw Object.assign(new Error(`${code}: injected fault, ${op} '${path}'`), { code, errno: code, path });
    }
  }

  private done(op: MutatingOp, path: string): void {
    this.count += 1;
    this.plan.afterOp?.(this.count, op, path);
  }

  private async snapshotDir(dir: string): Promise<void> {
    if (!this.plan.trackPowerLoss || this.durableDirs.has(dir)) return;
    this.durableDirs.set(dir, await this.listFiles(dir, true));
  }

  private async listFiles(dir: string, snapshotContent: boolean): Promise<Map<string, DirEntry>> {
    const entries = new Map<string, DirEntry>();
    let names: string[] = [];
    try {
      names = await fsp.readdir(dir);
    } catch {
      return entries;
    }
    for (const name of names) {
      const st = await fsp.lstat(join(dir, name)).catch(() => undefined);
      if (!st?.isFile()) continue;
      entries.set(name, { ino: st.ino });
      if (snapshotContent && !this.durableContent.has(st.ino)) this.durableContent.set(st.ino, await fsp.readFile(join(dir, name)));
    }
    return entries;
  }

  private async snapshotFile(path: string): Promise<void> {
    if (!this.plan.trackPowerLoss) return;
    await this.snapshotDir(dirname(path));
    const st = await fsp.lstat(path).catch(() => undefined);
    if (st?.isFile() && !this.durableContent.has(st.ino)) this.durableContent.set(st.ino, await fsp.readFile(path));
  }

  async open(path: string, flags: OpenFlags, mode?: number): Promise<DurableFile> {
    if (this.crashed) throw new SimulatedCrash();
    if (flags !== 'r') await this.snapshotFile(path);
    const file = await this.inner.open(path, flags, mode);
    if (this.plan.trackPowerLoss && flags !== 'r') {
      const st = await file.stat();
      // A file created now has no durable content until its first fsync.
      if (!this.durableContent.has(st.ino)) this.durableContent.set(st.ino, Buffer.alloc(0));
    }
    return new FaultFile(this, file);
  }

  /** @internal used by FaultFile: true when the coming write is the one to tear. */
  tearsNext(): boolean {
    return this.plan.tearWriteAt !== undefined && this.count + 1 === this.plan.tearWriteAt;
  }

  /** @internal used by FaultFile */
  async fileOp<T>(op: MutatingOp, file: DurableFile, run: () => Promise<T>): Promise<T> {
    this.gate(op, file.path);
    const result = await run();
    if (op === 'sync' && this.plan.trackPowerLoss) {
      // Read by path: the handle may be write-only. A sync always comes before the store renames.
      const st = await file.stat();
      this.durableContent.set(st.ino, await fsp.readFile(file.path));
    }
    this.done(op, file.path);
    return result;
  }

  readFile(path: string): Promise<Buffer> {
    if (this.crashed) return Promise.reject(new SimulatedCrash());
    return this.inner.readFile(path);
  }

  async rename(from: string, to: string): Promise<void> {
    this.gate('rename', to);
    await this.snapshotFile(from);
    await this.snapshotFile(to);
    await this.inner.rename(from, to);
    this.done('rename', to);
  }

  async link(existing: string, to: string): Promise<void> {
    this.gate('link', to);
    await this.snapshotFile(existing);
    await this.snapshotDir(dirname(to));
    await this.inner.link(existing, to);
    this.done('link', to);
  }

  async unlink(path: string): Promise<void> {
    this.gate('unlink', path);
    await this.snapshotFile(path);
    await this.inner.unlink(path);
    this.done('unlink', path);
  }

  async mkdir(path: string, mode: number): Promise<void> {
    this.gate('mkdir', path);
    await this.inner.mkdir(path, mode);
    this.done('mkdir', path);
  }

  readdir(path: string): Promise<string[]> {
    if (this.crashed) return Promise.reject(new SimulatedCrash());
    return this.inner.readdir(path);
  }

  stat(path: string): Promise<FileStat> {
    if (this.crashed) return Promise.reject(new SimulatedCrash());
    return this.inner.stat(path);
  }

  lstat(path: string): Promise<FileStat> {
    if (this.crashed) return Promise.reject(new SimulatedCrash());
    return this.inner.lstat(path);
  }

  async removeTree(path: string): Promise<void> {
    this.gate('unlink', path);
    await this.inner.removeTree(path);
    this.done('unlink', path);
  }

  existsSync(path: string): boolean {
    if (this.crashed) throw new SimulatedCrash();
    return this.inner.existsSync(path);
  }

  async chmod(path: string, mode: number): Promise<void> {
    this.gate('chmod', path);
    await this.inner.chmod(path, mode);
    this.done('chmod', path);
  }

  async fsyncDir(path: string): Promise<void> {
    this.gate('fsyncDir', path);
    await this.inner.fsyncDir(path);
    if (this.plan.trackPowerLoss) this.durableDirs.set(path, await this.listFiles(path, false));
    this.done('fsyncDir', path);
  }

  /**
   * Power loss: every later call fails, then each touched directory is put back to its durable
   * entries and each file to its durable content. With `garbage`, a file that grew after its last
   * fsync keeps its new size but the extended region holds random bytes (metadata reached the disk,
   * data did not).
   */
  async powerLoss(mode: 'drop' | 'garbage'): Promise<void> {
    this.crashed = true;
    if (!this.plan.trackPowerLoss) throw new Error('FaultFs: powerLoss() needs trackPowerLoss: true');
    for (const [dir, durable] of this.durableDirs) {
      // A directory renamed away (staging → final, archive) is outside the model: it moved durably.
      if (!(await fsp.stat(dir).catch(() => undefined))?.isDirectory()) continue;
      const current = await this.listFiles(dir, false);
      const sizes = new Map<number, number>();
      for (const [name, entry] of current) {
        const st = await fsp.stat(join(dir, name)).catch(() => undefined);
        if (st) sizes.set(entry.ino, st.size);
        if (!durable.has(name)) await fsp.unlink(join(dir, name));
      }
      for (const [name, entry] of durable) {
        let content = this.durableContent.get(entry.ino) ?? Buffer.alloc(0);
        const grownTo = sizes.get(entry.ino) ?? 0;
        if (mode === 'garbage' && grownTo > content.length) content = Buffer.concat([content, randomBytes(grownTo - content.length)]);
        // Replace through a fresh file so another name sharing the inode is not rewritten.
        const target = join(dir, name);
        await fsp.rm(target, { force: true });
        await fsp.writeFile(target, content, { mode: 0o600 });
      }
    }
  }
}

class FaultFile implements DurableFile {
  constructor(
    private readonly owner: FaultFs,
    private readonly file: DurableFile,
  ) {}

  get path(): string {
    return this.file.path;
  }

  write(data: Uint8Array, position?: number): Promise<void> {
    const part = this.owner.tearsNext() && data.length > 1 ? data.subarray(0, Math.floor(data.length / 2)) : data;
    return this.owner.fileOp('write', this.file, () => this.file.write(part, position));
  }

  read(length: number, position: number): Promise<Buffer> {
    if (this.owner.crashed) return Promise.reject(new SimulatedCrash());
    return this.file.read(length, position);
  }

  sync(): Promise<void> {
    return this.owner.fileOp('sync', this.file, () => this.file.sync());
  }

  truncate(length: number): Promise<void> {
    return this.owner.fileOp('truncate', this.file, () => this.file.truncate(length));
  }

  stat(): Promise<FileStat> {
    if (this.owner.crashed) return Promise.reject(new SimulatedCrash());
    return this.file.stat();
  }

  close(): Promise<void> {
    return this.file.close();
  }
}
