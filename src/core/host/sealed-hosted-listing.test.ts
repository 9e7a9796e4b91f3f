import { execFile } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeMarkedClaudeSessions } from '../importers/test-fixtures/build-logs.js';
import { LIST_JSON_VERSION } from '../importers/list-json.js';
import { listingsDir } from '../paths.js';
import { listFromHost, openHostListing, printHostListing, printHostListingToFd } from '../../cli/commands/list-host.js';
import { dataKeyOf, newDataKey } from '../store/at-rest/aead.js';
import { connectEndpoint } from '../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { FILE_MAGIC } from '../store/at-rest/at-rest-cipher.js';
import { sealListing } from '../store/at-rest/sealed-listing.js';
import { startSecretService, type SecretService } from '../store/at-rest/test-support/secret-service.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { createCandidateMethods } from './candidate-listing.js';
import { startHostServices, type HostServices } from './host-services.js';

/**
 * The hosted listing of an encrypted store (issue 17), end to end against a real Secret Service:
 * a real host over its socket seals a listing bigger than a frame into its listings folder under
 * a key made for that render, and the CLI's own code (list-host.ts) opens it with the key from
 * the socket answer. Opened, it is byte for byte the plain host's listing file of the same
 * candidates; the key is in no file. A file that was changed, cut, sealed under another key or
 * belongs to another request is refused and the CLI gets the same document from the socket
 * parts: never garbage, never a partial print.
 */
const MARKER = 'WOMBAT-5521-MARKER';
let service: SecretService;
let root: string;
let home: string;
let dataDir: string;
let host: HostServices | undefined;
const saved = { home: process.env.HOME, runtime: process.env.XDG_RUNTIME_DIR };

beforeAll(async () => {
  service = await startSecretService();
});
afterAll(() => service.stop());
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-sealed-hosted-'));
  home = join(root, 'home');
  dataDir = join(root, 'data');
  process.env.HOME = home;
  delete process.env.XDG_RUNTIME_DIR;
  // ~900 rows of ~300 bytes: several frames' worth of listing, titles carrying the marker.
  await writeMarkedClaudeSessions(home, MARKER, 900, 'dddddddd');
  host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  process.env.HOME = saved.home;
  if (saved.runtime !== undefined) process.env.XDG_RUNTIME_DIR = saved.runtime;
  await rm(root, { recursive: true, force: true });
});

/** `listFromHost` in a child process of its own (its own keychain reads), as the CLI runs it. */
function cliListing(env: Record<string, string>): Promise<string> {
  const script = `import { listFromHost } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'cli', 'commands', 'list-host.ts'))}; const t = await listFromHost({ agents: true, filter: {} }, ${JSON.stringify(dataDir)}); process.stdout.write(t ?? 'NO HOST');`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
  });
}

/** One `candidates.list` answer over the host's socket, as the CLI asks. */
async function ask(params: Record<string, unknown>): Promise<{ sealedKey: string; file: string }> {
  const endpoint = resolveEndpoint(dataDir);
  const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: 5_000 });
  try {
    return (await client.request('candidates.list', params, { timeoutMs: 30_000 })) as unknown as { sealedKey: string; file: string };
  } finally {
    client.close();
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function sealedFiles(): Promise<string[]> {
  return (await readdir(listingsDir(dataDir))).filter((n) => n.endsWith('.sealed')).map((n) => join(listingsDir(dataDir), n));
}

describe('the sealed hosted listing', () => {
  it('is sealed on disk, opened by the CLI with the key from the answer, and byte for byte the plain listing file of the same candidates', async () => {
    expect(await host!.dispatch('host:info', {})).toMatchObject({ ok: true, value: { encryption: { state: 'on' } } });
    await host!.candidates.ready;
    await host!.candidates.current();
    // A plain host's methods over the same candidates and rows write the plain file to compare with.
    const plainDir = join(root, 'plain-listings');
    const plain = createCandidateMethods({ candidates: host!.candidates, listRows: () => host!.store.list({ includeArchived: true }), cliVersion: LIST_JSON_VERSION, listingDir: plainDir });
    const cases = [{ filter: {} }, { filter: { cwd: '/home/dev/p3' } }, { filter: { source: 'claude' } }, { filter: {}, limit: 700 }];
    for (const request of cases) {
      const listing = await openHostListing({ agents: true, ...request }, dataDir);
      expect(listing !== null && 'pieces' in listing, JSON.stringify(request)).toBe(request.filter.cwd === undefined);
      if (request.filter.cwd !== undefined) continue; // one frame: answered in the frame, no file
      const opened = Buffer.concat((listing as { pieces: Buffer[] }).pieces);
      const answer = (await plain['candidates.list']!({ id: 'p', method: 'candidates.list', params: { ...request.filter, ...(request.limit !== undefined ? { limit: request.limit } : {}), fileFirst: true } } as never, {} as never)) as unknown as { file: string };
      const plainFile = await readFile(answer.file);
      expect(opened.equals(plainFile), JSON.stringify(request)).toBe(true);
      expect(opened.length).toBeGreaterThan(256 * 1024 * (request.limit ? 0.5 : 1));
    }
    const files = await sealedFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const path of files) {
      const bytes = await readFile(path);
      expect(bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC), path).toBe(true);
      expect(bytes.includes(MARKER), path).toBe(false);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    }
    // No plain listing in the encrypted store's folder.
    expect((await readdir(listingsDir(dataDir))).filter((n) => !n.endsWith('.sealed'))).toEqual([]);
    // Each render has its own key, handed over in the answer and written nowhere under the data directory.
    const keys = new Set<string>();
    for (const request of [{}, { source: 'claude' }, { limit: 700 }]) {
      const answer = await ask({ ...request, fileFirst: true });
      expect(answer.sealedKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      keys.add(answer.sealedKey);
    }
    expect(keys.size).toBe(3);
    for (const path of await filesUnder(dataDir)) {
      const bytes = await readFile(path);
      for (const k of keys) expect(bytes.includes(k) || bytes.includes(Buffer.from(k, 'base64')), path).toBe(false);
    }
    // What `baton list --json` prints through the fast path (printHostListing) is the same document.
    const chunks: Buffer[] = [];
    const sink = { write: (c: string | Uint8Array, done?: (e?: Error | null) => void) => (chunks.push(Buffer.from(c)), done?.(), true) };
    expect(await printHostListing({ agents: true, filter: {} }, sink, dataDir)).toBe(true);
    const whole = Buffer.concat(chunks).toString('utf8');
    expect((JSON.parse(whole) as { total: number }).total).toBe(900);
    expect(whole).toContain(MARKER);
    // The fast path itself writes to a descriptor (fd 1): the same bytes, here into a real file.
    const outPath = join(dataDir, 'fd-out.json');
    const out = openSync(outPath, 'w');
    try {
      expect(await printHostListingToFd({ agents: true, filter: {} }, out, dataDir)).toBe(true);
    } finally {
      closeSync(out);
    }
    expect((await readFile(outPath)).equals(Buffer.concat(chunks))).toBe(true);
    await rm(outPath);
  }, 120_000);

  it('a changed, cut, foreign-key or other request\'s file is refused and the CLI prints the socket parts\' document instead', async () => {
    await host!.candidates.ready;
    const whole = await listFromHost({ agents: true, filter: {} }, dataDir);
    const limited = await listFromHost({ agents: true, filter: {}, limit: 700 }, dataDir);
    expect(whole).not.toBeNull();
    const files = await sealedFiles();
    expect(files).toHaveLength(2);
    const byLength = await Promise.all(files.map(async (f) => ({ f, bytes: await readFile(f) })));
    byLength.sort((a, b) => b.bytes.length - a.bytes.length);
    const [wholeFile, limitedFile] = [byLength[0]!, byLength[1]!];
    const name = wholeFile.f.slice(wholeFile.f.lastIndexOf('/') + 1);
    const flipped = Buffer.from(wholeFile.bytes);
    flipped[flipped.length >> 1] = flipped[flipped.length >> 1]! ^ 0x10;
    const tampered: Array<[string, Buffer]> = [
      ['a flipped bit', flipped],
      ['truncated', wholeFile.bytes.subarray(0, wholeFile.bytes.length - 100)],
      ['another key', sealListing(newDataKey(), name, Buffer.from('{"ok":true,"groups":[]}\n'))],
      ['the --limit listing under this name', limitedFile.bytes],
      ['plaintext', Buffer.from('{"ok":true,"groups":[],"total":0}\n')],
    ];
    for (const [what, bytes] of tampered) {
      await writeFile(wholeFile.f, bytes);
      const listing = await openHostListing({ agents: true, filter: {} }, dataDir);
      expect(listing !== null && 'text' in listing, what).toBe(true);
      expect((listing as { text: string }).text, what).toBe(whole);
    }
    // Without a readable key (the keychain entry gone: as for a passphrase store, the CLI holds none), the parts too.
    await writeFile(wholeFile.f, wholeFile.bytes);
    expect(await listFromHost({ agents: true, filter: {} }, dataDir)).toBe(whole);
    // A CLI process with no reachable keychain (as for a passphrase store's CLI) opens the sealed file with the answer's key.
    await writeFile(wholeFile.f, Buffer.from('{"ok":true,"groups":[],"total":0}\n'));
    expect(await cliListing({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })).toBe(whole); // refused file: parts
    // The file is what it prints: sealed again under the answer's key with other text, that text is printed.
    const { sealedKey, file } = await ask({ agents: true, fileFirst: true });
    expect(file).toBe(wholeFile.f);
    const other = `${whole!.slice(0, -2)} \n`;
    await writeFile(file, sealListing(dataKeyOf(Buffer.from(sealedKey, 'base64')), name, Buffer.from(other)));
    expect(await cliListing({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })).toBe(other);
    await writeFile(file, wholeFile.bytes);
    expect(await cliListing({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })).toBe(whole);
    expect(limited).not.toBeNull();
  }, 120_000);
});
