import { describe, expect, it } from 'vitest';
import { checkLineCrc, LINE_CRC_KEY, recordJsonOfLine, sealLine, sealLineInto } from './line-crc.js';
import { decodeLine, encodeNewRecord, scanLog, type StoredRecord } from './record-codec.js';
import { legacyRecordLine } from './test-support/legacy-record.js';

const base = { role: 'user', id: 'm-1', seq: 1, createdAt: '2026-11-30T10:00:00.000Z', epoch: 2 } as const;
const unsealed = (content: string, extra: Record<string, unknown> = {}) => ({ ...base, content, ...extra }) as Omit<StoredRecord, 'crc'>;
const body = (line: Buffer) => line.subarray(0, line.length - 1);

describe('messages.jsonl lines with a CRC over their bytes', () => {
  const contents = ['hello', '', 'é ü 中文 😀', '\u2028\u2029', 'lone \ud800 surrogate', 'quote " backslash \\ newline \n tab \t', `"${LINE_CRC_KEY}":"00000000"}`, 'x'.repeat(100_000)];

  it.each(contents.map((c) => [JSON.stringify(c).slice(0, 40), c]))('round-trips %s, one line, crc in `crc`', (_name, content) => {
    const { record, line } = encodeNewRecord(unsealed(content));
    expect(line.indexOf(0x0a)).toBe(line.length - 1);
    const decoded = decodeLine(body(line));
    expect(decoded).toEqual(record);
    expect(decoded?.content).toBe(content);
    expect(decoded?.crc).toMatch(/^[0-9a-f]{8}$/);
    expect(decoded).not.toHaveProperty(LINE_CRC_KEY);
  });

  it('still reads lines of the earlier format (crc over canonical JSON)', () => {
    for (const content of contents) {
      const { record, line } = legacyRecordLine(unsealed(content));
      expect(checkLineCrc(body(line))).toBeUndefined();
      expect(decodeLine(body(line))).toEqual(record);
    }
  });

  it('a log mixing both formats scans as one, with nothing damaged', () => {
    const lines = contents.map((content, seq) => (seq % 2 ? legacyRecordLine : encodeNewRecord)(unsealed(content, { id: `m-${seq}`, seq })));
    const scan = scanLog(Buffer.concat(lines.map((l) => l.line)), 0);
    expect(scan.records.map((r) => r.record)).toEqual(lines.map((l) => l.record));
    expect(scan.midDamage).toEqual([]);
    expect(scan.tail).toBeUndefined();
  });

  it('drops checksum keys an input carries: the line has one checksum, its own', () => {
    const { record, line } = encodeNewRecord(unsealed('x', { crc: 'deadbeef', [LINE_CRC_KEY]: '00000000' }));
    expect(line.toString().match(/crc/g)).toHaveLength(1);
    expect(decodeLine(body(line))).toEqual(record);
  });

  it('rejects every single-byte change of a new line, at every position', () => {
    const { line } = encodeNewRecord(unsealed('the quick brown fox', { toolCalls: [{ id: 't1', name: 'bash', input: { command: 'ls -la' } }] }));
    const intact = body(line);
    let rejected = 0;
    for (let i = 0; i < intact.length; i++) {
      for (const xor of [0x01, 0x20, 0x80]) {
        const damaged = Buffer.from(intact);
        damaged[i] = damaged[i]! ^ xor;
        if (decodeLine(damaged) === undefined) rejected++;
      }
    }
    expect(rejected).toBe(intact.length * 3);
  });

  it('rejects a new line cut short or lengthened, and a checksum that is not hex', () => {
    const { line } = encodeNewRecord(unsealed('abc'));
    const intact = body(line);
    for (let cut = 1; cut < intact.length; cut++) expect(decodeLine(intact.subarray(0, cut))).toBeUndefined();
    expect(decodeLine(Buffer.concat([intact.subarray(0, 5), Buffer.from(' '), intact.subarray(5)]))).toBeUndefined();
    const notHex = Buffer.from(intact.toString().replace(/"bcrc":"[0-9a-f]{8}"/, '"bcrc":"zzzzzzzz"'));
    expect(decodeLine(notHex)).toBeUndefined();
  });

  it('sealLine writes the bytes of the JSON with its brace replaced by the suffix, for 2,000 generated records', () => {
    // Whatever way sealLine builds the line, its bytes are those of `{…,"bcrc":"…"}\n` encoded whole.
    const pieces = ['a', 'é', '€', '😀', '\ud800', '\udc00', '"', '\\', '\n', '\u2028', '中', '\u0000', 'x'.repeat(3000)];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 2_000; i++) {
      let text = '';
      for (let j = next(24); j > 0; j--) text += pieces[next(pieces.length)];
      const json = JSON.stringify({ id: text, seq: i, nested: { [text]: [text, i] } });
      const { line, crc } = sealLine(json);
      const expected = Buffer.from(`${json.slice(0, -1)},"${LINE_CRC_KEY}":"${crc}"}\n`, 'utf8');
      expect(line.equals(expected), json).toBe(true);
      expect(checkLineCrc(body(line))).toBe(crc);
    }
  });

  it('sealLineInto writes the bytes of sealLine where it is told, for 2,000 generated records at every kind of offset', () => {
    const pieces = ['a', 'é', '€', '😀', '\ud800', '\udc00', '"', '\\', '\n', '\u2028', '中', '\u0000', 'x'.repeat(3000)];
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 2_000; i++) {
      let text = '';
      for (let j = next(24); j > 0; j--) text += pieces[next(pieces.length)];
      const json = JSON.stringify({ id: text, seq: i, nested: { [text]: [text, i] } });
      const at = next(1024);
      // Room for the worst case (3 bytes a UTF-16 unit) and a few bytes more or less past it.
      const into = Buffer.alloc(at + json.length * 3 + 20 + next(64), 0xee);
      const placed = sealLineInto(json, into, at)!;
      const { line, crc } = sealLine(json);
      expect(into.subarray(at, at + placed.length).equals(line), json).toBe(true);
      expect(placed.crc).toBe(crc);
      expect(placed.check).toBe(Number.parseInt(crc, 16));
    }
  });

  it('sealLineInto declines, writing nothing, a line that might not fit from its offset', () => {
    const json = JSON.stringify({ content: 'x'.repeat(100) });
    const into = Buffer.alloc(json.length * 3 + 40, 0xee);
    const room = into.length - (json.length * 3 + 1 + `"${LINE_CRC_KEY}":"`.length + 10 + 1);
    expect(sealLineInto(json, into, room + 1)).toBeUndefined();
    expect(into.every((b) => b === 0xee)).toBe(true);
    expect(sealLineInto(json, into, room)?.length).toBe(sealLine(json).line.length);
  });

  it('sealLine puts the crc of the bytes before the checksum key in the suffix', () => {
    const { line, crc } = sealLine('{"a":1}');
    expect(line.toString()).toBe(`{"a":1,"${LINE_CRC_KEY}":"${crc}"}\n`);
    expect(checkLineCrc(body(line))).toBe(crc);
  });
});

describe('a record spliced from its line', () => {
  it('is the JSON of the decoded record, byte for byte, for a new line; undefined for an earlier-format one', () => {
    for (const content of ['plain', 'é 😀 "q" \\ \u2028', '']) {
      const { line } = encodeNewRecord(unsealed(content, { toolCalls: [{ id: 't', name: 'Read', input: { path: '/x' } }] }));
      const decoded = decodeLine(body(line))!;
      expect(recordJsonOfLine(body(line), decoded.crc)?.toString('utf8')).toBe(JSON.stringify(decoded));
      const legacy = legacyRecordLine(unsealed(content));
      expect(recordJsonOfLine(body(legacy.line), legacy.record.crc)).toBeUndefined();
    }
  });
});
