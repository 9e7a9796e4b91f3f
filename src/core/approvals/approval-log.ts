import { ApprovalLogRecord } from '../../shared/approvals.js';
import type { DurableFs } from '../fs/durable-fs.js';
import { LineLog } from '../store/line-log.js';
import { ApprovalError } from './errors.js';
import { storeFsFor } from '../store/at-rest/registry.js';

/**
 * A session's approvals.jsonl: append-only, one sealed record a line (the store's LineLog, with a
 * checksum), each append fsynced before it resolves (the request is on disk before anyone sees it;
 * the decision before the agent hears it). A torn last line left by a killed writer is skipped on
 * read and cut before the next append, so the next record is never glued to it.
 */
export { APPROVALS_FILE } from './approvals-file.js';

export interface ReadResult {
  records: ApprovalLogRecord[];
  /** Lines that did not parse (a torn tail, or damage), kept out of the state. */
  skipped: number;
}

export class ApprovalLog {
  private readonly log: LineLog;

  constructor(
    readonly file: string,
    fs: DurableFs = storeFsFor(file),
  ) {
    this.log = new LineLog(file, { fs, seal: true });
  }

  async append(record: ApprovalLogRecord): Promise<void> {
    try {
      await this.log.append([record]);
    } catch (error) {
      throw new ApprovalError('IO_ERROR', `could not record the approval in ${this.file}: ${(error as Error).message}`, this.file, { cause: error });
    }
  }

  async read(): Promise<ReadResult> {
    let read;
    try {
      read = await this.log.read();
    } catch (error) {
      throw new ApprovalError('IO_ERROR', `could not read ${this.file}: ${(error as Error).message}`, this.file, { cause: error });
    }
    if (!read) return { records: [], skipped: 0 };
    const records: ApprovalLogRecord[] = [];
    // Damaged ranges may span several lines; a torn tail is one.
    let skipped = read.damage.length + (read.tail ? 1 : 0);
    for (const value of read.values) {
      const parsed = ApprovalLogRecord.safeParse(value);
      if (parsed.success) records.push(parsed.data);
      else skipped++;
    }
    return { records, skipped };
  }
}
