/**
 * A bench page in real Chromium: an entry module bundled by Vite (React's production build) into
 * bench/.data/<name>/, served from 127.0.0.1, opened with /usr/bin/chromium through Playwright.
 * Shared by the renderer benches of issue 14 (highlighter, 100k conversation).
 */
import { chromium, type Browser } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { build } from 'vite';

export const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
export const ROOT = resolve(import.meta.dirname, '..', '..');

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

export interface BenchPage {
  url: string;
  browser: Browser;
  close: () => Promise<void>;
}

/** Bundles `entry` (module source) and serves it; `api` answers POST /api/<name> with JSON. */
export async function openBenchPage(name: string, entry: string, api: Record<string, (body: unknown) => Promise<unknown>> = {}): Promise<BenchPage> {
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
    process.exit(0);
  }
  const out = join(ROOT, 'bench', '.data', name);
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, 'src'), { recursive: true });
  await writeFile(join(out, 'src', 'entry.tsx'), entry);
  await writeFile(join(out, 'src', 'index.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>bench</title><body><div id="root"></div><script type="module" src="./entry.tsx"></script></body></html>');
  await build({ root: join(out, 'src'), base: './', logLevel: 'warn', mode: 'production', plugins: [react()], build: { outDir: join(out, 'dist'), emptyOutDir: true, minify: true, chunkSizeWarningLimit: 100_000 } });
  const dist = join(out, 'dist');
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const handler = path.startsWith('/api/') ? api[path.slice(5)] : undefined;
    if (handler !== undefined) {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        handler(body.length > 0 ? JSON.parse(body) : null).then(
          (value) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value)),
          (error: Error) => response.writeHead(500).end(error.message),
        );
      });
      return;
    }
    const file = join(dist, path === '/' ? '/index.html' : path);
    if (!file.startsWith(dist) || !existsSync(file)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  return {
    url: `http://127.0.0.1:${port}/`,
    browser,
    close: async () => {
      await browser.close();
      await new Promise<void>((done) => server.close(() => done()));
      await rm(out, { recursive: true, force: true });
    },
  };
}
