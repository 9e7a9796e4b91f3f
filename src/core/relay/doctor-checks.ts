import { stat } from 'node:fs/promises';
import type { DoctorCheck } from '../doctor.js';
import { identityPath, readIdentity } from '../crypto/identity.js';
import { readRelayConfig } from './config.js';
import { checkRelayHealth } from './connection.js';

/** More than this between our clock and the relay's makes pairing expiry and presence unreliable. */
export const MAX_CLOCK_SKEW_MS = 30_000;

/** `baton doctor`'s relay checks: reachable, JetStream, buckets, clock skew; and where the device keys are. */
export async function relayDoctorChecks(dataDir: string): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const config = await readRelayConfig(dataDir).catch((e: Error) => e);
  if (config instanceof Error) {
    checks.push({ name: 'relay', ok: false, detail: config.message, fix: 'baton relay disconnect, then baton relay connect nats://HOST:PORT' });
  } else if (!config) {
    checks.push({ name: 'relay', ok: true, detail: 'not configured: sessions stay on this machine' });
  } else {
    const health = await checkRelayHealth(config);
    const skewOk = health.clockSkewMs === null || Math.abs(health.clockSkewMs) <= MAX_CLOCK_SKEW_MS;
    const ok = health.reachable && health.jetstream && health.missing.length === 0 && skewOk;
    checks.push({
      name: 'relay',
      ok,
      detail: `${health.url}: ${health.message}${health.clockSkewMs !== null ? ` clock skew ${health.clockSkewMs} ms.` : ''}`,
      ...(ok ? {} : { fix: !health.reachable ? 'Start the NATS server (nats-server -js) or fix the URL with baton relay connect.' : !skewOk ? 'Synchronise this machine\'s clock (NTP).' : 'Run baton relay connect again to create what is missing.' }),
    });
  }
  const identity = await readIdentity(dataDir).catch((e: Error) => e);
  if (identity instanceof Error) {
    checks.push({ name: 'device keys', ok: false, detail: identity.message, fix: 'Move the damaged file away; a new identity is made (pair again).' });
  } else if (identity?.keyStorage.kind === 'keychain') {
    checks.push({ name: 'device keys', ok: true, detail: `private keys of ${identity.name} (${identity.deviceId}) are in the ${identity.keyStorage.store} (${identity.keyStorage.account}); ${identityPath(dataDir)} holds only the public keys` });
  } else if (identity) {
    const path = identityPath(dataDir);
    const mode = (await stat(path)).mode & 0o777;
    const why = identity.keyStorage.kind === 'file' ? identity.keyStorage.reason : 'no secret store';
    checks.push({
      name: 'device keys',
      ok: mode === 0o600,
      detail: `private keys of ${identity.name} (${identity.deviceId}) are kept in ${path} with mode ${mode.toString(8)}, not in the OS keychain: ${why}`,
      ...(mode === 0o600 ? {} : { fix: `chmod 600 ${path}` }),
    });
  }
  return checks;
}
