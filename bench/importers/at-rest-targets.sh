#!/usr/bin/env bash
# Issue 17: issue 15's listing targets and issue 17's store targets, in one run, with encryption on
# or off. Encrypted: run under a Secret Service (candidates.ts creates the store first, so every
# row reads and writes sealed caches); plain: with no session bus.
#
#   npx tsx bench/with-secret-service.ts bash bench/importers/at-rest-targets.sh /tmp/b17/enc [--bins=now=bin/baton.js,before=/x/bin/baton.js]
#   DBUS_SESSION_BUS_ADDRESS= bash bench/importers/at-rest-targets.sh /tmp/b17/plain
#
# <dir>'s corpus (home/) is written once and reused; its data directory is created fresh each run
# (a store made under a Secret Service stays encrypted). Outputs go to stdout, step by step.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:?usage: at-rest-targets.sh <dir> [--bins=label=bin,...]}"
bins="${2:---bins=now=bin/baton.js}"
rm -rf "$dir/data" "$dir"/data-* "$dir/run" "$dir"/run-*
step() { echo; echo "── $* ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))"; }
# The UI rows need the page (out/renderer): `npm run build` once, not only build-cli.js.
step candidates.ts
npx tsx bench/importers/candidates.ts --dir="$dir" --claude=10000 --codex=10000 --runs=5 --cold-runs=3
step pickers.ts
npx tsx bench/importers/pickers.ts --dir="$dir" --runs=9
step warm-list.ts, no host
npx tsx bench/importers/warm-list.ts --dir="$dir" --runs=21 "$bins"
step warm-list.ts, hosted
npx tsx bench/importers/warm-list.ts --dir="$dir" --runs=21 --hosted=each "$bins"
step candidates-ui.ts
npx tsx bench/renderer/candidates-ui.ts --dir="$dir" --runs=3 --expect=20000 --fresh-runs=3
step bench/store/at-rest.ts
npx tsx bench/store/at-rest.ts appends list
step done
