import { decodeLine, type RecordCodec } from '../record-codec.js';

const NEWLINE = 0x0a;

/**
 * Rewrites each complete line of a JSON-lines log with `map` (undefined keeps the line as it is);
 * a torn last line (no newline) is kept as it is, for the log's own recovery. Undefined when no
 * line changed.
 */
export function mapLines(raw: Buffer, map: (line: Buffer) => Buffer | undefined): Buffer | undefined {
  const out: Buffer[] = [];
  let changed = false;
  let pos = 0;
  while (pos < raw.length) {
    const nl = raw.indexOf(NEWLINE, pos);
    const end = nl === -1 ? raw.length : nl + 1;
    const line = raw.subarray(pos, nl === -1 ? raw.length : nl);
    const next = nl === -1 || line.length === 0 ? undefined : map(line);
    if (next) {
      out.push(next, Buffer.from('\n'));
      changed = true;
    } else out.push(raw.subarray(pos, end));
    pos = end;
  }
  return changed ? Buffer.concat(out) : undefined;
}

/** A session's messages.jsonl as plaintext lines (what leaves the machine in a relay bundle, sealed for the other device). */
export function plaintextLog(codec: RecordCodec, raw: Buffer): Buffer {
  return mapLines(raw, (line) => codec.openLine(line)) ?? raw;
}

/** Plaintext record lines sealed with this store's codec (a received bundle landing in an encrypted store). */
export function sealedLog(codec: RecordCodec, raw: Buffer): Buffer {
  return (
    mapLines(raw, (line) => {
      const seq = decodeLine(line)?.seq;
      if (seq === undefined) return undefined;
      const sealed = codec.sealLine(seq, Buffer.concat([line, Buffer.from('\n')]));
      return sealed.subarray(0, sealed.length - 1);
    }) ?? raw
  );
}
