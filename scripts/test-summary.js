#!/usr/bin/env node
// Sums vitest's and Playwright's JSON reports (and failed build steps) into the closing line CI reads.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const notes = [];

const unit = readJson('test-results/unit.json');
if (unit) {
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
  // A suite that failed to load has no tests to count: count it as a failure.
  failed += (unit.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
} else notes.push('no unit report');

const e2e = readJson('test-results/e2e.json');
if (e2e) {
  const stats = e2e.stats ?? {};
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
  for (const line of skipReasons(e2e)) notes.push(line);
  failed += (e2e.errors ?? []).length;
} else notes.push('no e2e report');

const steps = existsSync('test-results/steps.txt') ? readFileSync('test-results/steps.txt', 'utf8').trim().split('\n') : [];
for (const step of steps.filter((s) => s.endsWith('FAILED'))) {
  if (/^(unit|e2e) /.test(step)) continue; // counted through their reports
  failed += 1;
  notes.push(`step failed: ${step}`);
}
for (const note of notes) console.log(`note: ${note}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
const runnerFailed = steps.some((s) => /^(unit|e2e) FAILED/.test(s));
process.exit(failed > 0 || runnerFailed || !unit || !e2e ? 1 : 0);

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function* skipReasons(report) {
  const walk = function* (suite) {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'skipped') {
          const why = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'no reason given';
          yield `skipped [${t.projectName}] ${spec.title}: ${why}`;
        }
      }
    }
    for (const child of suite.suites ?? []) yield* walk(child);
  };
  for (const suite of report.suites ?? []) yield* walk(suite);
}
