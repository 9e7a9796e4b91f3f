import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ApprovalLogRecord } from '../../shared/approvals.js';
import { fsyncDir } from '../fs/index.js';
import { ApprovalError } from './errors.js';

/**
 * A session's approvals.jsonl: append-only, one record a line, each append fsynced before it
 * resolves (the request is on disk before anyone sees it; the decision before the agent hears
 * it). A torn last line (power loss mid-append) is skipped on read, never "repaired" in place.
 */
export const APPROVALS_FILE = 'approvals.jsonl';

export interface ReadResult {
  records: ApprovalLogRecord[];
  /** Lines that did not parse (a torn tail, or damage), kept out of the state. */
  skipped: number;
}

export class ApprovalLog {
  private created = false;

  constructor(readonly file: string) {}

  async append(record: ApprovalLogRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    try {
      if (!this.created) await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      const handle = await open(this.file, 'a', 0o600);
      try {
        await handle.write(line);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (!this.created) {
        // The first append may have created the file: make its directory entry durable too.
        await fsyncDir(dirname(this.file));
        this.created = true;
      }
    } catch (error) {
      throw new ApprovalError('IO_ERROR', `could not record the approval in ${this.file}: ${(error as Error).message}`, this.file, { cause: error });
    }
  }

  async read(): Promise<ReadResult> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
      this.created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0 };
      throw new ApprovalError('IO_ERROR', `could not read ${this.file}: ${(error as Error).message}`, this.file, { cause: error });
    }
    const records: ApprovalLogRecord[] = [];
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed = ApprovalLogRecord.safeParse(JSON.parse(line));
        if (parsed.success) records.push(parsed.data);
        else skipped++;
      } catch {
        skipped++;
      }
    }
    return { records, skipped };
  }
}
