import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_HOST_CAPABILITIES } from '../../host/capabilities.js';
import { startHostServices, type HostServices } from '../../host/host-services.js';
import { landAndReadBack } from '../../handoff/send.js';
import { openStore } from '../../store/index.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../transport/endpoint.js';
import { handoffToDevice } from '../handoff-to-device.js';
import { readHead } from '../heads.js';
import { connectTo, makeDevice, pairDevices } from './devices.js';
import { startNatsServer } from './nats-server.js';

export interface SoakResult {
  target: number;
  handedOff: number;
  kills: number;
  firstTryDelivered: number;
  retried: number;
  sessionsAtTarget: number;
  claimedOnce: number;
  headsAtRelay: number;
  elapsedMs: number;
}

/**
 * Handoffs from A to B while a killer SIGKILLs and restarts nats-server at random (1–3 s apart).
 * Stops at `count` or when `budgetMs` is spent, then retries every handoff that failed or was
 * queued, and counts what B holds: sessions, claims (epoch 2 = claimed exactly once) and relay heads.
 */
export async function runRelaySoak(options: { count: number; budgetMs: number; log?: (line: string) => void }): Promise<SoakResult> {
  const started = Date.now();
  const server = await startNatsServer();
  const setup = await connectTo(server);
  const [a, b] = [await makeDevice(server, 'soak-a'), await makeDevice(server, 'soak-b')];
  await pairDevices(setup, a, b);
  await setup.close();
  const cwd = await mkdtemp(join(tmpdir(), 'baton-soak-cwd-'));
  const storeA = await openStore(a.dataDir);
  const endpoint = resolveEndpoint(a.dataDir);
  await ensureEndpointDir(endpoint.dir);
  const token = await loadOrCreateToken(endpoint.tokenPath);
  let host: HostServices | undefined = await startHostServices({ dataDir: b.dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  await host.relay!.ready;

  let kills = 0;
  let killing = true;
  const killer = (async () => {
    while (killing) {
      await new Promise((r) => setTimeout(r, 1_000 + Math.random() * 2_000));
      if (!killing) break;
      await server.kill();
      kills++;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
      await server.restart();
    }
  })();

  const send = (sessionId: string, waitMs: number) =>
    timed(sessionId, handoffToDevice({ dataDir: a.dataDir, store: storeA, sessionId, to: 'soak-b', offer: { endpoint, token, timeoutMs: waitMs }, receiptWaitMs: waitMs }).catch(
      (error: Error) => ({ category: 'relay_failure', message: error.message }) as { category: string; message: string },
    ));
  // A send that takes long is logged with its session id (a hang shows up here, not as a silent stall).
  const timed = async <T>(sessionId: string, work: Promise<T>): Promise<T> => {
    const t = Date.now();
    const slow = setTimeout(() => options.log?.(`soak: send of ${sessionId} still running after 20 s`), 20_000);
    try {
      return await work;
    } finally {
      clearTimeout(slow);
      if (Date.now() - t > 20_000) options.log?.(`soak: send of ${sessionId} took ${Date.now() - t} ms`);
    }
  };
  const ids: string[] = [];
  const pending: string[] = [];
  let firstTry = 0;
  try {
    while (ids.length < options.count && Date.now() - started < options.budgetMs) {
      const landed = await landAndReadBack(storeA, { cwd, title: `soak ${ids.length}`, messages: [{ role: 'user', content: `q ${ids.length}` }, { role: 'assistant', content: 'a' }] });
      ids.push(landed.session.id);
      const outcome = await send(landed.session.id, 2_000);
      if (process.env.BATON_SOAK_DEBUG) options.log?.(`${ids.length} ${outcome.category} ${Date.now() - started}ms`);
      if (outcome.category === 'accepted' || outcome.category === 'duplicate') firstTry++;
      else pending.push(landed.session.id);
    }
  } finally {
    killing = false;
    await killer;
  }
  options.log?.(`soak: ${ids.length} handoffs, ${kills} server kills, ${pending.length} to retry`);
  let retried = 0;
  for (const id of pending) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await send(id, 10_000);
      retried++;
      if (process.env.BATON_SOAK_DEBUG) options.log?.(`retry ${id} ${outcome.category} ${outcome.message}`);
      if (outcome.category === 'accepted' || outcome.category === 'duplicate') break;
      if (attempt === 4) throw new Error(`soak: session ${id} was never delivered: ${outcome.message}`);
    }
  }
  const rows = await host.store.list();
  const wanted = new Set(ids);
  const atTarget = rows.filter((r) => wanted.has(r.id));
  let claimedOnce = 0;
  for (const row of atTarget) if ((await host.store.getSession(row.id)).holder.epoch === 2) claimedOnce++;
  const check = await connectTo(server);
  let heads = 0;
  for (const id of ids) if ((await readHead(check, id))?.head.holder === b.identity.deviceId) heads++;
  await check.close();
  await host.close();
  host = undefined;
  await storeA.close();
  await server.stop();
  for (const dir of [a.dataDir, b.dataDir, cwd]) await rm(dir, { recursive: true, force: true });
  return { target: options.count, handedOff: ids.length, kills, firstTryDelivered: firstTry, retried, sessionsAtTarget: atTarget.length, claimedOnce, headsAtRelay: heads, elapsedMs: Date.now() - started };
}
