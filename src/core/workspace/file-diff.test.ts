import { mkdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceSnapshot } from '../../shared/workspace.js';
import { captureWorkspaceWithPatch } from './capture.js';
import { FILE_INLINE_MAX_BYTES, fileDiff, imageMimeOf, listDiffFiles } from './file-diff.js';
import { cleanupTemp, makeRepo, sha256 } from './test-support/repo.js';

afterAll(cleanupTemp);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const BIG = `${'a line of a large generated file\n'.repeat(Math.ceil((FILE_INLINE_MAX_BYTES + 1024) / 33))}`;

async function changedRepo() {
  const repo = makeRepo();
  repo.write('src/main.ts', 'const x = 1;\n');
  repo.write('logo.png', PNG);
  repo.write('moved.md', '# title\n\nsome\ntext\nhere\n');
  repo.write('gone.txt', 'gone\n');
  repo.commitAll('base');
  repo.write('src/main.ts', 'const x = 2;\n');
  repo.write('logo.png', Buffer.concat([PNG, PNG]));
  mkdirSync(join(repo.root, 'docs'));
  repo.git('mv', 'moved.md', 'docs/moved.md');
  repo.write('docs/moved.md', '# title\n\nsome\ntext\nhere\nmore\n');
  unlinkSync(join(repo.root, 'gone.txt'));
  repo.write('generated.txt', BIG);
  const captured = await captureWorkspaceWithPatch(repo.root);
  // What the UI receives went through JSON and the contract schema.
  const snapshot = WorkspaceSnapshot.parse(JSON.parse(JSON.stringify(captured.snapshot)));
  return { repo, snapshot, patch: captured.patchBytes! };
}

describe('listDiffFiles', () => {
  it('lists the changed files sorted, with counts per status and line totals', async () => {
    const { snapshot } = await changedRepo();
    const list = listDiffFiles(snapshot);
    expect(list.files.map((f) => f.path)).toEqual(['docs/moved.md', 'generated.txt', 'gone.txt', 'logo.png', 'src/main.ts']);
    expect(list.counts).toEqual({ renamed: 1, untracked: 1, deleted: 1, modified: 2 });
    expect(list.total).toBe(5);
    expect(list.additions).toBe(1 + BIG.split('\n').length - 1 + 1);
    expect(list.deletions).toBe(1 + 1);
  });
});

describe('imageMimeOf', () => {
  it('knows PNG, JPEG, GIF and WebP by their bytes, and nothing else whatever the name', () => {
    expect(imageMimeOf(PNG)).toBe('image/png');
    expect(imageMimeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(imageMimeOf(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(imageMimeOf(Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    for (const other of ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', '<html>', 'RIFF\x00\x00\x00\x00WAVE', '', '\x89PNG']) {
      expect(imageMimeOf(Buffer.from(other, 'latin1'))).toBeNull();
    }
  });
});

describe('fileDiff', () => {
  it('drift: a file the handoff did not change, against the disk, is the disk vs the handed-off HEAD; other paths are refused', async () => {
    const { repo, snapshot, patch } = await changedRepo();
    repo.write('README.md', '# readme\n');
    repo.commitAll('add readme');
    const later = WorkspaceSnapshot.parse(JSON.parse(JSON.stringify((await captureWorkspaceWithPatch(repo.root)).snapshot)));
    repo.write('README.md', '# readme, edited here after the handoff\n');
    const diff = await fileDiff({ snapshot: later, patch, path: 'README.md', against: 'disk' });
    expect(diff).toMatchObject({ against: 'disk', original: { kind: 'text', text: '# readme, edited here after the handoff\n' }, modified: { kind: 'text', text: '# readme\n' } });
    for (const path of ['../outside.txt', '/etc/passwd', 'never-existed.txt']) {
      await expect(fileDiff({ snapshot: later, patch, path, against: 'disk' })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_IN_HANDOFF' });
    }
    await expect(fileDiff({ snapshot, patch, path: 'README.md' })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_IN_HANDOFF' });
    // A file made on this disk afterwards (an agent run wrote it): the handed-off side has no file.
    repo.write('made-later.txt', 'new here\n');
    expect(await fileDiff({ snapshot: later, patch, path: 'made-later.txt', against: 'disk' })).toMatchObject({ status: 'untracked', original: { kind: 'text', text: 'new here\n' }, modified: { kind: 'absent' } });
  });

  it('gives HEAD and handed-off text for a modified file', async () => {
    const { snapshot, patch } = await changedRepo();
    const diff = await fileDiff({ snapshot, patch, path: 'src/main.ts' });
    expect(diff).toMatchObject({ status: 'modified', against: 'head', original: { kind: 'text', text: 'const x = 1;\n' }, modified: { kind: 'text', text: 'const x = 2;\n' } });
  });

  it('reads the original of a rename from its old path', async () => {
    const { snapshot, patch } = await changedRepo();
    const diff = await fileDiff({ snapshot, patch, path: 'docs/moved.md' });
    expect(diff.oldPath).toBe('moved.md');
    expect(diff.original).toMatchObject({ kind: 'text', text: '# title\n\nsome\ntext\nhere\n' });
    expect(diff.modified).toMatchObject({ kind: 'text', text: '# title\n\nsome\ntext\nhere\nmore\n' });
  });

  it('describes binary files by size and hash, never inline', async () => {
    const { snapshot, patch } = await changedRepo();
    const diff = await fileDiff({ snapshot, patch, path: 'logo.png' });
    expect(diff.binary).toBe(true);
    // A PNG (by its bytes) carries them for the preview.
    expect(diff.original).toEqual({ kind: 'binary', size: PNG.length, sha256: sha256(PNG), image: { mime: 'image/png', base64: PNG.toString('base64') } });
    expect(diff.modified).toEqual({
      kind: 'binary',
      size: PNG.length * 2,
      sha256: sha256(Buffer.concat([PNG, PNG])),
      image: { mime: 'image/png', base64: Buffer.concat([PNG, PNG]).toString('base64') },
    });
  });

  it('flags a file over the inline limit for opening on demand, and inlines it when asked', async () => {
    const { snapshot, patch } = await changedRepo();
    const lazy = await fileDiff({ snapshot, patch, path: 'generated.txt' });
    expect(lazy.original).toEqual({ kind: 'absent' });
    expect(lazy.modified).toEqual({ kind: 'too-large', size: BIG.length, sha256: sha256(BIG) });
    const full = await fileDiff({ snapshot, patch, path: 'generated.txt', full: true });
    expect(full.modified).toMatchObject({ kind: 'text', size: BIG.length });
  });

  it('shows a deleted file as absent on the handed-off side', async () => {
    const { snapshot, patch } = await changedRepo();
    const diff = await fileDiff({ snapshot, patch, path: 'gone.txt' });
    expect(diff).toMatchObject({ original: { kind: 'text', text: 'gone\n' }, modified: { kind: 'absent' } });
  });

  it('compares the handed-off content with the disk when asked (partial rehydration)', async () => {
    const { repo, snapshot, patch } = await changedRepo();
    repo.write('src/main.ts', 'const x = 3; // edited on the desktop side\n');
    const diff = await fileDiff({ snapshot, patch, path: 'src/main.ts', against: 'disk' });
    expect(diff).toMatchObject({ against: 'disk', original: { kind: 'text', text: 'const x = 3; // edited on the desktop side\n' }, modified: { kind: 'text', text: 'const x = 2;\n' } });
  });

  it('without a stored patch, serves the disk only while it still holds the handed-off bytes', async () => {
    const { repo, snapshot } = await changedRepo();
    expect((await fileDiff({ snapshot, patch: null, path: 'src/main.ts' })).modified).toMatchObject({ kind: 'text', text: 'const x = 2;\n' });
    repo.write('src/main.ts', 'drifted\n');
    expect((await fileDiff({ snapshot, patch: null, path: 'src/main.ts' })).modified.kind).toBe('unavailable');
  });

  it('refuses a path that is not among the changes', async () => {
    const { snapshot, patch } = await changedRepo();
    await expect(fileDiff({ snapshot, patch, path: 'nope.txt' })).rejects.toMatchObject({ code: 'WORKSPACE_NOT_IN_HANDOFF' });
  });
});
