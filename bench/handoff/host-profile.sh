#!/bin/bash
# The host's main-thread CPU per hosted handoff (issue 20): a host (bench/handoff/receiver-host.ts,
# the `src` given) under `node --cpu-prof`, N handoffs of 150 messages from a dirty repository by
# one client build, then the profile's window from the first handoff to the last + 1 s.
#
#   bench/handoff/host-profile.sh LABEL SRC_DIR [CLIENT_BIN]     (N=40 by default; OUT=/tmp/baton-host-profile)
#
# Prints one line: handoffs answered, the window, non-idle main-thread ms per handoff, and the part of
# it in file watching. Alternate two SRC_DIRs (before / after) with the same client: only the host differs.
L=$1; SRC=$2; CLIENT=${3:-$(cd "$(dirname "$0")/../.." && pwd)/bin/baton.js}
B=$(cd "$(dirname "$0")/../.." && pwd)
R=${OUT:-/tmp/baton-host-profile}/$L
N=${N:-40}
rm -rf "$R"; mkdir -p "$R/prof"
(cd "$B" && npx tsx -e "import('./bench/handoff/bench-repo.ts').then(m=>m.makeBenchRepo('$R/work'))")
node -e "const fs=require('fs');const l=[];for(let i=0;i<150;i++)l.push(JSON.stringify({role:i%2?'assistant':'user',content:'Message '+i+': '+'lorem ipsum dolor sit amet '.repeat(8)}));fs.writeFileSync('$R/conv.jsonl',l.join('\n')+'\n')"
mkfifo "$R/in"
T0=$(date +%s%N)
(cd "$B" && node --cpu-prof --cpu-prof-dir="$R/prof" --cpu-prof-interval=200 --import tsx bench/handoff/receiver-host.ts "$R/data" "$SRC" < "$R/in" > "$R/host.out" 2>&1) &
exec 3>"$R/in"
# A cold tsx cache takes seconds to compile the host: wait for its "ready", not a fixed time.
until grep -q ready "$R/host.out"; do sleep 0.2; done; sleep 2
T1=$(date +%s%N)
ok=0
for i in $(seq 1 "$N"); do (cd "$R/work" && BATON_HOME="$R/data" node "$CLIENT" handoff --cwd "$R/work" --title "t$i" --messages "$R/conv.jsonl" --no-launch --json > "$R/last.json") && ok=$((ok+1)); done
T2=$(date +%s%N)
sleep 1
exec 3>&-
wait
P=$(ls -S "$R/prof" | head -1) # the main thread's profile (the largest)
node "$B/bench/handoff/profile-window.mjs" "$R/prof/$P" $(( (T1-T0)/1000000 )) "$N" > "$R/window.txt"
echo "$L answered=$ok/$N window=$(( (T2-T1)/1000000 ))ms $(head -1 "$R/window.txt") load=$(cut -d' ' -f1 /proc/loadavg)"
