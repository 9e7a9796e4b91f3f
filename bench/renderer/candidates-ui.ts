/**
 * Issue 15, the UI rows of the table: a real `baton serve` on the candidates corpus
 * (bench/importers/candidates-corpus.ts) and real Chromium through Playwright. Measured from
 * navigation until the list's total reads every candidate and the first row is painted:
 *   - new host, warm cache, two definitions (fifteenth sitting), both from the spawn:
 *       "tab alongside": the browser tab is opened (`browser.newPage()`) while the host starts, as a
 *         person's running browser opens a tab while or after `baton serve` starts; the page is
 *         navigated once both the address and the tab are there. This is the host + the page.
 *       "tab after" (the figure of the tenth to fourteenth sittings): the address awaited, then
 *         the tab opened, then the navigation; it adds Chromium's tab creation (300–700 ms under
 *         load) to the host + page.
 *     The tab's creation (`browser.newPage()` alone) is reported on its own row.
 *   - page reload, host warm: the same page reloaded (after the "tab alongside" run)
 *   - fresh data directory (--fresh-runs, default 1): a host on an empty BATON_HOME (no caches),
 *     the page opened at once: when the cold-scan progress line shows, when the first row is
 *     painted, when every candidate is counted; both definitions of the tab, as above
 * `node -e ""` is timed in the same run as the baseline. Beside each wall time, the host's CPU
 * (user + system) until then: on a shared machine the wall times swell, the CPU much less.
 * Needs `npm run build` (out/renderer). Each build serves its own out/renderer, so a build's
 * bin/baton.js names its page too.
 * --before=other/bin/baton.js: that build is measured too, run for run alternately with this one
 * (or --bin), and the table has a column for each: a before/after from the same minutes.
 * --before-data=data-before: the before build's warm cache is that folder of --dir instead of `data`
 * (a build whose index format differs would otherwise rebuild the other's index at every turn).
 *
 *   npx tsx bench/renderer/candidates-ui.ts --dir=/tmp/baton-c15/full [--runs=5] [--fresh-runs=1] [--expect=20000] [--bin=other/bin/baton.js] [--before=other/bin/baton.js] [--stale]
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { inTurn } from './in-turn.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/baton-c15/full');
const runs = Number(args.get('runs') ?? 5);
// --bin: another build's bin/baton.js (a before/after of the host in one sitting).
const BATON = resolve(args.get('bin') ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const BEFORE = args.has('before') ? resolve(args.get('before')!) : undefined;
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
const BEFORE_DATA = args.has('before-data') ? join(dir, args.get('before-data')!) : undefined;
/** A build's warm data directory (--before-data). */
const dataOf = (bin: string): string => (bin === BEFORE && BEFORE_DATA ? BEFORE_DATA : env.BATON_HOME);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function startHost(bin: string, dataDir = env.BATON_HOME): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--json'], { env: { ...env, BATON_HOME: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (d: Buffer) => done(d.toString()));
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

/** The host's peak RSS so far (VmHWM), MB. */
async function peakMb(child: ChildProcess): Promise<number> {
  const m = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => ''));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}
let hostPeakMb = 0;

/** The host's CPU so far (user + system, /proc/PID/stat, 10 ms ticks), ms: what the load cannot inflate. */
async function cpuMs(child: ChildProcess): Promise<number> {
  const fields = (await readFile(`/proc/${child.pid}/stat`, 'utf8').catch(() => '')).split(') ').pop()?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function stop(child: ChildProcess): Promise<void> {
  hostPeakMb = Math.max(hostPeakMb, await peakMb(child));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Until the total counts `expected` sessions and a row is painted; ms since `t0`. */
async function untilListed(page: Page, expected: number, t0: number): Promise<number> {
  await page.waitForFunction(
    (n) => {
      const total = document.querySelector('[data-testid="session-total"]')?.textContent ?? '';
      const count = Number(total.replace(/[^0-9]/g, ''));
      return count >= n && document.querySelector('[data-testid="session-item"]') !== null;
    },
    expected,
    { timeout: 120_000, polling: 'raf' },
  );
  return performance.now() - t0;
}

/** ms since `t0` until `predicate` holds in the page (polled every frame). */
async function until(page: Page, t0: number, predicate: () => boolean): Promise<number> {
  await page.waitForFunction(predicate, undefined, { timeout: 180_000, polling: 'raf' });
  return performance.now() - t0;
}

/**
 * "alongside": a blank tab is opened while the host starts; "after": once its address is printed.
 * `tab` is how long `browser.newPage()` took (Chromium's own cost, not the host's nor the page's).
 */
type TabWhen = 'alongside' | 'after';
async function hostAndTab(browser: Browser, bin: string, when: TabWhen, dataDir = env.BATON_HOME): Promise<{ child: ChildProcess; url: string; page: Page; serving: number; tab: number }> {
  const t0 = performance.now();
  const openTab = async () => {
    const t = performance.now();
    const page = await browser.newPage();
    return { page, tab: performance.now() - t };
  };
  if (when === 'after') {
    const { child, url } = await startHost(bin, dataDir);
    const serving = performance.now() - t0;
    return { child, url, serving, ...(await openTab()) };
  }
  const tabbed = openTab();
  const host = await startHost(bin, dataDir).catch(async (error: unknown) => {
    await (await tabbed).page.close();
    throw error;
  });
  const serving = performance.now() - t0;
  return { ...host, serving, ...(await tabbed) };
}

/** ms from the spawn: the host's address printed, the page loaded, progress shown, first row, all counted. */
interface FreshRun {
  /** Host CPU when the first row was painted, ms. */
  firstCpu: number;
  /** `browser.newPage()` alone (opened alongside the spawn), ms. */
  tab: number;
  serving: number;
  loaded: number;
  progress: number;
  first: number;
  all: number;
}

/** A host on an empty data directory: progress shown, first row, all counted; ms from the spawn. */
async function freshDataDir(browser: Browser, bin: string, expected: number, when: TabWhen): Promise<FreshRun> {
  const dataDir = await mkdtemp(join(dir, 'fresh-data-'));
  const t0 = performance.now();
  const { child, url, page, serving, tab } = await hostAndTab(browser, bin, when, dataDir);
  try {
    await page.goto(url);
    const loaded = performance.now() - t0;
    // The progress line, or a row already (a scan that finished before the first frame shows no progress).
    const progress = await until(page, t0, () => /Reading .* sessions/.test(document.querySelector('[data-testid="scan-status"]')?.textContent ?? '') || document.querySelector('[data-testid="session-item"]') !== null);
    const first = await until(page, t0, () => document.querySelector('[data-testid="session-item"]') !== null);
    const firstCpu = await cpuMs(child);
    const all = await untilListed(page, expected, t0);
    return { serving, tab, loaded, progress, first, all, firstCpu };
  } finally {
    await page.close();
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** One build's runs: a new host on the warm cache and the page reloaded, `runs` times; fresh data directories. */
interface BuildRuns {
  /** New host, tab opened alongside the spawn: ms from the spawn, and the host's CPU until then. */
  fresh: number[];
  freshCpu: number[];
  /** `browser.newPage()` alone, opened alongside the spawn. */
  tabs: number[];
  /** New host, tab opened after the address (the earlier sittings' definition). */
  after: number[];
  afterCpu: number[];
  afterTabs: number[];
  reloads: number[];
  reloadCpu: number[];
  /** Fresh data directories, the tab opened alongside the spawn. */
  freshDirs: FreshRun[];
  /** The same, the tab opened after the address (the earlier definition). */
  freshAfter: FreshRun[];
}

async function warmRun(browser: Browser, bin: string, expected: number, when: TabWhen, into: BuildRuns): Promise<void> {
  // --stale: the index was confirmed long ago (a host started minutes after the last scan), so no quick start.
  if (args.has('stale')) await writeFile(join(dataOf(bin), 'importers-candidates.idx.verified'), '1');
  const t0 = performance.now();
  const { child, url, page, tab } = await hostAndTab(browser, bin, when, dataOf(bin));
  try {
    await page.goto(url);
    const listed = await untilListed(page, expected, t0);
    if (when === 'after') {
      into.after.push(listed);
      into.afterCpu.push(await cpuMs(child));
      into.afterTabs.push(tab);
      return;
    }
    into.fresh.push(listed);
    into.freshCpu.push(await cpuMs(child));
    into.tabs.push(tab);
    const t1 = performance.now();
    await page.reload();
    into.reloads.push(await untilListed(page, expected, t1));
    into.reloadCpu.push((await cpuMs(child)) - into.freshCpu.at(-1)!);
  } finally {
    await page.close();
    await stop(child);
  }
}

/** The table's rows for one build: "median / min ms; host CPU ms" per measure. */
function rowsOf(r: BuildRuns, expected: number): Array<[string, string]> {
  const cell = (values: number[], cpu?: number[]) => `${Math.round(median(values))} / ${Math.round(Math.min(...values))}${cpu ? `; CPU ${median(cpu)}` : ''}`;
  const f = (k: keyof FreshRun) => r.freshDirs.map((run) => run[k]);
  const a = (k: keyof FreshRun) => r.freshAfter.map((run) => run[k]);
  return [
    [`new host, warm cache, tab opened alongside the spawn: ${expected} counted, first row painted`, cell(r.fresh, r.freshCpu)],
    ['  its tab: browser.newPage() alone', cell(r.tabs)],
    [`new host, warm cache, tab opened after the address (earlier definition)`, cell(r.after, r.afterCpu)],
    ['  its tab: browser.newPage() alone', cell(r.afterTabs)],
    ['page reload, host warm', cell(r.reloads, r.reloadCpu)],
    ...(r.freshDirs.length === 0 ? [] : ([
      ['fresh data directory (tab opened alongside the spawn): host address printed', cell(f('serving'))],
      ['fresh data directory: its tab, browser.newPage() alone', cell(f('tab'))],
      ['fresh data directory: page loaded', cell(f('loaded'))],
      ['fresh data directory: cold-scan progress shown', cell(f('progress'))],
      ['fresh data directory: first row painted', cell(f('first'), f('firstCpu'))],
      [`fresh data directory: all ${expected} counted`, cell(f('all'))],
      ['fresh data directory, tab opened after the address (earlier definition): first row painted', cell(a('first'), a('firstCpu'))],
      ['  its tab: browser.newPage() alone', cell(a('tab'))],
    ] as Array<[string, string]>)),
  ];
}

/**
 * A build without its page (`npm run build` not run: `node scripts/build-cli.js` builds the CLI
 * alone) serves no UI, and the run would wait two minutes for rows that never come: said at once.
 */
function assertPageBuilt(bin: string): void {
  const page = join(dirname(bin), '..', 'out', 'renderer', 'index.html');
  if (!existsSync(page)) throw new Error(`${bin} has no page (${page} is missing): run \`npm run build\` in that build first`);
}

async function main(): Promise<void> {
  for (const bin of BEFORE === undefined ? [BATON] : [BEFORE, BATON]) assertPageBuilt(bin);
  await mkdir(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  const expected = Number(args.get('expect') ?? 20_000);
  const baseline: number[] = [];
  const baselineCpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, ['-e', '']);
    baseline.push(performance.now() - t0);
    // A child's CPU is not in this process's resourceUsage(): a second run under /usr/bin/time gives it.
    const [user, system] = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, '-e', ''], { encoding: 'utf8' }).stderr.trim().split(' ').map(Number);
    baselineCpu.push((user! + system!) * 1000);
  }
  // The order alternates from run to run (in-turn.ts): the second of a pair came out faster whichever build it was.
  const builds = BEFORE === undefined ? [BATON] : [BEFORE, BATON];
  const results = new Map<string, BuildRuns>(builds.map((bin) => [bin, { fresh: [], freshCpu: [], tabs: [], after: [], afterCpu: [], afterTabs: [], reloads: [], reloadCpu: [], freshDirs: [], freshAfter: [] }]));
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const freshRuns = Number(args.get('fresh-runs') ?? 1);
  try {
    // Both definitions in every round, their order alternating too (in-turn.ts).
    for (let i = 0; i < runs; i++) {
      for (const when of inTurn<TabWhen>(['alongside', 'after'], i)) for (const bin of inTurn(builds, i)) await warmRun(browser, bin, expected, when, results.get(bin)!);
    }
    for (let i = 0; i < freshRuns; i++) {
      for (const when of inTurn<TabWhen>(['alongside', 'after'], i)) {
        for (const bin of inTurn(builds, i)) {
          const run = await freshDataDir(browser, bin, expected, when);
          (when === 'alongside' ? results.get(bin)!.freshDirs : results.get(bin)!.freshAfter).push(run);
        }
      }
    }
  } finally {
    await browser.close();
  }
  const columns = builds.map((bin) => (bin === BEFORE ? 'before' : 'this build'));
  const perBuild = builds.map((bin) => rowsOf(results.get(bin)!, expected));
  console.log(`median / min ms; host CPU ms (user + system until then); ${runs} warm runs, ${freshRuns} fresh runs per build`);
  console.table([
    { measure: 'baseline: node -e ""', ...Object.fromEntries(columns.map((c) => [c, `${Math.round(median(baseline))} / ${Math.round(Math.min(...baseline))}; CPU ${Math.round(median(baselineCpu))}`])) },
    ...perBuild[0]!.map(([measure], row) => ({ measure, ...Object.fromEntries(columns.map((c, b) => [c, perBuild[b]![row]![1]])) })),
  ]);
  for (const bin of builds) console.log(`${bin === BEFORE ? 'before' : 'this build'}: ${bin}`);
  console.log(`hosts' peak RSS ${hostPeakMb} MB over the runs`);
  console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
}

await main();
