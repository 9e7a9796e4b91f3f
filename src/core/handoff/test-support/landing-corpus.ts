/**
 * A generated corpus of `baton handoff --messages` inputs for the streaming landing's equivalence
 * test (issue 20): duplicate ids (same and different content), secrets (whole, split across
 * fields, under secret-named keys and repeated elsewhere), outputs over the trim limits, huge
 * single lines, CRLF, a BOM, blank and garbage lines. Seeded, so every run writes the same files.
 */

import { seededRandom } from '../../test-support/seeded-random.js';

const WORDS = ['the', 'build', 'fails', 'on', 'CI', 'because', 'parser', 'we', 'should', 'keep', 'ids', 'café', 'naïve', '日本語', '🚀', 'résumé', 'src/core/store.ts', '42', '(x)', '=>'];
const SENTENCES = [
  'We decided to keep the old parser.',
  'You must never touch the lock file.',
  'Should we split the test?',
  "Let's use the streaming path instead of the array.",
  'Do not change the public API.',
  'What does the crash suite say?',
];
const SECRETS = [
  'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'token ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5',
  'password=Sup3rS3cretPassw0rd!',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi\n-----END RSA PRIVATE KEY-----',
];

export interface CorpusCase {
  name: string;
  /** The messages file as bytes (it may be invalid on purpose). */
  text: string;
}

export function landingCorpus(count: number, seed = 20): CorpusCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const prose = () => [words(3 + Math.floor(random() * 12)), chance(0.5) ? pick(SENTENCES) : '', chance(0.15) ? pick(SECRETS) : ''].filter(Boolean).join(' ');
  const bigOutput = () => {
    const lines = 100 + Math.floor(random() * 400);
    return Array.from({ length: lines }, (_, i) => (i % 37 === 5 ? `error: step ${i} failed` : `${i} ${words(4)}${i % 53 === 0 ? ` ${'y'.repeat(700)}` : ''}`)).join('\n');
  };
  const cases: CorpusCase[] = [];
  for (let c = 0; c < count; c++) {
    const messages: Record<string, unknown>[] = [];
    const n = Math.floor(random() * 24);
    const keyed = `kv-${c}-${Math.floor(random() * 1e9).toString(36)}`;
    for (let i = 0; i < n; i++) {
      const role = pick(['user', 'assistant', 'assistant', 'tool', 'system'] as const);
      const message: Record<string, unknown> = { role, content: prose() };
      if (chance(0.6)) message.id = `m${c}-${i}`;
      if (role === 'assistant' && chance(0.3)) message.model = pick(['claude-sonnet-4', 'gpt-5', 'o3']);
      if (chance(0.1)) message.createdAt = `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00.000Z`;
      if (role === 'assistant' && chance(0.4)) {
        message.toolCalls = [
          {
            id: `t${c}-${i}`,
            name: pick(['Bash', 'Edit', 'Read']),
            input: chance(0.3) ? { command: 'deploy', apiKey: keyed } : { command: words(3), nested: { deep: [1, 2, { k: words(2) }] } },
            ...(chance(0.5) ? { exitCode: pick([0, 0, 1, 2, null]) } : {}),
            ...(chance(0.5) ? { output: chance(0.3) ? bigOutput() : prose() } : {}),
          },
        ];
      }
      if (role === 'tool') {
        if (chance(0.4)) message.content = bigOutput();
        if (chance(0.3)) message.exitCode = pick([0, 1, null]);
        message.toolCallId = `t${c}-${i - 1}`;
      }
      // The keyed secret's value, said as plain text elsewhere (before or after the key), goes too.
      if (chance(0.08)) message.content = keyed;
      // A secret split across two fields is two harmless halves.
      if (chance(0.05)) {
        message.content = 'ghp_aB3dE5fG7hI9jK1l';
        message.note = 'M3nO5pQ7rS9tU1vW3xY5';
      }
      if (chance(0.03)) message.content = `${words(5)} ${'z'.repeat(200_000 + Math.floor(random() * 200_000))}`;
      if (chance(0.05)) message.extra = { unknownField: words(2), list: [words(1), { password: 'hunter2hunter2' }] };
      messages.push(message);
      // The same message again (a transcript written twice): folded, with a note.
      if (message.id && chance(0.08)) messages.push(structuredClone(message));
    }
    if (n > 3 && chance(0.04)) messages.push({ ...messages[0]!, id: 'dup', content: 'one' }, { role: 'user', id: 'dup', content: 'two' });
    let lines = messages.map((m) => JSON.stringify(m));
    if (chance(0.1)) lines.splice(Math.floor(random() * (lines.length + 1)), 0, '');
    if (chance(0.04)) lines.splice(Math.floor(random() * (lines.length + 1)), 0, pick(['{not json', '{"role":"robot","content":"x"}', '[1,2]', '{"role":"user"}']));
    const eol = chance(0.2) ? '\r\n' : '\n';
    let text = lines.join(eol) + (chance(0.7) ? eol : '');
    if (chance(0.03)) text = `\ufeff${text}`;
    cases.push({ name: `case-${String(c).padStart(3, '0')}`, text });
  }
  return cases;
}
