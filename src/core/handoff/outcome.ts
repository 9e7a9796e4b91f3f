/** Every way a handoff can end, as recorded in events.jsonl and reported by the CLI. */
export const HandoffCategory = {
  accepted: 'accepted',
  duplicate: 'duplicate',
  noTarget: 'no_target',
  needsCapabilities: 'needs_capabilities',
  rejected: 'rejected',
  writeFailure: 'write_failure',
  launchFailure: 'launch_failure',
  conflict: 'conflict',
  /** --to a device: the relay holds the handoff until the device is online (issue 13). */
  queued: 'queued',
  /** --to a device: the relay could not be reached or failed mid-way; the session is saved. */
  relayFailure: 'relay_failure',
  /** --to a device that is not paired (or was removed). */
  notPaired: 'not_paired',
} as const;
export type HandoffCategory = (typeof HandoffCategory)[keyof typeof HandoffCategory];

/** Documented exit codes of `baton handoff` (README "Exit codes"). */
export const HANDOFF_EXIT_CODE: Record<HandoffCategory, number> = {
  accepted: 0,
  duplicate: 0,
  no_target: 3,
  needs_capabilities: 4,
  rejected: 5,
  conflict: 5,
  write_failure: 6,
  launch_failure: 7,
  queued: 8,
  relay_failure: 9,
  not_paired: 10,
};

export interface HandoffOutcome {
  category: HandoffCategory;
  sessionId: string | null;
  handoffId: string | null;
  /** Where the session is saved (null only when landing it failed before a directory existed). */
  sessionDir: string | null;
  /** The receiver's answer, when there was one. */
  answer?: Record<string, unknown>;
  /** A sentence for the person: what happened and what to do. */
  message: string;
  durationsMs: Record<string, number>;
}
