import { DEFAULT_LEASE_TTL_MS, heartbeatIntervalMs } from '../../shared/tasks.js';
import { readPeers } from '../crypto/peers.js';
import type { Answer } from '../transport/types.js';
import { openDeviceRelay } from './open-relay.js';
import { relayTasks, RelayTaskError } from './relay-tasks.js';

/** The `baton task` methods answered from the relay's task bucket (`baton task … --relay`), in the host's answer shapes. */
export async function callRelayTask(dataDir: string, method: string, params: Record<string, unknown>): Promise<Answer> {
  let opened;
  try {
    opened = await openDeviceRelay(dataDir);
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? 'RELAY_UNREACHABLE', message: (error as Error).message };
  }
  const { relay, identity } = opened;
  const tasks = relayTasks(relay, identity, () => readPeers(dataDir));
  const id = String(params.id);
  try {
    switch (method) {
      case 'task.register': {
        const ttl = typeof params.leaseTtlMs === 'number' ? params.leaseTtlMs : DEFAULT_LEASE_TTL_MS;
        const r = await tasks.register({ id, command: String(params.command), kind: String(params.kind ?? 'process'), leaseTtlMs: ttl });
        return { ok: true, taskId: r.taskId, epoch: r.epoch, heartbeatEveryMs: heartbeatIntervalMs(ttl), duplicate: r.duplicate, relay: true };
      }
      case 'task.heartbeat':
        return { ok: true, ...(await tasks.heartbeat(id, Number(params.epoch))) };
      case 'task.complete': {
        const status = params.status === 'failed' ? 'failed' : 'completed';
        const r = await tasks.complete(id, Number(params.epoch), { status, exitCode: (params.exitCode as number | null) ?? null, result: params.result, reason: (params.reason as string | null) ?? null });
        return { ok: true, ...r };
      }
      case 'task.result': {
        const r = await tasks.result(id);
        return { ok: true, state: r.state, outcome: r.outcome, receipt: r.receipt, firstDelivery: r.firstDelivery, deliveredTo: identity.deviceId };
      }
      default:
        return { ok: false, code: 'UNKNOWN_METHOD', message: `${method} is not available across devices` };
    }
  } catch (error) {
    if (error instanceof RelayTaskError) return { ok: false, code: error.code, message: error.message, stop: error.stop };
    return { ok: false, code: 'RELAY_FAILURE', message: (error as Error).message };
  } finally {
    await relay.close();
  }
}
