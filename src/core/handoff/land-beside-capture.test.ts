import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SESSIONS_DIR } from '../store/layout.js';
import { captureWorkspaceWithPatch, type CapturedWorkspace } from '../workspace/capture.js';
import { landAndReadBack } from './send.js';
import { conversation, createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';

/** How long the test waits for the landing's staging directory to hold a written artifact before the capture is let through. */
const STAGING_WAIT_MS = 5_000;

let fixture: HandoffFixture;
beforeEach(async () => {
  fixture = await createHandoffFixture();
});
afterEach(async () => fixture.dispose());

/** A real repository with one commit and one changed file, at the fixture's work directory. */
async function dirtyRepository(): Promise<void> {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: fixture.workDir });
  await writeFile(join(fixture.workDir, 'a.ts'), 'export const a = 1;\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'start');
  await writeFile(join(fixture.workDir, 'a.ts'), 'export const a = 2;\n');
}

/** Files under a landing's staging directory (`.<id>.….creating`), or [] while there is none. */
async function stagedFiles(): Promise<string[]> {
  const sessions = join(fixture.dataDir, SESSIONS_DIR);
  const staging = (await readdir(sessions).catch(() => [] as string[])).filter((name) => name.endsWith('.creating'));
  const files: string[] = [];
  for (const dir of staging) files.push(...(await readdir(join(sessions, dir, 'artifacts')).catch(() => [] as string[])));
  return files;
}

describe('landAndReadBack beside the workspace capture (issue 20)', () => {
  it('writes the messages while git still runs, and the capture\'s patch, workspace and directory land with them', async () => {
    await dirtyRepository();
    const real = captureWorkspaceWithPatch(fixture.workDir);
    let letThrough!: () => void;
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    // The capture answers only once the test saw the landing under way without it.
    const capture: Promise<CapturedWorkspace> = held.then(() => real);
    const landing = landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 'beside', messages: conversation(150), capture });
    const deadline = Date.now() + STAGING_WAIT_MS;
    while ((await stagedFiles()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const stagedBeforeCapture = await stagedFiles();
    letThrough();
    const { session } = await landing;

    // Before the capture answered, the landing had begun: its staging directory held a written artifact.
    expect(stagedBeforeCapture.length).toBeGreaterThan(0);
    const captured = await real;
    expect(captured.snapshot.git?.patch).toBeTruthy();
    expect(session.cwd).toBe(captured.snapshot.cwd);
    expect(session.gitRoot).toBe(captured.snapshot.git!.root);
    expect(session.branch).toBe('main');
    const ref = session.workspace!.git!.patch!.ref!;
    expect(ref).toMatch(/^artifacts\/[0-9a-f]{64}\.patch$/);
    expect(await readFile(join(fixture.store.sessionDir(session.id), ref))).toEqual(captured.patchBytes);
    expect(session.messageCount).toBe(150);
    // What is on disk is what was returned: session.json was written once, with the capture in it.
    expect(await fixture.store.getSession(session.id)).toMatchObject({ cwd: session.cwd, gitRoot: session.gitRoot, branch: 'main', workspace: session.workspace });
  }, 20_000);

  it('a capture that fails leaves no session and no staging directory, and its own error is thrown', async () => {
    const failure = Object.assign(new Error('git broke'), { code: 'GIT_FAILED' });
    await expect(landAndReadBack(fixture.store, { cwd: fixture.workDir, title: 'broken', messages: conversation(20), capture: Promise.reject(failure) })).rejects.toBe(failure);
    expect(await readdir(join(fixture.dataDir, SESSIONS_DIR)).catch(() => [])).toEqual([]);
  });
});
