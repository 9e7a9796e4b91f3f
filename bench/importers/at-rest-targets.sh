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
#
# PEERS=/work/peers (claude-code and codex installed there, see pickers.ts) adds the peers' pickers.
# Issue 15's target for the warm listing without a host is a third of the faster peer's picker,
# so it can only be judged in a run that measures the peers.
# The hosted listing is measured twice where /dev/shm is tmpfs: with the hosts' runtime directories
# on the disk (an encrypted host seals its listing into the data directory), then in memory, as a
# desktop's XDG_RUNTIME_DIR (/run/user/UID) is (it writes it there in the clear:
# src/core/host/listing-place.ts). Both hosted rows carry warm-list.ts's floor (--floor=1): a Node
# process copying the same listing's bytes to the bench's pipe, the part of the row that is the pipe's.
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
npx tsx bench/importers/pickers.ts --dir="$dir" --runs=9 ${PEERS:+--peers="$PEERS"}
step warm-list.ts, no host
npx tsx bench/importers/warm-list.ts --dir="$dir" --runs=21 "$bins"
step warm-list.ts, hosted, runtime directory on the disk
npx tsx bench/importers/warm-list.ts --dir="$dir" --runs=21 --hosted=each --floor=1 "$bins"
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  step warm-list.ts, hosted, runtime directory in memory
  shm="/dev/shm/baton-targets-$(basename "$dir")"
  rm -rf "$shm" && mkdir -m 0700 "$shm"
  npx tsx bench/importers/warm-list.ts --dir="$dir" --runs=21 --hosted=each --runtime="$shm" --floor=1 "$bins"
  rm -rf "$shm"
fi
step candidates-ui.ts
npx tsx bench/renderer/candidates-ui.ts --dir="$dir" --runs=3 --expect=20000 --fresh-runs=3
step bench/store/at-rest.ts
npx tsx bench/store/at-rest.ts appends list
step done
