import { join } from 'node:path';
import { TaskRecord } from '../../shared/tasks.js';
import { isValidId } from '../../shared/ids.js';
import { createFileAtomic, writeFileAtomic, type DurableFs } from '../fs/index.js';
import { TaskError } from './errors.js';
import { storeFsFor } from '../store/at-rest/registry.js';

/**
 * `<dataDir>/tasks/<taskId>.json`, one file a task, always replaced whole (temp → fsync →
 * rename → fsync dir) so a reader sees a complete record or the previous one. Creation is
 * create-if-absent (link), which makes a retried registration land on the same file. Every access
 * goes through DurableFs, like the store's (tests inject faults there).
 */
export class TaskFiles {
  readonly dir: string;

  constructor(
    dataDir: string,
    private readonly fs: DurableFs = storeFsFor(dataDir),
  ) {
    this.dir = join(dataDir, 'tasks');
  }

  pathOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  async ensureDir(): Promise<void> {
    await this.fs.mkdir(this.dir, 0o700);
  }

  /** False when a task with this id exists already (nothing written). */
  async create(record: TaskRecord): Promise<boolean> {
    await this.ensureDir();
    return createFileAtomic(this.pathOf(record.id), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, fs: this.fs });
  }

  async write(record: TaskRecord): Promise<void> {
    await writeFileAtomic(this.pathOf(record.id), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, fs: this.fs });
  }

  /** NOT_FOUND when the file is gone, DAMAGED when it does not parse: never an empty record. */
  async read(id: string): Promise<TaskRecord> {
    const file = this.pathOf(id);
    let text: string;
    try {
      text = (await this.fs.readFile(file)).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new TaskError('NOT_FOUND', `no task ${id}: its state file ${file} does not exist (never registered, or deleted)`, id);
      }
      throw new TaskError('IO_ERROR', `cannot read ${file}: ${(error as Error).message}`, id, {}, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new TaskError('DAMAGED', `the state file ${file} of task ${id} is not valid JSON; it was left as it is`, id);
    }
    const parsed = TaskRecord.safeParse(json);
    if (!parsed.success) throw new TaskError('DAMAGED', `the state file ${file} of task ${id} does not match the task schema: ${parsed.error.issues[0]?.message ?? ''}`, id);
    return parsed.data;
  }

  /** Deletes a task's file (and makes the deletion durable); a file already gone is not an error. */
  async remove(id: string): Promise<void> {
    try {
      await this.fs.unlink(this.pathOf(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new TaskError('IO_ERROR', `cannot delete ${this.pathOf(id)}: ${(error as Error).message}`, id, {}, { cause: error });
    }
    await this.fs.fsyncDir(this.dir);
  }

  async ids(): Promise<string[]> {
    try {
      return (await this.fs.readdir(this.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((n) => n.slice(0, -5)).filter(isValidId);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}
