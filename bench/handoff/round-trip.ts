/**
 * Socket round trip of the handoff protocol against the floor of the same kind of socket.
 *
 *   bare echo      connect + one line out + the same line back + close (plain net, no protocol)
 *   bare 3-step    the protocol's message pattern on a plain socket, no crypto, no parsing:
 *                  connect, server line, client line, echo, client line, echo, close
 *   protocol       connect + hello + proof + ack + one request/answer + close (connectEndpoint)
 *   request only   one request/answer on an already authenticated connection
 *
 * Run: npx tsx bench/handoff/round-trip.ts [iterations]
 * Server and client share one process (as in the CLI-to-desktop case, each side has one event
 * loop); the two measured paths alternate in blocks so drift hits both equally.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectEndpoint } from '../../src/core/transport/client.js';
import { ensureEndpointDir, resolveEndpoint } from '../../src/core/transport/endpoint.js';
import { startEndpointServer } from '../../src/core/transport/server.js';

const ITERATIONS = Number(process.argv[2] ?? 2_000);
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

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'baton-bench-'));
  const endpoint = resolveEndpoint(root, {}, 'linux');
  const token = randomBytes(32);
  const server = await startEndpointServer({ endpoint, token, handle: async (request) => ({ ok: true, echo: request.params }) });

  const echoDir = path.join(root, 'echo');
  await ensureEndpointDir(echoDir);
  const echoAddress = path.join(echoDir, 'echo.sock');
  const echo = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => socket.write(chunk));
  });
  await new Promise<void>((resolve) => echo.listen(echoAddress, resolve));
  const greeterAddress = path.join(echoDir, 'greeter.sock');
  const greeter = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('{"type":"hello"}\n');
    socket.on('data', (chunk) => socket.write(chunk));
  });
  await new Promise<void>((resolve) => greeter.listen(greeterAddress, resolve));
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
    { name: 'bare echo (baseline)', run: () => bareEcho(echoAddress, echoLine), samples: [] },
    { name: 'bare 3-step (same message pattern)', run: () => bareThreeStep(greeterAddress, echoLine), samples: [] },
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
  await server.close();
  await new Promise((resolve) => echo.close(resolve));
  await new Promise((resolve) => greeter.close(resolve));
  await rm(root, { recursive: true, force: true });

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
  console.log(`handoff round trip, ${ITERATIONS} iterations each (+${WARMUP} warm-up), Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`);
  console.table(rows);
  const ratio = Number(rows[2]?.['median ×base']);
  const patternRatio = (quantile([...(cases[2] as { samples: number[] }).samples].sort((a, b) => a - b), 0.5) /
    quantile([...(cases[1] as { samples: number[] }).samples].sort((a, b) => a - b), 0.5)).toFixed(2);
  console.log(`target: protocol round trip within 2× the bare echo → ${ratio <= 2 ? 'MET' : 'NOT MET'} (median ${ratio}×)`);
  console.log(`protocol vs the same message pattern on a bare socket: median ${patternRatio}×`);
}

await main();
