import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateIdentity, publicPart } from '../../crypto/identity.js';
import { addPeer } from '../../crypto/peers.js';
import { openStore } from '../../store/index.js';
import type { SessionStore } from '../../store/types.js';

/** Two data directories standing for two machines, each with its own device identity. */
export interface TwoMachines {
  root: string;
  a: { dataDir: string; store: SessionStore };
  b: { dataDir: string; store: SessionStore };
  /** Pairs b with a (b trusts a's signing key), as `baton device pair` would. */
  pair(): Promise<void>;
  dispose(): Promise<void>;
}

export async function twoMachines(): Promise<TwoMachines> {
  const root = await mkdtemp(join(tmpdir(), 'baton-lifecycle-'));
  const a = { dataDir: join(root, 'a'), store: await openStore(join(root, 'a')) };
  const b = { dataDir: join(root, 'b'), store: await openStore(join(root, 'b')) };
  return {
    root,
    a,
    b,
    async pair() {
      const ia = await loadOrCreateIdentity(a.dataDir, 'laptop');
      const ib = await loadOrCreateIdentity(b.dataDir, 'desk');
      await addPeer(b.dataDir, publicPart(ia));
      await addPeer(a.dataDir, publicPart(ib));
    },
    async dispose() {
      await a.store.close();
      await b.store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Every file under dir with its bytes (hex), to prove a refused import wrote nothing. */
export async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const { readdir, readFile, lstat } = await import('node:fs/promises');
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(d);
    } catch {
      return;
    }
    for (const n of names.sort()) {
      const p = join(d, n);
      const st = await lstat(p);
      if (st.isDirectory()) {
        out[`${rel}${n}/`] = 'dir';
        await walk(p, `${rel}${n}/`);
      } else out[`${rel}${n}`] = (await readFile(p)).toString('base64');
    }
  };
  await walk(dir, '');
  return out;
}
