import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../../../shared/ids.js';
import type { Manifest } from '../../../shared/manifest.js';
import type { MessageInput } from '../../../shared/message.js';
import { openStore } from '../../store/index.js';
import type { SessionStore } from '../../store/types.js';
import { captureWorkspace } from '../../workspace/capture.js';
import { buildManifest } from '../build-manifest.js';
import { landAndReadBack } from '../send.js';

export interface HandoffFixture {
  root: string;
  dataDir: string;
  workDir: string;
  store: SessionStore;
  /** Lands a session with `count` messages and returns it with a fresh manifest. */
  landed(count?: number, title?: string): Promise<{ sessionId: string; manifest: Manifest }>;
  dispose(): Promise<void>;
}

export function conversation(count: number): MessageInput[] {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `message ${i}`,
    ...(i % 2 === 1 ? { toolCalls: [{ id: `t${i}`, name: 'Bash', input: { command: 'ls' }, exitCode: 0 }] } : {}),
  }));
}

export async function createHandoffFixture(): Promise<HandoffFixture> {
  const root = await mkdtemp(join(tmpdir(), 'baton-handoff-'));
  const dataDir = join(root, 'data');
  const workDir = join(root, 'work');
  await mkdir(workDir);
  const store = await openStore(dataDir);
  return {
    root,
    dataDir,
    workDir,
    store,
    async landed(count = 4, title = 'A session') {
      const session = (await landAndReadBack(store, { cwd: workDir, title, messages: conversation(count) })).session;
      const records = await store.readMessages(session.id);
      const manifest = buildManifest({
        handoffId: newId('h'),
        session,
        records,
        workspace: await captureWorkspace(workDir),
        client: { name: 'test', version: '0' },
      });
      return { sessionId: session.id, manifest };
    },
    async dispose() {
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
