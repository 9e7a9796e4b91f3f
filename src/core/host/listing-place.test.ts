import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingsDir, runtimeListingsDir } from '../paths.js';
import { listingPlace } from './listing-place.js';

// Issue 17: where a host renders the listings it hands the CLI. Only an encrypted store's, with the
// endpoint's directory in memory and outside the data directory, goes there in the clear.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-listing-place-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const memory = () => true;
const disk = () => false;

describe('listingPlace', () => {
  it('keeps a plain store\'s listings in its data directory, unsealed, wherever the endpoint is', () => {
    for (const inMemory of [memory, disk]) {
      expect(listingPlace('/d/baton', '/run/user/1000/baton', false, inMemory)).toMatchObject({ dir: listingsDir('/d/baton'), seal: false });
    }
  });

  it('puts an encrypted store\'s listings in the clear only in an endpoint directory in memory and outside the data directory', () => {
    expect(listingPlace('/d/baton', '/run/user/1000/baton', true, memory)).toMatchObject({ dir: runtimeListingsDir('/run/user/1000/baton'), seal: false });
    // On a disk: sealed in the data directory.
    expect(listingPlace('/d/baton', '/run/user/1000/baton', true, disk)).toMatchObject({ dir: listingsDir('/d/baton'), seal: true });
    // The endpoint inside the data directory (no XDG_RUNTIME_DIR: <data>/run), even on a memory
    // filesystem: every file under the data directory is sealed or allow-listed.
    for (const endpointDir of ['/d/baton/run', '/d/baton', '/d/baton/./x/../run', '/d/baton/run/']) {
      expect(listingPlace('/d/baton', endpointDir, true, memory), endpointDir).toMatchObject({ dir: listingsDir('/d/baton'), seal: true });
    }
    // A sibling whose name starts like the data directory's, or with dots, is outside it.
    expect(listingPlace('/d/baton', '/d/baton-run', true, memory).seal).toBe(false);
    expect(listingPlace('/d/baton', '/d/baton/..run', true, memory).seal).toBe(true);
    expect(listingPlace('/d/baton/sub', '/d/baton/..run', true, memory).seal).toBe(false);
    // The data directory inside the endpoint's (BATON_HOME under XDG_RUNTIME_DIR/baton/listings):
    // the listings folder a host empties would hold the data directory.
    for (const dataDir of ['/run/user/1000/baton/listings/data', '/run/user/1000/baton/listings', '/run/user/1000/baton']) {
      expect(listingPlace(dataDir, '/run/user/1000/baton', true, memory), dataDir).toEqual({ dir: listingsDir(dataDir), seal: true, stale: [listingsDir(dataDir)] });
    }
  });

  it('names both folders a host of the data directory may have left listings in, only where they are apart', () => {
    for (const [encrypted, inMemory] of [[true, memory], [true, disk], [false, memory], [false, disk]] as const) {
      expect(listingPlace('/d/baton', '/run/user/1000/baton', encrypted, inMemory).stale).toEqual([listingsDir('/d/baton'), runtimeListingsDir('/run/user/1000/baton')]);
      expect(listingPlace('/d/baton', '/d/baton/run', encrypted, inMemory).stale).toEqual([listingsDir('/d/baton')]);
    }
  });

  it('follows symbolic links: an endpoint directory that leads into the data directory is inside it', async () => {
    const data = join(root, 'data');
    await mkdir(join(data, 'run'), { recursive: true });
    const link = join(root, 'runtime-link');
    await symlink(join(data, 'run'), link);
    expect(listingPlace(data, link, true, memory)).toMatchObject({ dir: listingsDir(data), seal: true });
    const dataLink = join(root, 'data-link');
    await symlink(data, dataLink);
    expect(listingPlace(dataLink, join(data, 'run'), true, memory)).toMatchObject({ dir: listingsDir(dataLink), seal: true });
    await mkdir(join(root, 'elsewhere'));
    expect(listingPlace(data, join(root, 'elsewhere'), true, memory).seal).toBe(false);
  });
});
