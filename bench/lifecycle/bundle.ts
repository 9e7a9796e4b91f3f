// Portable bundles (issue 21) for a 100,000-message session: bundle size, `baton export` and
// `baton import` times (clear, passphrase, sealed to a paired device), against `tar czf` of the
// same session directory and a plain copy of it (the baselines, measured in the same run).
//   npx tsx bench/lifecycle/bundle.ts [runs] [messages]
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedLargeSession } from '../../e2e/support/large-session.js';
import { loadOrCreateIdentity, publicPart } from '../../src/core/crypto/identity.js';
import { addPeer, readPeers } from '../../src/core/crypto/peers.js';
import { exportSession, type ExportEncryptionChoice } from '../../src/core/lifecycle/export-session.js';
import { importBundle } from '../../src/core/lifecycle/import-bundle.js';
import { pathBytes } from '../../src/core/lifecycle/disk-usage.js';
import { openStore } from '../../src/core/store/index.js';
import { printTable, summarize } from '../stats.js';

const RUNS = Number(process.argv[2] ?? 3);
const MESSAGES = Number(process.argv[3] ?? 100_000);

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const root = await mkdtemp(join(tmpdir(), 'baton-bench-bundle-'));
try {
  const source = join(root, 'source');
  const seedStart = performance.now();
  const sessionId = await seedLargeSession(source, MESSAGES);
  console.log(`seeded ${MESSAGES} messages in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const sessionDir = join(source, 'sessions', sessionId);
  const sessionBytes = await pathBytes(sessionDir);

  // The receiving machine is paired with the source, so its imports are "verified".
  const targetTemplate = join(root, 'target-template');
  const sourceId = await loadOrCreateIdentity(source, 'source');
  const targetId = await loadOrCreateIdentity(targetTemplate, 'target');
  await addPeer(targetTemplate, publicPart(sourceId));
  await addPeer(source, publicPart(targetId));
  const peer = (await readPeers(source))[0]!;

  const store = await openStore(source);
  const rows: Record<string, string | number>[] = [];
  const choices: Array<[string, ExportEncryptionChoice, string | undefined]> = [
    ['clear (signed)', { kind: 'none' }, undefined],
    ['passphrase', { kind: 'passphrase', passphrase: 'correct horse battery' }, 'correct horse battery'],
    ['to paired device', { kind: 'device', peer }, undefined],
  ];
  for (const [label, choice, passphrase] of choices) {
    const exportMs: number[] = [];
    const importMs: number[] = [];
    const duplicateMs: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const exported = await timed(() => exportSession(store, source, sessionId, choice));
      exportMs.push(exported.ms);
      bytes = exported.value.bytes.length;
      const target = join(root, `target-${label.replace(/\W+/g, '-')}-${run}`);
      await cp(targetTemplate, target, { recursive: true });
      const targetStore = await openStore(target);
      const imported = await timed(() => importBundle(exported.value.bytes, { store: targetStore, dataDir: target, trust: false, ...(passphrase ? { passphrase } : {}) }));
      if (!imported.value.ok || imported.value.status !== 'accepted' || imported.value.origin !== 'verified') throw new Error(`import failed: ${JSON.stringify(imported.value).slice(0, 300)}`);
      importMs.push(imported.ms);
      const again = await timed(() => importBundle(exported.value.bytes, { store: targetStore, dataDir: target, trust: false, ...(passphrase ? { passphrase } : {}) }));
      if (!again.value.ok || again.value.status !== 'duplicate') throw new Error('second import was not a duplicate');
      duplicateMs.push(again.ms);
      if ((await targetStore.readMessages(sessionId, { tail: 1 }))[0]?.seq !== MESSAGES - 1) throw new Error('imported session lost messages');
      await targetStore.close();
      await rm(target, { recursive: true, force: true });
    }
    rows.push({
      what: `bundle, ${label}`,
      'bytes MB': bytes / 1024 / 1024,
      'ratio to session dir': bytes / sessionBytes,
      'export p50 ms': summarize(exportMs).p50,
      'import p50 ms': summarize(importMs).p50,
      'import again (duplicate) p50 ms': summarize(duplicateMs).p50,
    });
  }
  await store.close();

  // Baselines: the same directory with system tar + gzip, and a plain recursive copy.
  const tarMs: number[] = [];
  const untarMs: number[] = [];
  const copyMs: number[] = [];
  const archive = join(root, 'baseline.tar.gz');
  for (let run = 0; run < RUNS; run++) {
    tarMs.push((await timed(async () => execFileSync('tar', ['czf', archive, '-C', join(source, 'sessions'), sessionId]))).ms);
    const out = join(root, `untar-${run}`);
    execFileSync('mkdir', ['-p', out]);
    untarMs.push((await timed(async () => execFileSync('tar', ['xzf', archive, '-C', out]))).ms);
    copyMs.push((await timed(() => cp(sessionDir, join(root, `copy-${run}`), { recursive: true }))).ms);
  }
  const tarBytes = (await stat(archive)).size;
  rows.push({ what: 'baseline: tar czf / tar xzf', 'bytes MB': tarBytes / 1024 / 1024, 'ratio to session dir': tarBytes / sessionBytes, 'export p50 ms': summarize(tarMs).p50, 'import p50 ms': summarize(untarMs).p50, 'import again (duplicate) p50 ms': '–' });
  rows.push({ what: 'baseline: cp -r of the session', 'bytes MB': sessionBytes / 1024 / 1024, 'ratio to session dir': 1, 'export p50 ms': '–', 'import p50 ms': summarize(copyMs).p50, 'import again (duplicate) p50 ms': '–' });
  console.log(`session directory: ${(sessionBytes / 1024 / 1024).toFixed(1)} MB, ${MESSAGES} messages, ${RUNS} runs each`);
  printTable(rows);
} finally {
  await rm(root, { recursive: true, force: true });
}
