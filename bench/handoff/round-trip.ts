/**
 * Socket round trip of the handoff protocol against the floor of the same kind of socket.
 *
 *   bare echo      connect + one line out + the same line back + close (plain net, no protocol)
 *   bare 3-step    the protocol's message pattern on a plain socket, no crypto, no parsing:
 *                  connect, server line, client line, echo, client line, echo, close
 *   protocol       connect + hello + proof + ack + one request/answer + close (connectEndpoint)
 *   request only   one request/answer on an already authenticated connection
 *
 * Run: npx tsx bench/handoff/round-trip.ts [iterations] [--same-process]
 * By default the servers run in a child process (bench/handoff/servers.ts), as the desktop app
 * does for the CLI; --same-process puts both ends on one event loop, which serialises the CPU
 * work of both sides. The measured paths alternate in blocks so drift hits all of them equally.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectEndpoint } from '../../src/core/transport/client.js';
import { fileURLToPath } from 'node:url';
import { startBenchServers, type BenchServers } from './servers.js';

const ITERATIONS = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 2_000);
const WARMUP = 200;
const BLOCK = 100;
const PAYLOAD = { handoffId: 'h-bench-0001', sessionId: 's-bench-0001', note: 'x'.repeat(200) };

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function bareEcho(address: string, line: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(address);
    let got = '';
    socket.on('error', reject);
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk) => {
      got += chunk.toString();
      if (got.endsWith('\n')) {
        socket.destroy();
        resolve();
      }
    });
  });
}

/** The protocol's five messages (hello, auth, ack, request, answer) without the protocol. */
async function bareThreeStep(address: string, line: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(address);
    let buffered = '';
    let lines = 0;
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        buffered = buffered.slice(newline + 1);
        lines += 1;
        if (lines === 3) {
          socket.destroy();
          resolve();
          return;
        }
        socket.write(line);
        newline = buffered.indexOf('\n');
      }
    });
  });
}

/** The servers, in a child process (default) or in this one (--same-process). */
async function servers(sameProcess: boolean): Promise<{ info: BenchServers; stop(): Promise<void> }> {
  if (sameProcess) return startBenchServers();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./servers.ts', import.meta.url)), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`bench servers exited early (${code})`)));
  });
  return {
    info: JSON.parse(line) as BenchServers,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const sameProcess = process.argv.includes('--same-process');
  const { info, stop } = await servers(sameProcess);
  const endpoint = { dir: path.dirname(info.address), address: info.address, tokenPath: path.join(info.root, 'token') };
  const token = Buffer.from(info.token, 'hex');
  const echoLine = `${JSON.stringify({ type: 'request', id: 'x', method: 'ping', params: PAYLOAD })}\n`;

  const protocol = async (): Promise<void> => {
    const client = await connectEndpoint({ endpoint, token });
    await client.request('ping', PAYLOAD);
    client.close();
  };
  const reused = await connectEndpoint({ endpoint, token });
  const requestOnly = async (): Promise<void> => {
    await reused.request('ping', PAYLOAD);
  };

  const cases: Array<{ name: string; run: () => Promise<void>; samples: number[] }> = [
    { name: 'bare echo (baseline)', run: () => bareEcho(info.echo, echoLine), samples: [] },
    { name: 'bare 3-step (same message pattern)', run: () => bareThreeStep(info.greeter, echoLine), samples: [] },
    { name: 'protocol: connect+hello+proof+request', run: protocol, samples: [] },
    { name: 'protocol: request on open connection', run: requestOnly, samples: [] },
  ];
  for (const c of cases) for (let i = 0; i < WARMUP; i += 1) await c.run();
  for (let done = 0; done < ITERATIONS; done += BLOCK) {
    for (const c of cases) {
      for (let i = 0; i < BLOCK; i += 1) {
        const t0 = performance.now();
        await c.run();
        c.samples.push(performance.now() - t0);
      }
    }
  }
  reused.close();
  await stop();

  const base = [...(cases[0] as { samples: number[] }).samples].sort((a, b) => a - b);
  const baseMedian = quantile(base, 0.5);
  const baseP99 = quantile(base, 0.99);
  const rows = cases.map((c) => {
    const sorted = [...c.samples].sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    const p95 = quantile(sorted, 0.95);
    const p99 = quantile(sorted, 0.99);
    return {
      case: c.name,
      n: sorted.length,
      'median µs': Math.round(median * 1000),
      'p95 µs': Math.round(p95 * 1000),
      'p99 µs': Math.round(p99 * 1000),
      'median ×base': (median / baseMedian).toFixed(2),
      'p99 ×base': (p99 / baseP99).toFixed(2),
    };
  });
  console.log(`handoff round trip, ${ITERATIONS} iterations each (+${WARMUP} warm-up), servers in ${sameProcess ? 'the same process' : 'a child process'}, Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`);
  console.table(rows);
  const ratio = Number(rows[2]?.['median ×base']);
  const patternRatio = (quantile([...(cases[2] as { samples: number[] }).samples].sort((a, b) => a - b), 0.5) /
    quantile([...(cases[1] as { samples: number[] }).samples].sort((a, b) => a - b), 0.5)).toFixed(2);
  console.log(`target: protocol round trip within 2× the bare echo → ${ratio <= 2 ? 'MET' : 'NOT MET'} (median ${ratio}×)`);
  console.log(`protocol vs the same message pattern on a bare socket: median ${patternRatio}×`);
}

await main();
