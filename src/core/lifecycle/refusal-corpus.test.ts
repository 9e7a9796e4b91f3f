import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIdentity } from '../crypto/identity.js';
import { conversation } from '../handoff/test-support/handoff-fixture.js';
import { landAndReadBack } from '../handoff/send.js';
import { exportSession } from './export-session.js';
import { importBundle } from './import-bundle.js';
import { readTarGz } from './bundle-tar.js';
import { refusalCorpus, type RefusalCase } from './test-support/refusal-corpus.js';
import { snapshotTree, twoMachines, type TwoMachines } from './test-support/two-machines.js';

let m: TwoMachines;
let cases: RefusalCase[];
let good: Buffer;

beforeAll(async () => {
  m = await twoMachines();
  await m.pair();
  const session = (await landAndReadBack(m.a.store, { cwd: m.root, title: 'corpus', messages: conversation(12) }, )).session;
  await m.a.store.putArtifact(session.id, Buffer.from('a tool output kept as an artifact\n'), 'txt');
  good = (await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'none' })).bytes;
  const read = await readTarGz(good);
  if (!read.ok) throw new Error(read.message);
  cases = await refusalCorpus({ bytes: good, entries: read.entries }, (await readIdentity(m.a.dataDir))!);
}, 120_000);
afterAll(async () => {
  await m.dispose();
});

describe('import refuses every hostile bundle and writes nothing', () => {
  it('has hundreds of generated cases, covering every entry kind', () => {
    expect(cases.length).toBeGreaterThan(300);
    for (const kind of ['bundle.json', 'manifest.json', 'session/session.json', 'session/messages.jsonl', 'session/artifacts/', 'checksums.sha256', 'checksums.sig']) {
      expect(cases.some((c) => c.name.startsWith('flipped byte') && c.name.includes(kind))).toBe(true);
    }
  });

  it('refuses each case with the expected code and the exact entry, leaving the data directory byte-identical', async () => {
    const before = await snapshotTree(m.b.dataDir);
    const wrong: string[] = [];
    for (const c of cases) {
      const result = await importBundle(c.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false });
      if (result.ok) wrong.push(`${c.name}: imported`);
      else if (!c.codes.includes(result.code)) wrong.push(`${c.name}: ${result.code} (${result.message})`);
      else if (c.entry && result.entry !== c.entry) wrong.push(`${c.name}: named ${result.entry}, not ${c.entry}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotTree(m.b.dataDir)).toEqual(before);
    expect(await m.b.store.list({ includeArchived: true })).toEqual([]);
  }, 300_000);

  it('still imports the untouched bundle (the corpus fails for its change, not for its base)', async () => {
    expect(await importBundle(good, { store: m.b.store, dataDir: m.b.dataDir, trust: false })).toMatchObject({ ok: true, status: 'accepted' });
  });
});
