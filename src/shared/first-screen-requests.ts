import { AGENT_FIRST_PAGE } from './agents.js';

/**
 * What a socket's address asks with FIRST_SCREEN_QUERY (first-screen.ts): the list's first page
 * and the Baton sessions, the two answers the first rows wait for, under ids the page's transport
 * reserves (its own ids start after them). The host answers them unasked; the page's identical
 * requests (components/ask-first-screen.ts) take those answers.
 */
export const FIRST_SCREEN_REQUESTS: ReadonlyArray<{ readonly id: number; readonly channel: 'agents:list' | 'sessions:list'; readonly payload: Readonly<Record<string, number>> }> = [
  { id: 1, channel: 'agents:list', payload: { offset: 0, limit: AGENT_FIRST_PAGE } },
  { id: 2, channel: 'sessions:list', payload: {} },
];
