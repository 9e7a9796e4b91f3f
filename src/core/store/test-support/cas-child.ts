import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';
import { openStore } from '../index.js';

/**
 * Two-writers child: increments `counter` in session.json N times. "cas" uses the store's
 * compare-and-swap and retries on CONFLICT; "blind" reads and rewrites without it (the control:
 * it must lose updates, showing the test can fail). Prints the number of applied updates.
 */
const [root, id, nArg, mode] = process.argv.slice(2) as [string, string, string, 'cas' | 'blind'];
const store = await openStore(root);
let conflicts = 0;
for (let i = 0; i < Number(nArg); i++) {
  for (;;) {
    const doc = await store.getSession(id);
    const counter = ((doc as Record<string, unknown>).counter as number | undefined) ?? 0;
    if (mode === 'blind') {
      await writeFileAtomic(join(store.sessionDir(id), 'session.json'), JSON.stringify({ ...doc, counter, revision: doc.revision }).replace(/"counter":\d+/, `"counter":${counter + 1}`));
      break;
    }
    try {
      await store.update(id, doc.revision, (d) => ({ ...d, counter: counter + 1 }));
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONFLICT') throw error;
      conflicts += 1;
    }
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ applied: Number(nArg), conflicts })}\n`);
