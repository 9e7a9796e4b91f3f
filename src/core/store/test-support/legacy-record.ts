import { checksumOf, type StoredRecord } from '../record-codec.js';

/**
 * A messages.jsonl line in the format written before issue 20 (`crc` over the record's canonical
 * JSON): logs on disk still hold such lines, and the reader must keep accepting them.
 */
export function legacyRecordLine(unsealed: Omit<StoredRecord, 'crc'>): { record: StoredRecord; line: Buffer } {
  const record = { ...unsealed, crc: checksumOf(unsealed) } as StoredRecord;
  return { record, line: Buffer.from(`${JSON.stringify(record)}\n`, 'utf8') };
}
