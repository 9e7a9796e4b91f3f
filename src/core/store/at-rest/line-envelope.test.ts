import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope, envelopeToOpen, parseEnvelope } from './line-envelope.js';

/** envelopeToOpen reads the layout encodeEnvelope writes by position; anything else goes to the checked parse. */
describe('envelopeToOpen', () => {
  it('reads what encodeEnvelope wrote exactly as parseEnvelope does, over 1,000 random envelopes', () => {
    for (let i = 0; i < 1_000; i++) {
      const seq = i < 20 ? i : Math.floor(Math.random() * 2 ** 40);
      const keyId = randomBytes(8).toString('hex');
      const sealed = randomBytes(28 + Math.floor(Math.random() * 2_000));
      const line = Buffer.from(encodeEnvelope(seq, keyId, sealed));
      expect(envelopeToOpen(line)).toEqual(parseEnvelope(line));
      expect(envelopeToOpen(line)).toEqual({ seq, keyId, sealed });
    }
  });

  it('falls back to the checked parse for any other layout, and refuses what that refuses', () => {
    const good = encodeEnvelope(7, '0123456789abcdef', randomBytes(40));
    const variants = [
      good.replace('{"s":7,', '{"s": 7,'), // whitespace: JSON, not the written layout
      good.replace('{"s":7,', '{"s":07,'), // a leading zero is not JSON
      good.replace('"crc"', '"crc" '),
      good.slice(0, -1), // torn
      good.slice(0, 20),
      `${good} `,
      good.replace('"k":"0123456789abcdef"', '"k":"0123"'),
      good.replace('{"s":7,', '{"s":-7,'),
      good.replace('{"s":7,', '{"s":,'),
      '{"s":1}',
      '{"s":',
      '',
    ];
    for (const text of variants) {
      const line = Buffer.from(text);
      expect(envelopeToOpen(line), text.slice(0, 60)).toEqual(parseEnvelope(line));
    }
  });

  it('a changed CRC, key id, seq or ciphertext character is refused, as parseEnvelope refuses it', () => {
    const line = encodeEnvelope(3, 'fedcba9876543210', randomBytes(64));
    let refused = 0;
    for (let at = 0; at < line.length; at++) {
      const flipped = Buffer.from(line);
      flipped[at]! ^= 0x01;
      expect(envelopeToOpen(flipped), `byte ${at}`).toEqual(parseEnvelope(flipped));
      if (envelopeToOpen(flipped) === undefined) refused++;
    }
    // Every byte matters (the CRC covers seq, key id and ciphertext; the rest is layout).
    expect(refused).toBe(line.length);
  });
});
