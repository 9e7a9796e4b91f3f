/**
 * The name of a session's approvals log, on its own: a reader that only needs to know whether the
 * log exists (a handoff of a fresh session) does not load the log's parser and schemas with it.
 */
export const APPROVALS_FILE = 'approvals.jsonl';
