import { describe, expect, it } from 'vitest';
import { REDACT_BATCH_CHARS, redactStrings } from './redact-value.js';
import { BENIGN_CORPUS, SECRET_CORPUS } from './test-support/secret-corpus.js';

/** No run of this many characters of a secret may survive: a partial leak is a leak. */
const LEAK_WINDOW = 12;

function leaks(redacted: string, secret: string): boolean {
  if (secret.length <= LEAK_WINDOW) return redacted.includes(secret);
  for (let i = 0; i + LEAK_WINDOW <= secret.length; i++) if (redacted.includes(secret.slice(i, i + LEAK_WINDOW))) return true;
  return false;
}

describe('secret corpus', () => {
  it(`has at least 40 secret shapes and a benign corpus`, () => {
    expect(SECRET_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(BENIGN_CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(SECRET_CORPUS.map((c) => c.name)).size).toBe(SECRET_CORPUS.length);
  });

  it('catches every secret shape, each one alone, and leaves no 12-character piece of it', async () => {
    const missed: string[] = [];
    for (const c of SECRET_CORPUS) {
      const { texts } = await redactStrings([c.text]);
      if (leaks(texts[0]!, c.secret) || !texts[0]!.includes('[REDACTED:')) missed.push(`${c.name}: ${texts[0]}`);
    }
    console.log(`secret corpus: caught ${SECRET_CORPUS.length - missed.length}/${SECRET_CORPUS.length}`);
    expect(missed).toEqual([]);
  });

  it('redacts nothing in the benign corpus (hashes, UUIDs, base64 images, git SHAs, code)', async () => {
    const { texts } = await redactStrings(BENIGN_CORPUS.map((c) => c.text));
    const falsePositives = BENIGN_CORPUS.filter((c, i) => texts[i] !== c.text).map((c, i) => `${c.name}: ${texts[i]}`);
    console.log(`benign corpus: false positives ${falsePositives.length}/${BENIGN_CORPUS.length}`);
    expect(falsePositives).toEqual([]);
  });

  it('gives the same answers when all strings share one detector pass (no bleed across strings)', async () => {
    const mixed = SECRET_CORPUS.flatMap((c, i) => [c.text, BENIGN_CORPUS[i % BENIGN_CORPUS.length]!.text]);
    const { texts } = await redactStrings(mixed);
    mixed.forEach((text, i) => {
      if (i % 2 === 0) expect(leaks(texts[i]!, SECRET_CORPUS[i / 2]!.secret)).toBe(false);
      else expect(texts[i]).toBe(text);
    });
  });

  it('gives the same texts and counts whatever the batch size (issue 20: a big session is scanned in batches, not one string)', async () => {
    // Secrets and benign text interleaved, with secrets cut across neighbouring strings and long strings past a batch.
    const pieces = SECRET_CORPUS.flatMap((c, i) => {
      const half = Math.floor(c.text.length / 2);
      return [c.text, BENIGN_CORPUS[i % BENIGN_CORPUS.length]!.text, c.text.slice(0, half), c.text.slice(half), `${'filler line\n'.repeat(i * 40)}${c.text}`];
    });
    const corpus = [...pieces, ...pieces.reverse()];
    expect(corpus.length).toBeGreaterThan(400);
    const whole = await redactStrings(corpus, Infinity);
    expect(Object.keys(whole.found).length).toBeGreaterThan(10);
    for (const batchChars of [1, 64, 1000, 8 * 1024, 100_000, REDACT_BATCH_CHARS]) {
      expect(await redactStrings(corpus, batchChars), `batch of ${batchChars} chars`).toEqual(whole);
    }
  });
});
