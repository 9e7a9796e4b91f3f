import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { onMemoryFilesystem } from '../fs/memory-filesystem.js';
import { isInside } from '../importers/locate.js';
import { listingsDir, runtimeListingsDir } from '../paths.js';

/** Where a host renders the `baton list --json` documents it hands the CLI as files, and whether it seals them. */
export interface ListingPlace {
  dir: string;
  seal: boolean;
  /** Both folders a host of this data directory may have written listings to: a new host empties them (candidate-listing.ts). */
  stale: string[];
}

/**
 * A listing bigger than a socket frame goes to a file the CLI copies to stdout (candidate-listing.ts).
 * Unencrypted: the data directory's listings folder, as before. Encrypted, the document must not be
 * on a disk in the clear. When the endpoint's directory (XDG_RUNTIME_DIR/baton: 0700, the socket's)
 * is on a memory filesystem and outside the data directory, the listing is written there in the
 * clear: it never reaches a disk, and the CLI copies it as a plain store's, with no deciphering.
 * Sealing it cost an encrypted `baton list --json` ~35 ms of CPU more than a plain one at 20,000
 * sessions, nearly all of it the 5.5 MB of opened pieces landing in fresh memory (bench/README.md,
 * issue 17, twenty-seventh sitting). Anywhere else (macOS, Windows, no XDG_RUNTIME_DIR, a runtime
 * directory on a disk or inside the data directory), it is sealed in the data directory as before.
 */
export function listingPlace(dataDir: string, endpointDir: string, encrypted: boolean, inMemory: (dir: string) => boolean = onMemoryFilesystem): ListingPlace {
  // Apart, neither inside the other: a data directory inside the endpoint's listings folder would be emptied with it.
  const apart = !isWithin(endpointDir, dataDir) && !isWithin(dataDir, endpointDir);
  const stale = apart ? [listingsDir(dataDir), runtimeListingsDir(endpointDir)] : [listingsDir(dataDir)];
  if (encrypted && apart && inMemory(endpointDir)) return { dir: runtimeListingsDir(endpointDir), seal: false, stale };
  return { dir: listingsDir(dataDir), seal: encrypted, stale };
}

/** Whether `dir` is `root` or inside it, symbolic links resolved where the paths exist. */
function isWithin(dir: string, root: string): boolean {
  return isInside(realOrResolved(dir), realOrResolved(root));
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
