import type { BatonApi } from '../api';
import { askEarly } from '../api/early-requests';
import { FIRST_AGENT_PAGE_REQUEST } from '../features/agents/use-agent-scan';
import { SESSIONS_LIST_REQUEST } from '../hooks/use-sessions';

/**
 * The first screen's rows, asked as the page starts (main.tsx, before the first render): the host
 * answers while the shell renders, and the list's hooks take these answers (early-requests.ts)
 * instead of asking after the first commit. A new page's first row came ~100–250 ms later without.
 */
export function askFirstScreen(api: BatonApi): void {
  askEarly(api, 'agents:list', FIRST_AGENT_PAGE_REQUEST, 'agents:changed');
  askEarly(api, 'sessions:list', SESSIONS_LIST_REQUEST, 'session:changed');
}
