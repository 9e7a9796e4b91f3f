import { appendFile, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalLogRecord } from '../../shared/approvals.js';
import { makeTempDir } from '../store/test-support/temp-dir.js';
import { APPROVALS_FILE, ApprovalLog } from './approval-log.js';

const decision = (requestId: string): ApprovalLogRecord => ({
  type: 'decision',
  requestId,
  sessionId: 's-1',
  decision: 'deny',
  by: 'user',
  reason: null,
  confirmedHighRisk: false,
  grantId: null,
  decidedAt: '2026-11-30T10:00:00.000Z',
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('baton-approval-log-'));
});
afterEach(() => cleanup());

describe('approvals.jsonl through the store log code', () => {
  it('torn tail, then append, then read: the new record is kept and the torn one cleanly dropped', async () => {
    const file = join(dir, 's-1', APPROVALS_FILE);
    const first = new ApprovalLog(file);
    await first.append(decision('r-1'));
    // A writer killed mid-append leaves half a line with no newline.
    await appendFile(file, '{"type":"decision","requestId":"r-2","sess');
    // The next process appends: its record must not be glued to the fragment.
    const second = new ApprovalLog(file);
    await second.append(decision('r-3'));
    const { records } = await new ApprovalLog(file).read();
    expect(records.map((r) => (r as { requestId: string }).requestId)).toEqual(['r-1', 'r-3']);
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('"sess{');
  });

  it('a torn tail of many sizes is always dropped cleanly, never merged with the next append', async () => {
    const full = `${JSON.stringify(decision('r-torn'))}\n`;
    for (let cut = 1; cut < full.length - 1; cut += 7) {
      const file = join(dir, `cut-${cut}`, APPROVALS_FILE);
      const log = new ApprovalLog(file);
      await log.append(decision('r-0'));
      await appendFile(file, full.slice(0, cut));
      await new ApprovalLog(file).append(decision('r-after'));
      const { records } = await new ApprovalLog(file).read();
      expect(records.map((r) => (r as { requestId: string }).requestId), `cut at ${cut}`).toEqual(['r-0', 'r-after']);
    }
  });

  it('a damaged line in the middle is skipped and counted, never cut, the records after it kept', async () => {
    const file = join(dir, 's-2', APPROVALS_FILE);
    const log = new ApprovalLog(file);
    await log.append(decision('r-1'));
    await log.append(decision('r-2'));
    const text = await readFile(file, 'utf8');
    const firstLine = text.slice(0, text.indexOf('\n'));
    await writeFile(file, `${'#'.repeat(firstLine.length)}${text.slice(firstLine.length)}`);
    let read = await new ApprovalLog(file).read();
    expect(read.records.map((r) => (r as { requestId: string }).requestId)).toEqual(['r-2']);
    expect(read.skipped).toBe(1);
    await new ApprovalLog(file).append(decision('r-3'));
    read = await new ApprovalLog(file).read();
    expect(read.records.map((r) => (r as { requestId: string }).requestId)).toEqual(['r-2', 'r-3']);
    expect((await readFile(file, 'utf8')).startsWith('#'.repeat(firstLine.length))).toBe(true);
  });

  it('garbage lines at the end (power loss in an extended file) are cut before the next append', async () => {
    const file = join(dir, 's-5', APPROVALS_FILE);
    await new ApprovalLog(file).append(decision('r-1'));
    await appendFile(file, 'x\u0000\u0000garbage\n\u0000\u0000\nmore');
    await new ApprovalLog(file).append(decision('r-2'));
    const read = await new ApprovalLog(file).read();
    expect(read.records.map((r) => (r as { requestId: string }).requestId)).toEqual(['r-1', 'r-2']);
    expect(read.skipped).toBe(0);
  });

  it('reads a log written before checksums (plain JSON lines)', async () => {
    const file = join(dir, 's-3', APPROVALS_FILE);
    await mkdir(join(dir, 's-3'), { recursive: true });
    await writeFile(file, `${JSON.stringify(decision('old-1'))}\n${JSON.stringify(decision('old-2'))}\n`);
    const { records, skipped } = await new ApprovalLog(file).read();
    expect(records).toHaveLength(2);
    expect(skipped).toBe(0);
  });

  it('a line whose checksum does not match is skipped', async () => {
    const file = join(dir, 's-4', APPROVALS_FILE);
    const log = new ApprovalLog(file);
    await log.append(decision('r-1'));
    await log.append(decision('r-2'));
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"r-1"', '"r-9"'));
    const read = await new ApprovalLog(file).read();
    expect(read.records.map((r) => (r as { requestId: string }).requestId)).toEqual(['r-2']);
    expect(read.skipped).toBe(1);
  });
});
