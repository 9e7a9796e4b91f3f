#!/usr/bin/env bash
# `npm test`: type-check, build both hosts, unit tests (vitest), end-to-end tests (Playwright),
# then one closing line `N passed, N failed, N skipped` summed from the runners' JSON reports.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/unit.json test-results/e2e.json test-results/steps.txt

step() { # name, command…: the summary counts a failed step, and a runner that failed outside its report
  local name=$1; shift
  echo "── $name"
  "$@"
  local code=$?
  if [ "$code" -eq 0 ]; then echo "$name ok" >> test-results/steps.txt; else echo "$name FAILED (exit $code)" >> test-results/steps.txt; fi
}

step typecheck npm run --silent typecheck
step build npm run --silent build
step "node --check" bash -c 'node --check out/main/index.js && node --check out/preload/index.cjs'
step unit npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json
step e2e npx playwright test
node scripts/test-summary.js
