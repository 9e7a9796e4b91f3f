import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/fixtures.js';
import { SCREENS } from '../support/screens.js';
import { CandidatesPage } from '../pages/candidates-page.js';
import { ComposerPage } from '../pages/composer-page.js';
import { agentBinaries, makeAgentHome, seedClaudeSession, seedCodexSession, type AgentBinaries } from '../../src/core/agent-run/test-support/agent-home.js';
import { startStandInModel, type StandInModel } from '../../src/core/agent-run/test-support/stand-in-model.js';

/**
 * Issue 19, end to end: the real `claude` 2.1.328 (agent cache) continues an imported session from
 * the composer in Chromium, through the real `baton serve`; only the model is the loopback stand-in.
 */
// Written where the other specs put theirs (not committed); the copies in docs/screenshots come from a run of this spec.
const SHOTS = SCREENS;

let binaries: AgentBinaries;
let model: StandInModel;
/** The agents' private homes made by the tests, removed at the end. */
const homes: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(600_000);
  // Installs the pinned CLIs once per machine; a failed download fails here, never skips.
  binaries = agentBinaries();
  model = await startStandInModel();
});
test.afterAll(async () => {
  await model?.close();
  for (const root of homes) rmSync(root, { recursive: true, force: true });
});

/** Processes whose command line names this Claude Code session (the run Baton started). */
function agentProcesses(externalId: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(`--resume ${externalId}`) && !l.includes('ps -eo'));
}

test.describe('continue an agent session in the desktop (issue 19)', () => {
  test('send a follow-up, watch the tool call stream, approve, deny, stop, and hand back', async ({ page, launchHost }) => {
    test.setTimeout(180_000);
    const agent = makeAgentHome(model.url, binaries);
    homes.push(agent.root);
    model.script([{ kind: 'text', text: 'Hello from the terminal turn.' }]);
    // A git project: the run's baseline is captured from it, and the Changes tab diffs the agent's file against it.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: agent.project });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'start');
    const { sessionId, transcript } = await seedClaudeSession(agent, binaries);

    const host = await launchHost(agent.env);
    await page.goto(host.url);
    const candidates = new CandidatesPage(page);
    await candidates.select('claude', sessionId);
    await candidates.openInBaton();
    const composer = new ComposerPage(page);
    await expect(composer.root()).toHaveAttribute('data-available', 'true');
    await expect(page.getByTestId('composer-model')).toBeVisible();

    // 1. A follow-up whose tool call waits for an approval in the UI, then runs.
    // A high-risk call (eval: dynamic, so the policy cannot read it): approving takes the second, deliberate click.
    model.script([{ kind: 'shell', command: 'eval "echo written by the agent > e2e-made.txt" && echo made-it' }, { kind: 'text', text: 'Made the file.' }]);
    await composer.send('make the file');
    await expect(composer.tools().first()).toHaveAttribute('data-status', 'running');
    await expect(composer.approval()).toContainText('echo written by the agent > e2e-made.txt');
    await expect(composer.approval()).toHaveAttribute('data-risk', 'high');
    // The streamed run as a person sees it mid-way: the tool card running, its approval asked here.
    mkdirSync(SHOTS, { recursive: true });
    await composer.approval().scrollIntoViewIfNeeded();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: join(SHOTS, 'continue-in-desktop-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'continue-in-desktop-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await composer.approval().getByTestId('run-approve').click();
    await expect(composer.approval().getByTestId('run-approve-confirm')).toBeVisible();
    await composer.approval().getByTestId('run-approve-confirm').click();
    await expect(composer.tools().first()).toHaveAttribute('data-status', 'done');
    await expect(composer.tools().first().getByTestId('run-tool-output')).toHaveText('made-it');
    await expect(page.getByTestId('run-text').last()).toHaveText('Made the file.');
    await expect(composer.state()).toHaveText('Finished');
    expect(readFileSync(join(agent.project, 'e2e-made.txt'), 'utf8')).toBe('written by the agent\n');
    // The watcher saw the agent's edit while the run went.
    await expect(page.getByTestId('run-file')).toContainText(['e2e-made.txt']);
    await composer.root().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'continue-in-desktop-finished.png') });
    // The agent's own log holds the new turn; `claude --resume` continues from it.
    expect(readFileSync(transcript, 'utf8')).toContain('Made the file.');

    // 2. A denied call is not run, and the agent reports the denial.
    model.script([{ kind: 'shell', command: 'rm -rf e2e-build' }, { kind: 'text', text: 'Understood: I did not delete it.' }]);
    await composer.send('clean the build');
    await composer.deny();
    await expect(composer.tools().first()).toHaveAttribute('data-status', 'failed');
    await expect(composer.tools().first().getByTestId('run-tool-output')).toContainText('Denied in Baton');
    await expect(page.getByTestId('run-text').last()).toHaveText('Understood: I did not delete it.');

    // 3. A long run is stopped, and its process is gone.
    model.script([{ kind: 'shell', command: 'for i in $(seq 120); do echo tick $i; sleep 1; done' }, { kind: 'text', text: 'never' }]);
    await composer.send('wait for a while');
    await composer.approve();
    await expect(composer.state()).toHaveText('Running');
    expect(agentProcesses(sessionId).length).toBeGreaterThan(0);
    await composer.stop();
    await expect(composer.state()).toHaveText('Stopped', { timeout: 15_000 });
    expect(agentProcesses(sessionId)).toEqual([]);

    // 4. Continue in terminal hands the baton back with the exact command.
    const shown = await composer.handBack();
    await expect(shown).toContainText(`claude --resume ${sessionId}`);

    // 5. The Changes tab: the file the agent wrote, as a diff against the baseline taken before the run.
    await page.getByRole('tab', { name: 'Changes' }).click();
    const made = page.locator('[data-testid="drifted-file"][data-path="e2e-made.txt"]');
    await made.getByTestId('drift-show-diff').click();
    await expect(made.getByTestId('drift-diff').locator('.view-lines').first()).toContainText('written by the agent', { timeout: 20_000 });
  });

  test('Codex: the composer names the approval gap, runs codex exec resume in the session sandbox, and streams the answer', async ({ page, launchHost }) => {
    test.setTimeout(120_000);
    const agent = makeAgentHome(model.url, binaries);
    homes.push(agent.root);
    model.script([{ kind: 'text', text: 'Hello from Codex.' }]);
    const { sessionId, rollout } = await seedCodexSession(agent, binaries);
    const host = await launchHost(agent.env);
    await page.goto(host.url);
    const candidates = new CandidatesPage(page);
    await candidates.select('codex', sessionId);
    await candidates.openInBaton();
    const composer = new ComposerPage(page);
    await expect(composer.root()).toHaveAttribute('data-available', 'true');
    // The documented gap, said before anything runs: Codex exec cannot ask; the session's sandbox holds.
    await expect(composer.root()).toContainText('Codex exec cannot ask for approvals');
    await expect(composer.root()).toContainText('sandbox read-only');

    model.script([{ kind: 'shell', command: 'touch codex-e2e.txt' }, { kind: 'text', text: 'The sandbox refused the write.' }]);
    await composer.send('make the file');
    await expect(page.getByTestId('run-text').last()).toHaveText('The sandbox refused the write.');
    // Codex's shell call as a tool card (read from its rollout): the command, and the sandbox's refusal.
    await expect(composer.tools().first()).toContainText('touch codex-e2e.txt');
    await expect(composer.tools().first()).toHaveAttribute('data-status', 'failed');
    await expect(composer.tools().first().getByTestId('run-tool-output')).toContainText('Read-only file system');
    // In the browser host, leaving runs going is the env variable of baton serve, and the composer says so.
    await expect(page.getByTestId('composer-leave-runs-env')).toContainText('BATON_LEAVE_RUNS_ON_CLOSE=1');
    await expect(composer.state()).toHaveText('Finished');
    expect(readFileSync(rollout, 'utf8')).toContain('make the file');
    const shown = await composer.handBack();
    await expect(shown).toContainText(`codex resume ${sessionId}`);
  });
});
