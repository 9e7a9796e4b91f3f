import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeMarkedClaudeSessions } from '../importers/test-fixtures/build-logs.js';
import { onMemoryFilesystem } from '../fs/memory-filesystem.js';
import { listingsDir, runtimeListingsDir } from '../paths.js';
import { openHostListing, printHostListingToFd } from '../../cli/commands/list-host.js';
import { connectEndpoint } from '../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { startSecretService, type SecretService } from '../store/at-rest/test-support/secret-service.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { startHostServices, type HostServices } from './host-services.js';

/**
 * Issue 17: an encrypted store's hosted `baton list --json` when XDG_RUNTIME_DIR is in memory (as
 * systemd's /run/user/UID is): a real host over its socket, a real Secret Service. The listing
 * bigger than a frame is rendered in the clear into the endpoint's directory on tmpfs, copied by
 * the CLI as a plain store's, and is the document the socket's parts give; nothing of it is under
 * the data directory, sealed or not, and it is gone when the host stops. (With the endpoint on a
 * disk or inside the data directory the listing is sealed: sealed-hosted-listing.test.ts.)
 */
const SHM = '/dev/shm';
const MARKER = 'NUMBAT-7304-MARKER';
const LEFT_BEHIND = 'listing-0123456789abcdef0123456789abcdef.json';
let service: SecretService;
let root: string;
let runtime: string;
let dataDir: string;
let host: HostServices | undefined;
const saved = { home: process.env.HOME, runtime: process.env.XDG_RUNTIME_DIR };

describe.skipIf(!onMemoryFilesystem(SHM))(`the hosted listing of an encrypted store whose runtime directory is in memory (skipped where ${SHM} is not tmpfs)`, () => {
  beforeAll(async () => {
    service = await startSecretService();
  });
  afterAll(() => service.stop());
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-runtime-listing-'));
    runtime = await mkdtemp(join(SHM, 'baton-runtime-listing-'));
    dataDir = join(root, 'data');
    process.env.HOME = join(root, 'home');
    process.env.XDG_RUNTIME_DIR = runtime;
    await writeMarkedClaudeSessions(process.env.HOME, MARKER, 900, 'eeeeeeee');
    // What a killed host of this runtime directory left: a listing in the clear. The new host empties the folder.
    await mkdir(runtimeListingsDir(join(runtime, 'baton')), { recursive: true, mode: 0o700 });
    await writeFile(join(runtimeListingsDir(join(runtime, 'baton')), LEFT_BEHIND), `${MARKER} left by a killed host`);
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
    for (const [name, value] of [['HOME', saved.home], ['XDG_RUNTIME_DIR', saved.runtime]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(root, { recursive: true, force: true });
    await rm(runtime, { recursive: true, force: true });
  });

  /** The document as the socket's parts give it (what the CLI prints when it opens no file). */
  async function partsDocument(params: Record<string, unknown>): Promise<string> {
    const endpoint = resolveEndpoint(dataDir);
    const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: 5_000 });
    try {
      const first = (await client.request('candidates.list', params, { timeoutMs: 30_000 })) as unknown as { text: string; parts: number; listing?: string };
      const rest = [];
      for (let k = 1; k < first.parts; k++) rest.push(((await client.request('candidates.list', { listing: first.listing, part: k }, { timeoutMs: 30_000 })) as unknown as { text: string }).text);
      return first.text + rest.join('');
    } finally {
      client.close();
    }
  }

  it('is rendered in the clear in the endpoint\'s directory only, printed as the socket\'s parts say, and removed with the host', async () => {
    expect(await host!.dispatch('host:info', {})).toMatchObject({ ok: true, value: { encryption: { state: 'on' } } });
    await host!.candidates.ready;
    await host!.candidates.current();
    const inMemory = runtimeListingsDir(resolveEndpoint(dataDir).dir);
    for (const request of [{ filter: {} }, { filter: { source: 'claude' } }, { filter: {}, limit: 700 }]) {
      const what = JSON.stringify(request);
      // The CLI's fast path (fd 1 in `baton list --json`), here into a real file.
      const outPath = join(root, 'out.json');
      const out = openSync(outPath, 'w');
      try {
        expect(await printHostListingToFd({ agents: true, ...request }, out, dataDir), what).toBe(true);
      } finally {
        closeSync(out);
      }
      const printed = await readFile(outPath, 'utf8');
      const params = { ...request.filter, ...(request.limit !== undefined ? { limit: request.limit } : {}) };
      expect(printed, what).toBe(await partsDocument(params));
      expect(printed.length, what).toBeGreaterThan(256 * 1024 * (request.limit ? 0.5 : 1));
      expect((JSON.parse(printed) as { total: number }).total, what).toBe(900);
      // Opened from the endpoint's folder as a plain file: no key, nothing to open.
      const listing = await openHostListing({ agents: true, ...request }, dataDir);
      expect(listing !== null && 'fd' in listing, what).toBe(true);
      closeSync((listing as { fd: number }).fd);
    }
    const files = await readdir(inMemory);
    expect(files).not.toContain(LEFT_BEHIND);
    expect(files.filter((n) => n.endsWith('.json')).length).toBeGreaterThanOrEqual(3);
    expect((await stat(inMemory)).mode & 0o777).toBe(0o700);
    for (const name of files) expect((await stat(join(inMemory, name))).mode & 0o777, name).toBe(0o600);
    expect(files.filter((n) => n.endsWith('.sealed'))).toEqual([]);
    expect((await readFile(join(inMemory, files.find((n) => n.endsWith('.json'))!), 'utf8')).includes(MARKER)).toBe(true);
    // Nothing under the data directory holds a title: no listing there, sealed or not.
    await expect(readdir(listingsDir(dataDir))).rejects.toMatchObject({ code: 'ENOENT' });
    for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      expect((await readFile(path)).includes(MARKER), path).toBe(false);
    }
    // Gone with the host: its clear text never outlives it.
    await host!.close();
    host = undefined;
    expect(await readdir(inMemory)).toEqual([]);
  }, 120_000);
});
