/** The command that picks a saved session up again. Session ids are [A-Za-z0-9._-] (shared/ids.ts), so it needs no shell quoting. */
export function resumeCommand(sessionId: string): string {
  return `baton handoff --session ${sessionId}`;
}
