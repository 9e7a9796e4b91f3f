/**
 * What `baton handoff` prints for an outcome, and its exit code: one function for the full CLI
 * (commands/handoff.ts) and the hosted handoff's small bundle (handoff-fast.ts), so the two paths
 * cannot print differently. Only light modules here: the small bundle loads no store, no zod.
 */
import { HANDOFF_EXIT_CODE, HandoffCategory, type HandoffOutcome } from '../core/handoff/outcome.js';
import { writeHuman, type Output } from './output.js';
import { resumeCommand } from './resume-command.js';

export function reportHandoff(out: Pick<Output, 'json'>, outcome: HandoffOutcome): number {
  const code = HANDOFF_EXIT_CODE[outcome.category];
  const resume = outcome.sessionId ? resumeCommand(outcome.sessionId) : null;
  const value = {
    category: outcome.category,
    sessionId: outcome.sessionId,
    handoffId: outcome.handoffId,
    savedAt: outcome.sessionDir,
    resumeCommand: code === 0 ? null : resume,
    answer: outcome.answer ?? null,
    message: outcome.message,
    durationsMs: outcome.durationsMs,
    exitCode: code,
  };
  if (out.json) {
    process.stdout.write(`${JSON.stringify({ version: 1, command: 'handoff', ok: code === 0, ...value })}\n`);
    return code;
  }
  if (outcome.category === HandoffCategory.queued) {
    process.stdout.write(`${outcome.message}\nSession ${outcome.sessionId} (handoff ${outcome.handoffId}) is saved at ${outcome.sessionDir}\n`);
    return code;
  }
  if (code === 0) {
    writeHuman('stdout', `${outcome.message}\nSession ${outcome.sessionId} (handoff ${outcome.handoffId}) is saved at ${outcome.sessionDir}`);
  } else {
    const lines = [`Baton could not hand the session off (${outcome.category}): ${outcome.message}`];
    if (outcome.sessionDir) lines.push(`The session is saved at ${outcome.sessionDir}`);
    if (resume) lines.push(`When Baton is running (npm start, or baton serve), resume it with:\n  ${resume}`);
    writeHuman('stderr', lines.join('\n'));
  }
  return code;
}
