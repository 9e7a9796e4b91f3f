/**
 * Encryption at rest (issue 17): the store's three figures with encryption on against the same
 * store unencrypted (the baseline), measured in the same run, modes interleaved run by run so a
 * busy machine weighs on both alike. The key lives in a real Secret Service (gnome-keyring on a
 * private D-Bus bus started here), so every open pays for reading it, as the CLI does.
 *   1. durable appends, 1 KB records, group commit (512 in flight): records/s
 *   2. open + recover a 1 GB log that ends in a torn tail (checkpoint): ms
 *   3. list() of 10,000 sessions from a fresh store instance (a CLI start): ms, and the real
 *      `baton list --no-agents --json` process (needs `npm run build`)
 * Data lives in bench/.data and is removed at the end.
 * Run: npx tsx bench/store/at-rest.ts [appends] [recovery] [list]   (all three when none is named)
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nodeDurableFs, type DurableFs } from '../../src/core/fs/durable-fs.js';
import { openStore, type OpenStoreOptions } from '../../src/core/store/index.js';
import { startSecretService } from '../../src/core/store/at-rest/test-support/secret-service.js';
import { median, percentile, printTable, timeIt } from './stats.js';

const APPEND_RECORDS = 40_000;
const APPEND_IN_FLIGHT = 512;
const APPEND_RUNS = 5;
const LOG_BYTES = 1 << 30;
const RECOVERY_RUNS = 15;
const SESSIONS = 10_000;
const CWDS = 500;
const MESSAGES_PER_SESSION = 20;
const LIST_RUNS = 20;
/** Alternated, each mode first in every other run: a change of load within the run falls on both. */
const CLI_RUNS = 16;
const TORN = '{"role":"assistant","content":"torn by a crash in the middle of a wri';

const execFileP = promisify(execFile);
const named = process.argv.slice(2);
const section = (name: string): boolean => named.length === 0 || named.includes(name);
const modes: Array<{ name: string; options: OpenStoreOptions }> = [
  { name: 'unencrypted (baseline)', options: { keyStore: null } },
  { name: 'encrypted (AES-256-GCM)', options: {} },
];

/** Setup only: fsync is a no-op (measurements use the real file system). */
const noSyncFs: DurableFs = {
  ...nodeDurableFs,
  async open(path, flags, mode) {
    const f = await nodeDurableFs.open(path, flags, mode);
    return { path: f.path, write: (d, p) => f.write(d, p), read: (l, p) => f.read(l, p), sync: async () => undefined, truncate: (l) => f.truncate(l), stat: () => f.stat(), close: () => f.close() };
  },
  fsyncDir: async () => undefined,
};

const service = await startSecretService();
await mkdir('bench/.data', { recursive: true });
const dir = await mkdtemp(join('bench/.data', 'at-rest-'));
const rootOf = (what: string, m: number): string => join(dir, `${what}-${m}`);
try {
  // 1. Durable appends.
  if (section('appends')) {
  const perSec: number[][] = [[], []];
  const content = 'x'.repeat(1024 - 150);
  const appendStores = await Promise.all(modes.map((m, i) => openStore(rootOf('appends', i), m.options)));
  for (let run = 0; run < APPEND_RUNS; run++) {
    for (const [i, store] of appendStores.entries()) {
      const s = await store.createSession({ cwd: '/bench', gitRoot: null, branch: null, title: 'bench', source: { tool: 'baton' }, holder: 'terminal' });
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: APPEND_IN_FLIGHT }, async () => {
          while (next < APPEND_RECORDS) {
            next += 1;
            await store.append(s.id, 1, [{ role: 'assistant', content }]);
          }
        }),
      );
      perSec[i]!.push(APPEND_RECORDS / ((performance.now() - t0) / 1000));
    }
  }
  for (const s of appendStores) await s.close();
  if (appendStores[1]!.atRest.state !== 'on') throw new Error('the encrypted store did not open encrypted: is the Secret Service up?');
  printTable(`Durable appends, 1 KB records, group commit (${APPEND_IN_FLIGHT} in flight), ${APPEND_RUNS} runs of ${APPEND_RECORDS} (records/s)`, ['mode', 'median rec/s', '5th-percentile rec/s', 'ratio to baseline'], modes.map((m, i) => [m.name, median(perSec[i]!), percentile(perSec[i]!, 5), median(perSec[i]!) / median(perSec[0]!)]));
  }

  // 2. Open + recover a 1 GB log.
  if (section('recovery')) {
  const logs: Array<{ root: string; id: string; log: string }> = [];
  for (const [i, m] of modes.entries()) {
    const writer = await openStore(rootOf('recovery', i), { ...m.options, fs: noSyncFs, metadataFlushMs: 5 });
    if (writer.atRest.state !== (i === 1 ? 'on' : 'off')) throw new Error(`${m.name}: the store opened ${writer.atRest.state}`);
    const s = await writer.createSession({ cwd: '/bench', gitRoot: null, branch: null, title: 'big', source: { tool: 'baton' }, holder: 'terminal' });
    const log = join(writer.sessionDir(s.id), 'messages.jsonl');
    const body = 'y'.repeat(880);
    while ((await stat(log)).size < LOG_BYTES) await writer.append(s.id, 1, Array.from({ length: 1000 }, () => ({ role: 'assistant' as const, content: body })));
    await writer.close();
    logs.push({ root: rootOf('recovery', i), id: s.id, log });
  }
  // The fill skipped fsync: flush the page cache now, or the first mode measured would pay for
  // writing back the other's gigabyte in its recovery fsync.
  for (const l of logs) {
    const f = await nodeDurableFs.open(l.log, 'r+');
    await f.sync();
    await f.close();
  }
  await execFileP('sync');
  const recovery: number[][] = [[], []];
  for (let run = 0; run < RECOVERY_RUNS; run++) {
    for (const [i, m] of modes.entries()) {
      const { root, id, log } = logs[i]!;
      await appendFile(log, TORN);
      recovery[i]!.push(
        await timeIt(async () => {
          const store = await openStore(root, m.options);
          const report = await store.recover(id);
          if (!report.truncatedTail) throw new Error('torn tail not found');
          await store.close();
        }),
      );
    }
  }
  const sizes = await Promise.all(logs.map(async (l) => (await stat(l.log)).size / (1 << 20)));
  printTable(`Open store + recover a log with a torn tail, from its checkpoint (ms, ${RECOVERY_RUNS} runs)`, ['mode', 'log on disk', 'median ms', 'p95 ms', 'ratio to baseline'], modes.map((m, i) => [m.name, `${sizes[i]!.toFixed(0)} MiB`, median(recovery[i]!), percentile(recovery[i]!, 95), median(recovery[i]!) / median(recovery[0]!)]));
  for (const l of logs) await rm(l.root, { recursive: true, force: true });
  }

  // 3. list() of 10,000 sessions, and the real `baton list` process.
  if (section('list')) {
  const body = 'z'.repeat(500);
  for (const [i, m] of modes.entries()) {
    const setup = await openStore(rootOf('list', i), { ...m.options, fs: noSyncFs });
    if (setup.atRest.state !== (i === 1 ? 'on' : 'off')) throw new Error(`${m.name}: the store opened ${setup.atRest.state}`);
    for (let n = 0; n < SESSIONS; n++) {
      await setup.createSession(
        { cwd: `/home/u/project-${n % CWDS}`, gitRoot: `/home/u/project-${n % CWDS}`, branch: 'main', title: `session ${n}`, source: { tool: n % 2 ? 'claude' : 'codex' }, holder: 'terminal' },
        Array.from({ length: MESSAGES_PER_SESSION }, (_, j) => ({ role: j % 2 ? ('assistant' as const) : ('user' as const), content: body })),
      );
    }
    await setup.close();
  }
  const cold: number[][] = [[], []];
  // CPU (user+system) of this process during each call: on a shared machine wall time also counts waiting for a core.
  const coldCpu: number[][] = [[], []];
  for (let run = 0; run < LIST_RUNS; run++) {
    for (const [i, m] of modes.entries()) {
      const cpuAt = process.cpuUsage();
      cold[i]!.push(
        await timeIt(async () => {
          const store = await openStore(rootOf('list', i), m.options);
          const rows = await store.list();
          if (rows.length !== SESSIONS) throw new Error(`listed ${rows.length}`);
          await store.close();
        }),
      );
      const cpu = process.cpuUsage(cpuAt);
      coldCpu[i]!.push((cpu.user + cpu.system) / 1000);
    }
  }
  /** A `baton` process over store `i`: wall ms, and its CPU ms from /usr/bin/time (user + system, on stderr). */
  const batonProcess = async (i: number, args: string[]): Promise<{ wall: number; cpu: number }> => {
    // The unencrypted store has no encryption.json and sessions already: it stays unencrypted with the bus up too.
    const env = { ...process.env, BATON_HOME: rootOf('list', i), XDG_RUNTIME_DIR: '' };
    let stderr = '';
    const wall = await timeIt(async () => ({ stderr } = await execFileP('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, 'bin/baton.js', ...args], { env, maxBuffer: 64 << 20 })));
    const m = /CPU ([\d.]+) ([\d.]+)/.exec(stderr);
    if (!m) throw new Error(`no CPU time from /usr/bin/time: ${stderr.slice(-200)}`);
    return { wall, cpu: (Number(m[1]) + Number(m[2])) * 1000 };
  };
  const cli: number[][] = [[], []];
  const cliCpu: number[][] = [[], []];
  // Issue 18's Tab-time path: the completion script asks for every saved session id.
  const tab: number[][] = [[], []];
  const tabCpu: number[][] = [[], []];
  for (let run = 0; run < CLI_RUNS; run++) {
    const order = run % 2 === 0 ? [...modes.keys()] : [...modes.keys()].reverse();
    // Each command in both modes back to back: a pair's two processes run next to each other.
    for (const i of order) {
      const listed = await batonProcess(i, ['list', '--no-agents', '--no-host', '--json']);
      cli[i]!.push(listed.wall);
      cliCpu[i]!.push(listed.cpu);
    }
    for (const i of order) {
      const ids = await batonProcess(i, ['completion', '--session-ids']);
      tab[i]!.push(ids.wall);
      tabCpu[i]!.push(ids.cpu);
    }
  }
  printTable(`list() of ${SESSIONS} sessions, fresh store each call (opens the store, reads the key, reads the index; ms, ${LIST_RUNS} runs)`, ['mode', 'median ms', 'p95 ms', 'median CPU ms', 'ratio to baseline'], modes.map((m, i) => [m.name, median(cold[i]!), percentile(cold[i]!, 95), median(coldCpu[i]!), median(cold[i]!) / median(cold[0]!)]));
  printTable(`\`baton list --no-agents --no-host --json\` process over ${SESSIONS} sessions (ms, ${CLI_RUNS} runs)`, ['mode', 'median ms', 'p95 ms', 'median CPU ms', 'ratio to baseline'], modes.map((m, i) => [m.name, median(cli[i]!), percentile(cli[i]!, 95), median(cliCpu[i]!), median(cli[i]!) / median(cli[0]!)]));
  // Paired: each run's encrypted process over the unencrypted one run right before or after it (holds up better than a ratio of medians on a noisy machine).
  const pairedRatio = (xs: number[][]) => median(xs[1]!.map((v, k) => v / xs[0]![k]!));
  console.log(`\`baton list\` process, paired by run: encrypted / unencrypted median ${pairedRatio(cli).toFixed(2)} (wall), ${pairedRatio(cliCpu).toFixed(2)} (CPU)`);
  printTable(`\`baton completion --session-ids\` process (Tab time) over ${SESSIONS} sessions (ms, ${CLI_RUNS} runs)`, ['mode', 'median ms', 'p95 ms', 'median CPU ms', 'ratio to baseline'], modes.map((m, i) => [m.name, median(tab[i]!), percentile(tab[i]!, 95), median(tabCpu[i]!), median(tab[i]!) / median(tab[0]!)]));
  console.log(`\`baton completion --session-ids\` process, paired by run: encrypted / unencrypted median ${pairedRatio(tab).toFixed(2)} (wall), ${pairedRatio(tabCpu).toFixed(2)} (CPU)`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await service.stop();
}
