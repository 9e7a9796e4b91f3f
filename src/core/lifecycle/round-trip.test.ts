import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateIdentity, readIdentity } from '../crypto/identity.js';
import { readTarGz } from './bundle-tar.js';
import { packRaw, resign } from './test-support/refusal-corpus.js';
import { readPeers } from '../crypto/peers.js';
import { conversation } from '../handoff/test-support/handoff-fixture.js';
import { landAndReadBack } from '../handoff/send.js';
import { readSessionPatch, readSessionWorkspace, rehydrateIntoWorktree } from '../workspace/index.js';
import { cleanupTemp, makeRepo, tempDir } from '../workspace/test-support/repo.js';
import { exportSession } from './export-session.js';
import { importBundle } from './import-bundle.js';
import { snapshotTree, twoMachines, type TwoMachines } from './test-support/two-machines.js';

let m: TwoMachines;
beforeEach(async () => {
  m = await twoMachines();
});
afterEach(async () => {
  await m.dispose();
  cleanupTemp();
});

describe('export → import on a second data directory', () => {
  it('gives the same messages, artifacts and verification result, and rehydrates the dirty repository there', async () => {
    await m.pair();
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    const head = repo.commitAll('first');
    repo.write('a.txt', 'one\ntwo (uncommitted)\n');
    repo.write('new.txt', 'untracked\n');
    const session = (await landAndReadBack(m.a.store, { cwd: repo.root, title: 'dirty work', messages: conversation(30) })).session;

    const exported = await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'none' });
    const first = await importBundle(exported.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false });
    expect(first).toMatchObject({ ok: true, status: 'accepted', origin: 'verified', sessionId: session.id, signer: { name: 'laptop' } });

    const [before, after] = await Promise.all([m.a.store.readMessages(session.id), m.b.store.readMessages(session.id)]);
    expect(after).toEqual(before);
    const snapA = (await readSessionWorkspace(m.a.store, session.id))!;
    const snapB = (await readSessionWorkspace(m.b.store, session.id))!;
    expect(snapB).toEqual(snapA);
    const patch = (await readSessionPatch(m.b.store, session.id, snapB))!;
    expect(patch.equals((await readSessionPatch(m.a.store, session.id, snapA))!)).toBe(true);

    // "The other machine": a clone of the repository at HEAD, the patch from the imported session applied in a worktree.
    const clone = tempDir('baton-clone-');
    execFileSync('git', ['clone', '-q', repo.root, clone]);
    const target = `${tempDir('baton-wt-')}/wt`;
    await rehydrateIntoWorktree(clone, head, patch, target);
    expect(execFileSync('cat', [`${target}/a.txt`]).toString()).toBe('one\ntwo (uncommitted)\n');
    expect(execFileSync('cat', [`${target}/new.txt`]).toString()).toBe('untracked\n');

    const second = await importBundle(exported.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false });
    expect(second).toMatchObject({ ok: true, status: 'duplicate', sessionId: session.id });
    expect((await m.b.store.list()).map((r) => r.id)).toEqual([session.id]);
  });

  it('refuses an unpaired signer without --trust and imports it with --trust and a warning', async () => {
    const session = (await landAndReadBack(m.a.store, { cwd: m.root, title: 'foreign', messages: conversation(4) })).session;
    const exported = await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'none' });
    const before = await snapshotTree(m.b.dataDir);
    const refused = await importBundle(exported.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false });
    expect(refused).toMatchObject({ ok: false, code: 'UNVERIFIED_ORIGIN', entry: 'checksums.sig' });
    // Not even this device's keys were created by the refused import.
    expect(await snapshotTree(m.b.dataDir)).toEqual(before);
    expect(Object.keys(before).some((p) => p.startsWith('device/'))).toBe(false);
    const trusted = await importBundle(exported.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: true });
    expect(trusted).toMatchObject({ ok: true, status: 'accepted', origin: 'unverified' });
    expect((trusted as { warning: string }).warning).toMatch(/not a paired device/);
  });

  it('opens a passphrase bundle only with the passphrase, and a device-sealed bundle only on that device', async () => {
    await m.pair();
    const session = (await landAndReadBack(m.a.store, { cwd: m.root, title: 'sealed', messages: conversation(6) })).session;
    const pass = await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'passphrase', passphrase: 'correct horse' });
    expect(pass.bytes.includes(Buffer.from('message 3'))).toBe(false);
    expect(await importBundle(pass.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false })).toMatchObject({ ok: false, code: 'NEEDS_PASSPHRASE' });
    expect(await importBundle(pass.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false, passphrase: 'wrong' })).toMatchObject({ ok: false, code: 'WRONG_PASSPHRASE' });
    expect(await m.b.store.list()).toEqual([]);

    const desk = (await readPeers(m.a.dataDir)).find((p) => p.name === 'desk')!;
    const sealed = await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'device', peer: desk });
    // The exporting device cannot open what it sealed for the desk.
    await loadOrCreateIdentity(m.a.dataDir);
    const other = await twoMachines();
    try {
      expect(await importBundle(sealed.bytes, { store: other.a.store, dataDir: other.a.dataDir, trust: true })).toMatchObject({ ok: false });
      expect(await other.a.store.list()).toEqual([]);
    } finally {
      await other.dispose();
    }
    expect(await importBundle(sealed.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false })).toMatchObject({ ok: true, status: 'accepted', origin: 'verified' });
    expect(await importBundle(pass.bytes, { store: m.b.store, dataDir: m.b.dataDir, trust: false, passphrase: 'correct horse' })).toMatchObject({ ok: true, status: 'duplicate' });
  });

  it('refuses a flipped byte anywhere in a passphrase or device-sealed bundle, writing nothing', async () => {
    await m.pair();
    const session = (await landAndReadBack(m.a.store, { cwd: m.root, title: 'wrapped', messages: conversation(4) })).session;
    const desk = (await readPeers(m.a.dataDir)).find((p) => p.name === 'desk')!;
    const pass = (await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'passphrase', passphrase: 'correct horse' })).bytes;
    const sealed = (await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'device', peer: desk })).bytes;
    const before = await snapshotTree(m.b.dataDir);
    const wrong: string[] = [];
    for (const [label, bytes] of [['passphrase', pass], ['sealed', sealed]] as const) {
      for (let i = 0; i < 12; i++) {
        const at = Math.floor((i * (bytes.length - 1)) / 11);
        const changed = Buffer.from(bytes);
        changed[at] = changed[at]! ^ 0x01;
        const result = await importBundle(changed, { store: m.b.store, dataDir: m.b.dataDir, trust: true, passphrase: 'correct horse' });
        if (result.ok) wrong.push(`${label} byte ${at} imported`);
      }
      const cut = await importBundle(bytes.subarray(0, bytes.length - 7), { store: m.b.store, dataDir: m.b.dataDir, trust: true, passphrase: 'correct horse' });
      if (cut.ok) wrong.push(`${label} truncated imported`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotTree(m.b.dataDir)).toEqual(before);
  });

  it('a bundle whose manifest disagrees with its files (signed by the paired key) is refused by the receiver and taken away again', async () => {
    await m.pair();
    const session = (await landAndReadBack(m.a.store, { cwd: m.root, title: 'inconsistent', messages: conversation(6) })).session;
    const { bytes } = await exportSession(m.a.store, m.a.dataDir, session.id, { kind: 'none' });
    const read = await readTarGz(bytes);
    if (!read.ok) throw new Error(read.message);
    const entries = read.entries.map((e) => {
      if (e.name !== 'manifest.json') return e;
      const manifest = JSON.parse(e.data.toString('utf8')) as { context: { message_count: number } };
      manifest.context.message_count = 5;
      return { name: e.name, data: Buffer.from(JSON.stringify(manifest)) };
    });
    const forged = await packRaw(resign(entries, (await readIdentity(m.a.dataDir))!).map((e) => ({ header: { name: e.name }, data: e.data })));
    const result = await importBundle(forged, { store: m.b.store, dataDir: m.b.dataDir, trust: false });
    expect(result).toMatchObject({ ok: false, code: 'VERIFY_MISMATCH' });
    expect(await m.b.store.list({ includeArchived: true })).toEqual([]);
    expect(existsSync(m.b.store.sessionDir(session.id))).toBe(false);
  });
});
