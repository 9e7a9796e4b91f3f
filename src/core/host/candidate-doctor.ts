import { existsSync } from 'node:fs';
import { connectEndpoint } from '../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import type { CandidateHealth } from './agent-candidates.js';

/** `baton doctor` does not wait longer than this for the host's answer. */
export const CANDIDATE_HEALTH_TIMEOUT_MS = 2_000;

export interface CandidateCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/** What `baton doctor` says about a health report (pure: tested on its own). */
export function describeCandidateHealth(health: CandidateHealth | null): CandidateCheck {
  const name = 'resume candidates kept live by the host';
  if (health === null) return { name, ok: true, detail: 'no host running: `baton list` scans with its own compact cache' };
  const last = health.lastTrouble ? `; last fallback to a rescan: ${health.lastTrouble} (${health.troubleAt}), ${health.rescans} in all` : '';
  if (health.mode === 'rescan') {
    return {
      name,
      ok: false,
      detail: `the folder watch failed, so the host fell back to rescanning: ${health.lastTrouble ?? 'unknown reason'} (${health.troubleAt}); it retries the watch`,
      fix: 'If this repeats: raise the inotify limit (sysctl fs.inotify.max_user_watches) or check that ~/.claude/projects and ~/.codex/sessions are readable.',
    };
  }
  if (health.mode === 'starting') return { name, ok: true, detail: `the host is still scanning (first scan)${last}` };
  return { name, ok: true, detail: `watching ${health.watchedDirs} folders, ${health.candidates} candidates, ${health.watchedUpdates} files re-read as they changed${last}` };
}

/** Asks a running host for `candidates.health`; null when no host runs. */
export async function readCandidateHealth(dataDir: string): Promise<CandidateHealth | null> {
  const endpoint = resolveEndpoint(dataDir);
  if (process.platform !== 'win32' && !existsSync(endpoint.address)) return null;
  try {
    const client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: CANDIDATE_HEALTH_TIMEOUT_MS });
    try {
      const answer = await client.request('candidates.health', {}, { timeoutMs: CANDIDATE_HEALTH_TIMEOUT_MS });
      return answer.ok ? (answer.health as CandidateHealth) : null;
    } finally {
      client.close();
    }
  } catch {
    return null;
  }
}

export async function checkCandidateWatch(dataDir: string): Promise<CandidateCheck> {
  return describeCandidateHealth(await readCandidateHealth(dataDir));
}
