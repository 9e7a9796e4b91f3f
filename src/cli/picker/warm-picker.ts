import { PassThrough } from 'node:stream';
import { groupsOfDocument } from '../commands/list-document.js';
import { pickSession } from './resume-picker.js';

/**
 * Runs the picker once off screen, for scripts/build-cli.js: the resume bundle's V8 code cache is
 * taken after this, so the functions of the first screen (a host's document parsed into groups,
 * the model, clack's autocomplete and its first render) come compiled from the cache instead of
 * being compiled while the person waits. Escape ends it as soon as the first frame is written.
 * Resolves to what the picker wrote (its first frame and the cancel).
 */
export async function warmPicker(): Promise<string> {
  const row = { id: 'claude:warm', cwd: '/warm/project', gitRoot: null, branch: null, title: 'warm the code cache', updatedAt: '2026-11-30T00:00:00.000Z', messageCount: 1, source: 'claude', parentId: null, archived: false };
  const { groups, total } = groupsOfDocument(JSON.stringify({ groups: [{ cwd: row.cwd, newestAt: 0, sessions: [row] }], total: 1, notes: [] }));
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.once('data', () => setImmediate(() => input.write('\u001b')));
  output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const picked = await pickSession(groups, total, { input, output });
  if (picked !== null) throw new Error('the off-screen picker picked a row instead of cancelling');
  return written;
}
