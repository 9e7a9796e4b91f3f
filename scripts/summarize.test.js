// The closing line's rules, fed crafted vitest and Playwright reports (shapes as the runners write them).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closingLine, parseSteps, summarize } from './summarize.js';

const ROOT = 0;
const USER = 1000;
const okSteps = parseSteps('typecheck ok\nbuild ok\nnode --check ok\nunit ok\ne2e ok\n');
const withStep = (name, line) => okSteps.map((s) => (s.name === name ? parseSteps(line)[0] : s));

const test = (title, status, meta = {}) => ({ ancestorTitles: ['suite'], fullName: `suite ${title}`, status, title, meta, failureMessages: [] });
const file = (name, tests, status = tests.some((t) => t.status === 'failed') ? 'failed' : 'passed', message = '') => ({ name, status, message, assertionResults: tests });
const unitReport = (files) => ({ numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, testResults: files, success: true });
const goodUnit = () => unitReport([file('/r/src/a.test.ts', [test('one', 'passed'), test('two', 'passed')])]);

const pwTest = (projectName, status, skipReason) => ({
  projectName,
  status,
  annotations: skipReason === undefined ? [] : [{ type: 'skip', description: skipReason }],
  results: [],
});
const e2eReport = (specs, errors = []) => ({ suites: [{ title: 'x.spec.ts', file: 'x.spec.ts', specs, suites: [] }], errors, stats: {} });
const spec = (title, ...tests) => ({ title, file: 'web/x.spec.ts', tests });
const goodE2e = () => e2eReport([spec('hands off', pwTest('web', 'expected')), spec('window', pwTest('electron', 'skipped', 'skipped: the Electron runtime is not installed here'))]);

describe('summarize: what counts', () => {
  it('a clean run: passes and the Electron skip with its reason', () => {
    const s = summarize({ unit: goodUnit(), e2e: goodE2e(), steps: okSteps, uid: ROOT });
    expect(closingLine(s)).toBe('3 passed, 0 failed, 1 skipped');
    expect(s.notes).toEqual(['skipped [electron] web/x.spec.ts › window: skipped: the Electron runtime is not installed here']);
  });

  it('vitest crashed before writing its report: one failure, not "0 failed"', () => {
    const s = summarize({ unit: null, e2e: goodE2e(), steps: withStep('unit', 'unit FAILED (exit 1)'), uid: ROOT });
    expect(s.failed).toBe(1);
    expect(s.notes).toContain('unit: no report (test-results/unit.json missing or unreadable)');
  });

  it('a runner that exits non-zero while its report shows no failure (unhandled error, teardown crash) counts once', () => {
    const s = summarize({ unit: goodUnit(), e2e: goodE2e(), steps: withStep('unit', 'unit FAILED (exit 1)'), uid: ROOT });
    expect(s.failed).toBe(1);
    expect(s.notes.some((n) => n.startsWith('unit: the runner failed (exit 1) but its report shows no failure'))).toBe(true);
  });

  it('a runner whose failures are in its report is not counted twice', () => {
    const unit = unitReport([file('/r/a.test.ts', [test('one', 'failed'), test('two', 'passed')])]);
    const s = summarize({ unit, e2e: goodE2e(), steps: withStep('unit', 'unit FAILED (exit 1)'), uid: ROOT });
    expect(closingLine(s)).toBe('2 passed, 1 failed, 1 skipped');
  });

  it('a Playwright config error: the report carries only errors, and no web test ran', () => {
    const e2e = { suites: [], errors: [{ message: 'Error: playwright.config.ts: Cannot find module x\n    at ...' }], stats: { expected: 0, unexpected: 0 } };
    const s = summarize({ unit: goodUnit(), e2e, steps: withStep('e2e', 'e2e FAILED (exit 1)'), uid: ROOT });
    expect(s.failed).toBe(2);
    expect(s.notes).toEqual(['e2e: Error: playwright.config.ts: Cannot find module x', 'e2e: no test of the web project ran']);
  });

  it('a missing Playwright report with a failed step counts one failure', () => {
    const s = summarize({ unit: goodUnit(), e2e: null, steps: withStep('e2e', 'e2e FAILED (exit 1)'), uid: ROOT });
    expect(s.failed).toBe(1);
  });

  it('a suite that failed while some of its tests passed (an afterAll error) counts, naming the file', () => {
    const unit = unitReport([file('/r/src/b.test.ts', [test('one', 'passed'), test('two', 'passed')], 'failed', 'Error: afterAll hook failed\nstack')]);
    const s = summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: ROOT });
    expect(closingLine(s)).toBe('3 passed, 1 failed, 1 skipped');
    expect(s.notes).toContain('unit: /r/src/b.test.ts failed outside its tests: Error: afterAll hook failed');
  });

  it('a suite that failed to import (no tests at all) counts', () => {
    const unit = unitReport([file('/r/src/a.test.ts', [test('one', 'passed')]), file('/r/src/broken.test.ts', [], 'failed', "Error: Cannot find module './gone.js'")]);
    const s = summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: ROOT });
    expect(s.failed).toBe(1);
    expect(s.notes).toContain("unit: /r/src/broken.test.ts failed outside its tests: Error: Cannot find module './gone.js'");
  });

  it('an empty unit report is a failure', () => {
    expect(summarize({ unit: unitReport([]), e2e: goodE2e(), steps: okSteps, uid: ROOT }).failed).toBe(1);
  });

  it('a failed build step counts', () => {
    const s = summarize({ unit: goodUnit(), e2e: goodE2e(), steps: withStep('build', 'build FAILED (exit 2)'), uid: ROOT });
    expect(s.failed).toBe(1);
    expect(s.notes).toContain('step failed: build (exit 2)');
  });

  it('a runner step that never recorded its status counts', () => {
    expect(summarize({ unit: goodUnit(), e2e: goodE2e(), steps: okSteps.filter((s) => s.name !== 'e2e'), uid: ROOT }).failed).toBe(1);
  });
});

describe('summarize: which skips are allowed', () => {
  it('a unit skip without a recorded user reason is a failure with its name', () => {
    const unit = unitReport([file('/r/a.test.ts', [test('passes', 'passed'), test('needs the network', 'skipped')])]);
    const s = summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: ROOT });
    expect(closingLine(s)).toBe('2 passed, 1 failed, 1 skipped');
    expect(s.notes).toContain('unexpected skip [unit] suite needs the network (skipped): no allowed reason (only a different user may skip a unit test)');
  });

  it('todo tests are not a way around it', () => {
    const unit = unitReport([file('/r/a.test.ts', [test('passes', 'passed'), test('later', 'todo')])]);
    expect(summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: ROOT }).failed).toBe(1);
  });

  it('a non-root-only test may skip under root, and only under root', () => {
    const userSkip = { need: 'non-root', reason: 'chmod 000 does not stop root' };
    const unit = unitReport([file('/r/a.test.ts', [test('unreadable', 'skipped', { userSkip })])]);
    const asRoot = summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: ROOT });
    expect([asRoot.failed, asRoot.skipped]).toEqual([0, 2]);
    expect(asRoot.notes).toContain('skipped [unit] suite unreadable: needs a non-root user: chmod 000 does not stop root');
    const asUser = summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: USER });
    expect(asUser.failed).toBe(1);
    expect(asUser.notes).toContain('unexpected skip [unit] suite unreadable (skipped): needs non-root, but the suite runs as uid 1000');
  });

  it('a root-only test may skip for a normal user, never under root', () => {
    const unit = unitReport([file('/r/a.test.ts', [test('chown', 'skipped', { userSkip: { need: 'root', reason: 'chown' } })])]);
    expect(summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: USER }).failed).toBe(0);
    expect(summarize({ unit, e2e: goodE2e(), steps: okSteps, uid: ROOT }).failed).toBe(1);
  });

  it('web tests skipped for a missing chromium: each is a failure, and no web test ran', () => {
    const e2e = e2eReport([spec('a', pwTest('web', 'skipped', 'skipped: no Chromium at /usr/bin/chromium')), spec('b', pwTest('web', 'skipped', 'skipped: no Chromium at /usr/bin/chromium'))]);
    const s = summarize({ unit: goodUnit(), e2e, steps: okSteps, uid: ROOT });
    expect(closingLine(s)).toBe('2 passed, 3 failed, 0 skipped');
    expect(s.notes).toEqual([
      'unexpected skip [web] web/x.spec.ts › a: skipped: no Chromium at /usr/bin/chromium',
      'unexpected skip [web] web/x.spec.ts › b: skipped: no Chromium at /usr/bin/chromium',
      'e2e: no test of the web project ran',
    ]);
  });

  it('a web test that needs a different user may skip with that reason', () => {
    const e2e = e2eReport([spec('a', pwTest('web', 'expected')), spec('b', pwTest('web', 'skipped', 'needs a non-root user: chmod 000'))]);
    expect(summarize({ unit: goodUnit(), e2e, steps: okSteps, uid: ROOT })).toMatchObject({ failed: 0, skipped: 1 });
    expect(summarize({ unit: goodUnit(), e2e, steps: okSteps, uid: USER })).toMatchObject({ failed: 1, skipped: 0 });
  });

  it('an Electron skip without a reason, or a test not run (interrupted), is a failure', () => {
    const e2e = e2eReport([spec('a', pwTest('web', 'expected')), spec('w', pwTest('electron', 'skipped')), spec('c', pwTest('web', 'skipped'))]);
    expect(summarize({ unit: goodUnit(), e2e, steps: okSteps, uid: ROOT }).failed).toBe(2);
  });
});

describe('summarize: the closing line never reads "0 failed" after a failed step', () => {
  const stepNames = ['typecheck', 'build', 'node --check', 'unit', 'e2e'];
  const unitArb = fc.option(
    fc.array(
      fc.record({ status: fc.constantFrom('passed', 'failed'), tests: fc.array(fc.constantFrom('passed', 'failed', 'skipped'), { maxLength: 4 }) }),
      { maxLength: 4 },
    ).map((files) => unitReport(files.map((f, i) => file(`/r/${i}.test.ts`, f.tests.map((s, j) => test(`t${j}`, s)), f.status)))),
    { nil: null },
  );
  const e2eArb = fc.option(
    fc.array(fc.record({ project: fc.constantFrom('web', 'electron'), status: fc.constantFrom('expected', 'unexpected', 'flaky', 'skipped') }), { maxLength: 5 }).map((ts) =>
      e2eReport(ts.map((t, i) => spec(`s${i}`, pwTest(t.project, t.status, t.status === 'skipped' ? 'skipped: why' : undefined)))),
    ),
    { nil: null },
  );

  it('holds for any mix of reports and exit statuses (5,000 runs)', () => {
    fc.assert(
      fc.property(unitArb, e2eArb, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), fc.constantFrom(ROOT, USER), (unit, e2e, oks, uid) => {
        const steps = stepNames.map((name, i) => ({ name, ok: oks[i], detail: oks[i] ? '' : 'exit 1' }));
        const s = summarize({ unit, e2e, steps, uid });
        if (oks.includes(false)) expect(s.failed).toBeGreaterThan(0);
        if (!unit || !e2e) expect(s.failed).toBeGreaterThan(0);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('test-summary.js on files', () => {
  const dirs = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const run = (files) => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-summary-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'test-results'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'test-results', name), text);
    const result = spawnSync(process.execPath, [join(import.meta.dirname, 'test-summary.js')], { cwd: dir, encoding: 'utf8' });
    return { code: result.status, last: result.stdout.trim().split('\n').at(-1), stdout: result.stdout };
  };

  it('exits 0 with the closing line on a clean run', () => {
    const r = run({ 'unit.json': JSON.stringify(goodUnit()), 'e2e.json': JSON.stringify(goodE2e()), 'steps.txt': 'typecheck ok\nunit ok\ne2e ok\n' });
    expect(r).toMatchObject({ code: 0, last: '3 passed, 0 failed, 1 skipped' });
  });

  it('exits 1 when vitest left a truncated report and failed', () => {
    const r = run({ 'unit.json': '{"testResults":[', 'e2e.json': JSON.stringify(goodE2e()), 'steps.txt': 'unit FAILED (exit 1)\ne2e ok\n' });
    expect(r.code).toBe(1);
    expect(r.last).toBe('1 passed, 1 failed, 1 skipped');
  });

  it('exits 1 with no files at all', () => {
    const r = run({});
    expect(r.code).toBe(1);
    expect(r.last).toMatch(/^0 passed, [1-9]\d* failed, 0 skipped$/);
  });
});
