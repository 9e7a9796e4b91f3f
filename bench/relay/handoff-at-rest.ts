/**
 * Issue 13's handoff targets with encryption at rest on (issue 17): bench/relay/handoff.ts run
 * twice in one invocation, once with both devices' stores unencrypted (the baseline: D-Bus pointed
 * at nothing) and once encrypted (the test Secret Service, gnome-keyring on a private bus), each in
 * a process of its own (the keyring binding keeps its D-Bus connection for the life of a process).
 * Prints both tables, then p50 and CPU per run side by side with the ratio encrypted / unencrypted.
 *
 * Run: npx tsx bench/relay/handoff-at-rest.ts [runs]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { printTable } from '../stats.js';

const execFileP = promisify(execFile);
const runs = process.argv[2] ?? '30';
type Row = Record<string, string | number>;

async function run(mode: 'off' | 'on'): Promise<Row[]> {
  const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', 'bench/relay/handoff.ts', runs], { env: { ...process.env, BATON_BENCH_AT_REST: mode, BATON_BENCH_JSON: '1' }, maxBuffer: 16 << 20 });
  console.log(`\nencryption at rest ${mode}:`);
  console.log(stdout.split('\n').filter((l) => !l.startsWith('JSON ')).join('\n'));
  const line = stdout.split('\n').find((l) => l.startsWith('JSON '));
  if (!line) throw new Error(`no JSON rows from the ${mode} run`);
  return JSON.parse(line.slice(5)) as Row[];
}

const off = await run('off');
const on = await run('on');
console.log('\nside by side:');
printTable(
  off.map((r, i) => {
    const e = on[i]!;
    return {
      case: r.case!,
      path: r.path!,
      'p50 ms off': r['p50 ms']!,
      'p50 ms on': e['p50 ms']!,
      'p50 on/off': Number(e['p50 ms']) / Number(r['p50 ms']),
      'CPU ms/run off': r['CPU ms/run']!,
      'CPU ms/run on': e['CPU ms/run']!,
    };
  }),
);
