#!/usr/bin/env node
// Sums vitest's and Playwright's JSON reports and the steps' exit statuses into the closing line CI
// reads (`N passed, N failed, N skipped`); the rules are in summarize.js. Exits 1 on any failure.
import { existsSync, readFileSync } from 'node:fs';
import { closingLine, parseSteps, summarize } from './summarize.js';

try {
  const summary = summarize({
    unit: readJson('test-results/unit.json'),
    e2e: readJson('test-results/e2e.json'),
    steps: existsSync('test-results/steps.txt') ? parseSteps(readFileSync('test-results/steps.txt', 'utf8')) : [],
    uid: process.getuid?.() ?? -1,
  });
  for (const note of summary.notes) console.log(`note: ${note}`);
  console.log(closingLine(summary));
  process.exit(summary.failed > 0 ? 1 : 0);
} catch (error) {
  // The closing line must exist and must not read "0 failed" when the summary itself broke.
  console.log(`note: the test summary failed: ${error?.stack ?? error}`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
