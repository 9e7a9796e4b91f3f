import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editorCommandFor, openInEditor, pathInside } from './open-in-editor.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-editor-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in editor on PATH that records its arguments: a real child process, started detached. */
async function fakeEditor(name: string): Promise<string> {
  const script = join(dir, name);
  await writeFile(script, `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(dir, `${name}.args`)}"\n`);
  await chmod(script, 0o755);
  return join(dir, `${name}.args`);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the editor never ran');
}

describe('open in editor', () => {
  it('runs `code -g path:line` when VS Code is on PATH', async () => {
    const args = await fakeEditor('code');
    const env = { PATH: dir, EDITOR: 'vim' };
    expect(await openInEditor('/w/api/src/main.ts', 12, env)).toEqual({ command: join(dir, 'code'), args: ['-g', '/w/api/src/main.ts:12'] });
    await until(async () => (await readFile(args, 'utf8').catch(() => '')).length > 0);
    expect(await readFile(args, 'utf8')).toBe('-g\n/w/api/src/main.ts:12\n');
  });

  it('else $VISUAL, then $EDITOR, split into words without a shell; else NO_EDITOR', async () => {
    expect(await editorCommandFor('/w/a b.ts', 3, { PATH: dir, VISUAL: 'subl -n', EDITOR: 'vim' })).toEqual({ command: 'subl', args: ['-n', '/w/a b.ts'] });
    expect(await editorCommandFor('/w/a.ts', 3, { PATH: dir, EDITOR: 'gedit' })).toEqual({ command: 'gedit', args: ['/w/a.ts'] });
    await expect(editorCommandFor('/w/a.ts', 3, { PATH: dir })).rejects.toMatchObject({ code: 'NO_EDITOR' });
    await expect(openInEditor('/w/a.ts', 1, { PATH: dir, EDITOR: join(dir, 'missing-editor') })).rejects.toMatchObject({ code: 'EDITOR_FAILED' });
  });

  it('only paths inside the session directory', () => {
    expect(pathInside('/w/api', 'src/main.ts')).toBe('/w/api/src/main.ts');
    for (const outside of ['../other/x.ts', '/etc/passwd', 'src/../../x']) expect(() => pathInside('/w/api', outside)).toThrow(/outside the session's directory/);
  });
});
