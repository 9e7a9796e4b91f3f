import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/manifest.js';
import { FULL_OUTPUT_VIEW_MAX_BYTES } from '../../shared/ui-contract.js';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { landAndReadBack, offerSession } from '../handoff/send.js';
import { removeDir, tempDataDir } from '../tasks/test-support/endpoint.js';
import { connectEndpoint } from '../transport/client.js';

/** The real host (store, socket receiver, UI dispatcher): trimmed outputs and alerts end to end. */
let root: string;
let host: HostServices;
const uiEvents: { event: string; payload: unknown }[] = [];
const full = Array.from({ length: 4_000 }, (_, i) => (i === 2_000 ? 'TypeError: x is undefined' : `test ${i} ok`)).join('\n');

beforeEach(async () => {
  root = await tempDataDir('baton-host-context-');
  await mkdir(join(root, 'work'));
  host = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  uiEvents.length = 0;
  host.onUiEvent((event, payload) => uiEvents.push({ event, payload }));
});
afterEach(async () => {
  await host.close();
  await removeDir(root);
});

const land = () =>
  landAndReadBack(host.store, {
    cwd: join(root, 'work'),
    title: 'Flaky test',
    messages: [
      { role: 'user', content: 'Why does the suite fail?' },
      { role: 'assistant', content: 'Running it.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'npm test' }, output: full, exitCode: 1 }] },
    ],
  });
const options = (dryRun: boolean) => ({ store: host.store, endpoint: host.endpoint, token: host.token, timeoutMs: 5_000, launch: false, dryRun });

describe('host: context transfer through the real receiver and UI contract', () => {
  it('a handoff over the socket is accepted; artifact:text returns the full output by hash, refuses anything else', async () => {
    const landed = await land();
    const outcome = await offerSession(landed.session.id, options(false), landed);
    expect(outcome.category).toBe('accepted');
    const ref = (await host.store.readMessages(landed.session.id))[1]!.toolCalls![0]!.fullOutput!.ref;
    expect(await host.dispatch('artifact:text', { sessionId: landed.session.id, ref })).toEqual({ ok: true, value: { text: full, bytes: Buffer.byteLength(full), shownBytes: Buffer.byteLength(full) } });
    expect(await host.dispatch('artifact:text', { sessionId: landed.session.id, ref: '../session.json' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const path = join(host.store.sessionDir(landed.session.id), ref);
    await chmod(path, 0o600);
    await writeFile(path, 'changed');
    expect(await host.dispatch('artifact:text', { sessionId: landed.session.id, ref })).toMatchObject({ ok: false, error: { code: 'IO_ERROR', message: expect.stringContaining('does not match its hash') } });
  });

  it('a manifest whose summary hash is wrong is refused, logged in events.jsonl, and alerted to the UI', async () => {
    const landed = await land();
    const dry = await offerSession(landed.session.id, options(true), landed);
    const manifest = (dry.answer as { manifest: Manifest }).manifest;
    const client = await connectEndpoint({ endpoint: host.endpoint, token: host.token });
    try {
      const answer = await client.request('handoff.offer', { manifest: { ...manifest, context: { ...manifest.context, compacted_summary_sha256: 'c'.repeat(64) } } }, { timeoutMs: 5_000 });
      expect(answer).toMatchObject({ ok: false, code: 'VERIFY_MISMATCH' });
    } finally {
      client.close();
    }
    const alert = uiEvents.find((e) => e.event === 'handoff:alert')?.payload as { fields: string[]; handoffId: string };
    expect(alert.fields).toEqual(['context.compacted_summary_sha256']);
    const listed = await host.dispatch('alerts:list', {});
    expect(listed).toMatchObject({ ok: true, value: [{ handoffId: manifest.handoff_id, sessionId: landed.session.id, fields: ['context.compacted_summary_sha256'] }] });
    const logged = (await host.store.readEvents()).filter((e) => e.kind === 'verify_mismatch');
    expect(logged).toHaveLength(1);
  });

  it('artifact:text sends at most FULL_OUTPUT_VIEW_MAX_BYTES of a huge output and says how big it is', async () => {
    const huge = 'line of a very long log\n'.repeat(Math.ceil((FULL_OUTPUT_VIEW_MAX_BYTES + 1_000_000) / 24));
    const landed = await landAndReadBack(host.store, { cwd: join(root, 'work'), title: 'huge', messages: [{ role: 'tool', content: huge, toolCallId: 'x' }] });
    const ref = (await host.store.readMessages(landed.session.id))[0]!.fullOutput!.ref;
    const answer = (await host.dispatch('artifact:text', { sessionId: landed.session.id, ref })) as { ok: true; value: { text: string; bytes: number; shownBytes: number } };
    expect(answer.value.bytes).toBe(Buffer.byteLength(huge));
    expect(answer.value.shownBytes).toBe(FULL_OUTPUT_VIEW_MAX_BYTES);
    expect(answer.value.text).toBe(huge.slice(0, FULL_OUTPUT_VIEW_MAX_BYTES));
  });
});
