/**
 * Runs a command against a real Secret Service (Debian's gnome-keyring on a private D-Bus bus, the
 * same one the tests use), so the Baton stores it creates are encrypted at rest (on by default
 * where a secret store answers). Used to run a benchmark with encryption on; the same command
 * without this wrapper, on a fresh data directory, is its unencrypted baseline.
 *
 *   npx tsx bench/with-secret-service.ts npx tsx bench/importers/candidates.ts --dir=/tmp/c15f/full-enc …
 */
import { spawn } from 'node:child_process';
import { startSecretService } from '../src/core/store/at-rest/test-support/secret-service.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: npx tsx bench/with-secret-service.ts COMMAND [ARG…]');
  process.exit(2);
}
const service = await startSecretService();
console.log(`Secret Service on ${service.address}: stores created by this run are encrypted at rest`);
const code = await new Promise<number>((done) => {
  // Only the bus address: the keyring daemon keeps its own HOME; the benchmark keeps the person's.
  const child = spawn(command, args, { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: service.address }, stdio: 'inherit' });
  child.once('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0)));
});
console.log(`keyring daemon started ${await service.daemonStarts()} time(s)`);
await service.stop();
process.exit(code);
