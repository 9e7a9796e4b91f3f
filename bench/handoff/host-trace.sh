#!/bin/bash
# The host's traced parts of N hosted handoffs (this tree's client; the host from SRC, e.g. another tree's src
# with node_modules beside it), p50 of the offer's parts. Alternate two SRCs for a before/after of one change.
#
#   bench/handoff/host-trace.sh LABEL SRC_DIR [N]
L=$1; SRC=$2; N=${3:-15}
B=$(cd "$(dirname "$0")/../.." && pwd)
R=${OUT:-/tmp/baton-host-trace}/$L; rm -rf $R; mkdir -p $R
(cd $B && npx tsx -e "import('./bench/handoff/bench-repo.ts').then(m=>m.makeBenchRepo('$R/work'))" >/dev/null)
node -e "const fs=require('fs');const l=[];for(let i=0;i<150;i++)l.push(JSON.stringify({role:i%2?'assistant':'user',content:'Message '+i+': '+'lorem ipsum dolor sit amet '.repeat(8)}));fs.writeFileSync('$R/conv.jsonl',l.join('\n')+'\n')"; mkfifo $R/in
(cd $B && node --import tsx bench/handoff/receiver-host.ts $R/data $SRC < $R/in > $R/host.out 2>&1) &
exec 3>$R/in
for t in $(seq 1 300); do grep -q ready $R/host.out 2>/dev/null && break; sleep 0.2; done; grep -q ready $R/host.out || { cat $R/host.out; exit 1; }; sleep 1
for i in $(seq 1 $N); do (cd $R/work && BATON_HOME=$R/data BATON_PHASE_TRACE=$R/trace.jsonl node $B/bin/baton.js handoff --cwd $R/work --title t$i --messages $R/conv.jsonl --no-launch --json >/dev/null); done
exec 3>&-; wait
node -e "
const l=require('fs').readFileSync('$R/trace.jsonl','utf8').trim().split('\n').map(JSON.parse);
const p50=a=>{a=a.filter(x=>!isNaN(x)).sort((x,y)=>x-y);return a.length?a[Math.floor(a.length/2)].toFixed(2):'-'};
const d=(a,b)=>p50(l.map(x=>x.marks[b]-x.marks[a]));
console.log('$L n='+l.length, 'may-take→narrowed', d('host-may-take','host-narrowed'), 'narrowed→taken', d('host-narrowed','host-taken'), 'manifest→taken', d('host-manifest','host-taken'), 'landed→answered', d('host-landed','host-answered'), 'sent→answered', d('sent','answered'), 'load', require('fs').readFileSync('/proc/loadavg','utf8').split(' ')[0]);
"
