// The closing line's arithmetic, kept apart from file reading so it can be tested on crafted reports.
// Rules (issue 12): every failure a runner reports counts; a runner that failed outside its report,
// a missing report and a suite that failed beside passing tests each count as one; a skip counts
// only when the report names why and the reason is allowed (the Electron-window project, or a test
// that needs a different user than the one running); zero web end-to-end tests run is a failure.

/** Playwright projects whose tests may skip (the Electron runtime cannot be fetched everywhere). */
export const SKIPPABLE_E2E_PROJECTS = new Set(['electron']);
/** The Playwright project that must run at least one test. */
export const REQUIRED_E2E_PROJECT = 'web';
/** The runners whose exit codes are checked against their reports. */
export const RUNNER_STEPS = ['unit', 'e2e'];

/** "name ok" / "name FAILED [...]" lines of test-results/steps.txt. */
export function parseSteps(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = /^(.*?) (ok|FAILED)\b(.*)$/.exec(line);
      return match ? { name: match[1], ok: match[2] === 'ok', detail: match[3].trim().replace(/^\((.*)\)$/, '$1') } : { name: line, ok: false, detail: 'unreadable step line' };
    });
}

/** A user-dependent skip is allowed only when the suite runs as the other user. */
function userSkipAllowed(need, uid) {
  if (need === 'root') return uid !== 0;
  if (need === 'non-root') return uid === 0;
  return false;
}

/** Playwright has no metadata for skips: a user skip's reason starts with "needs root:" or "needs a non-root user:". */
function userSkipFromReason(reason) {
  if (/^(skipped: )?needs root:/.test(reason)) return 'root';
  if (/^(skipped: )?needs a non-root user:/.test(reason)) return 'non-root';
  return null;
}

const firstLine = (text) => String(text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';

/**
 * @param {{ unit: object|null, e2e: object|null, steps: {name: string, ok: boolean, detail?: string}[], uid: number }} input
 * @returns {{ passed: number, failed: number, skipped: number, notes: string[] }}
 */
export function summarize({ unit, e2e, steps, uid }) {
  const out = { passed: 0, failed: 0, skipped: 0, notes: [] };
  const failuresFrom = { unit: 0, e2e: 0 };
  const fail = (runner, note) => {
    out.failed += 1;
    if (runner) failuresFrom[runner] += 1;
    if (note) out.notes.push(note);
  };

  if (!unit) fail('unit', 'unit: no report (test-results/unit.json missing or unreadable)');
  else countUnit(unit, uid, out, fail);

  if (!e2e) fail('e2e', 'e2e: no report (test-results/e2e.json missing or unreadable)');
  else countE2e(e2e, uid, out, fail);

  for (const runner of RUNNER_STEPS) {
    if (!steps.some((s) => s.name === runner)) fail(runner, `step ${runner} did not record an exit status`);
  }
  for (const step of steps) {
    if (step.ok) continue;
    if (RUNNER_STEPS.includes(step.name)) {
      // The runner's own failures are already counted; one that failed with none counted failed outside its report.
      if (failuresFrom[step.name] === 0) fail(step.name, `${step.name}: the runner failed (${step.detail || 'non-zero exit'}) but its report shows no failure`);
    } else fail(null, `step failed: ${step.name}${step.detail ? ` (${step.detail})` : ''}`);
  }
  return out;
}

function countUnit(report, uid, out, fail) {
  const files = Array.isArray(report.testResults) ? report.testResults : [];
  if (files.length === 0) fail('unit', 'unit: the report lists no test files');
  for (const file of files) {
    const tests = Array.isArray(file.assertionResults) ? file.assertionResults : [];
    let fileFailures = 0;
    for (const t of tests) {
      if (t.status === 'passed') out.passed += 1;
      else if (t.status === 'failed') {
        fileFailures += 1;
        fail('unit', null);
      } else {
        const userSkip = t.meta?.userSkip;
        if (userSkip && userSkipAllowed(userSkip.need, uid)) {
          out.skipped += 1;
          out.notes.push(`skipped [unit] ${t.fullName}: needs ${userSkip.need === 'root' ? 'root' : 'a non-root user'}: ${userSkip.reason}`);
        } else {
          fileFailures += 1;
          const why = userSkip ? `needs ${userSkip.need}, but the suite runs as uid ${uid}` : 'no allowed reason (only a different user may skip a unit test)';
          fail('unit', `unexpected skip [unit] ${t.fullName} (${t.status}): ${why}`);
        }
      }
    }
    // Import errors, afterAll errors and the like fail the file while its tests pass (or never ran).
    if (file.status === 'failed' && fileFailures === 0) fail('unit', `unit: ${file.name} failed outside its tests: ${firstLine(file.message) || 'no message'}`);
  }
}

function countE2e(report, uid, out, fail) {
  let requiredRan = 0;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const name = `[${t.projectName}] ${spec.file ? `${spec.file} › ` : ''}${spec.title}`;
        if (t.status === 'expected' || t.status === 'flaky') {
          out.passed += 1;
          if (t.projectName === REQUIRED_E2E_PROJECT) requiredRan += 1;
        } else if (t.status === 'unexpected') {
          fail('e2e', null);
          if (t.projectName === REQUIRED_E2E_PROJECT) requiredRan += 1;
        } else {
          const reason = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? '';
          const need = userSkipFromReason(reason);
          const allowed = reason !== '' && (SKIPPABLE_E2E_PROJECTS.has(t.projectName) || (need !== null && userSkipAllowed(need, uid)));
          if (allowed) {
            out.skipped += 1;
            out.notes.push(`skipped ${name}: ${reason}`);
          } else fail('e2e', `unexpected skip ${name}: ${reason || 'no reason given'}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  for (const error of report.errors ?? []) fail('e2e', `e2e: ${firstLine(error.message ?? error.stack ?? JSON.stringify(error))}`);
  if (requiredRan === 0) fail('e2e', `e2e: no test of the ${REQUIRED_E2E_PROJECT} project ran`);
}

export function closingLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}
