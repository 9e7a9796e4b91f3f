import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  APPROVALS_SCHEMA_VERSION,
  ApprovalRequestParams,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DecideParams,
  MAX_APPROVAL_TIMEOUT_MS,
  type ApprovalDecisionRecord,
  type ApprovalRequestRecord,
  type ApprovalView,
  type DecidedBy,
  type Decision,
  type Grant,
} from '../../shared/approvals.js';
import { newId } from '../../shared/ids.js';
import { canonicalJson } from '../hash.js';
import { narrowPermissions, type PermissionPolicy } from '../policy/narrow.js';
import { assessRisk, initPolicy } from '../policy/risk.js';
import { covers, ruleMatches } from '../policy/rules.js';
import type { SessionStore } from '../store/types.js';
import { KeyedMutex } from '../tasks/keyed-mutex.js';
import type { Answer, ConnectionContext, IncomingRequest, RequestHandler } from '../transport/types.js';
import { APPROVALS_FILE, ApprovalLog } from './approval-log.js';
import { ApprovalError } from './errors.js';
import { actionOf, grantRuleFor } from './tool-action.js';

/**
 * Approval requests (issue #6). Order is the contract: a request is fsynced before it is shown;
 * a decision is fsynced before the agent hears it; a timeout or a disconnect is a recorded deny;
 * a click after that is refused; the same request id again gets the recorded decision.
 */
export interface ApprovalServiceOptions {
  dataDir: string;
  /** How long a request waits for a person; default 10 minutes. */
  timeoutMs?: number;
  /** Where a session's approvals.jsonl lives; default <dataDir>/sessions/<id>. Hosts pass store.sessionDir. */
  sessionDir?: (sessionId: string) => string;
  /** Used to find the workspace root (gitRoot ?? cwd) of a known session. */
  store?: Pick<SessionStore, 'getSession'>;
  home?: string;
}

export type ApprovalEvent =
  | { type: 'request' | 'decision'; sessionId: string; view: ApprovalView }
  | { type: 'grant' | 'revoke'; sessionId: string; grant: Grant };

export interface ApprovalService {
  /** Socket methods for the receiver: `approval.request`. */
  readonly methods: Record<string, RequestHandler>;
  /** Undecided requests, oldest first. */
  listPending(): ApprovalView[];
  /** Records a person's decision. Throws ApprovalError (ALREADY_DECIDED for a late click, CONFIRMATION_REQUIRED, NOT_FOUND). */
  decide(requestId: string, params: DecideParams): Promise<ApprovalView>;
  /** Every request of a session with its decision, oldest first (read from disk). */
  history(sessionId: string): Promise<ApprovalView[]>;
  readonly grants: {
    list(sessionId: string): Promise<Grant[]>;
    revoke(sessionId: string, grantId: string, reason?: string): Promise<void>;
    /** After a handoff: revokes every grant the target policy does not cover; returns the revoked ones. */
    narrowTo(sessionId: string, target: PermissionPolicy): Promise<Grant[]>;
  };
  onChange(listener: (event: ApprovalEvent) => void): () => void;
  /** Denies what is still pending (recorded as host-restart), stops the timers. */
  close(): Promise<void>;
}

interface Waiter {
  resolve: (decision: ApprovalDecisionRecord) => void;
}

interface Entry {
  request: ApprovalRequestRecord;
  decision: ApprovalDecisionRecord | null;
  waiters: Set<Waiter>;
  timer: NodeJS.Timeout | null;
  payload: string;
}

interface SessionState {
  log: ApprovalLog;
  entries: Map<string, Entry>;
  grants: Map<string, Grant>;
}

const BY_MESSAGE: Record<DecidedBy, string> = {
  user: 'was decided by a person',
  timeout: 'timed out and was denied',
  disconnect: 'was denied because the agent disconnected',
  'host-restart': 'was denied because Baton restarted while it was pending',
  grant: 'was approved by a session grant',
};

function payloadOf(p: { sessionId: string; tool: string; input: unknown; cwd: string }): string {
  return canonicalJson({ sessionId: p.sessionId, tool: p.tool, input: p.input, cwd: p.cwd });
}

function answerOf(entry: Entry, replay: boolean): Answer {
  const d = entry.decision!;
  return { ok: true, requestId: d.requestId, decision: d.decision, by: d.by, reason: d.reason, risk: entry.request.risk, replay };
}

export function createApprovalService(options: ApprovalServiceOptions): ApprovalService {
  const timeoutMs = Math.min(options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS, MAX_APPROVAL_TIMEOUT_MS);
  const sessionDir = options.sessionDir ?? ((id: string) => join(options.dataDir, 'sessions', id));
  const home = options.home ?? homedir();
  const emitter = new EventEmitter();
  const mutex = new KeyedMutex();
  const sessions = new Map<string, Promise<SessionState>>();
  const requestSession = new Map<string, string>();
  const loaded = new Set<SessionState>();
  let closed = false;

  const emit = (event: ApprovalEvent): void => void emitter.emit('change', event);
  const viewOf = (entry: Entry): ApprovalView => ({ request: entry.request, decision: entry.decision });

  /** Loads a session's log once; requests left pending by a previous run are denied and recorded. */
  function session(sessionId: string): Promise<SessionState> {
    let loading = sessions.get(sessionId);
    if (!loading) {
      loading = (async () => {
        const log = new ApprovalLog(join(sessionDir(sessionId), APPROVALS_FILE));
        const state: SessionState = { log, entries: new Map(), grants: new Map() };
        const { records } = await log.read();
        for (const r of records) {
          if (r.type === 'request') state.entries.set(r.requestId, { request: r, decision: null, waiters: new Set(), timer: null, payload: payloadOf(r) });
          else if (r.type === 'decision') {
            const e = state.entries.get(r.requestId);
            if (e && !e.decision) e.decision = r;
          } else if (r.type === 'grant') state.grants.set(r.grant.id, r.grant);
          else state.grants.delete(r.grantId);
        }
        loaded.add(state);
        for (const e of state.entries.values()) {
          requestSession.set(e.request.requestId, sessionId);
          if (!e.decision) await settle(state, e, 'deny', 'host-restart', 'Baton restarted while this request was pending');
        }
        return state;
      })();
      sessions.set(sessionId, loading);
      loading.catch(() => sessions.delete(sessionId)); // a failed read is retried next time
    }
    return loading;
  }

  /** Records a decision unless one exists; true when this call decided. */
  function settle(state: SessionState, entry: Entry, decision: Decision, by: DecidedBy, reason: string | null, extra: { confirmedHighRisk?: boolean; grant?: Grant } = {}): Promise<boolean> {
    return mutex.run(entry.request.requestId, async () => {
      if (entry.decision) return false;
      const record: ApprovalDecisionRecord = {
        type: 'decision',
        requestId: entry.request.requestId,
        sessionId: entry.request.sessionId,
        decision,
        by,
        reason,
        confirmedHighRisk: extra.confirmedHighRisk ?? false,
        grantId: extra.grant?.id ?? null,
        decidedAt: new Date().toISOString(),
      };
      try {
        if (extra.grant) await state.log.append({ type: 'grant', grant: extra.grant });
        await state.log.append(record);
      } catch (error) {
        // A deny we could not record is still a deny for the agent: failing safe beats waiting.
        if (decision === 'approve') throw error;
      }
      if (extra.grant) {
        state.grants.set(extra.grant.id, extra.grant);
        emit({ type: 'grant', sessionId: record.sessionId, grant: extra.grant });
      }
      entry.decision = record;
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = null;
      for (const w of entry.waiters) w.resolve(record);
      entry.waiters.clear();
      emit({ type: 'decision', sessionId: record.sessionId, view: viewOf(entry) });
      return true;
    });
  }

  async function workspaceRootOf(sessionId: string, cwd: string): Promise<string> {
    if (!options.store) return cwd;
    try {
      const doc = await options.store.getSession(sessionId);
      return doc.gitRoot ?? doc.cwd;
    } catch {
      return cwd; // a session Baton does not hold (yet): the agent's cwd is the best boundary we have
    }
  }

  function wait(state: SessionState, entry: Entry, connection: ConnectionContext, replay: boolean): Promise<Answer> {
    if (entry.decision) return Promise.resolve(answerOf(entry, replay));
    return new Promise<Answer>((resolve) => {
      const waiter: Waiter = { resolve: () => resolve(answerOf(entry, replay)) };
      entry.waiters.add(waiter);
      const onAbort = (): void => {
        entry.waiters.delete(waiter);
        // Only when nobody waits any more: a second connection replaying the id keeps it alive.
        if (entry.waiters.size === 0 && !entry.decision) void settle(state, entry, 'deny', 'disconnect', 'the agent disconnected before a decision');
        resolve({ ok: false, code: 'CLOSED', message: 'the connection closed before a decision' });
      };
      if (connection.signal.aborted) onAbort();
      else connection.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function request(req: IncomingRequest, connection: ConnectionContext): Promise<Answer> {
    if (closed) return { ok: false, code: 'CLOSED', message: 'Baton is shutting down; the request was not recorded' };
    const parsed = ApprovalRequestParams.safeParse(req.params);
    if (!parsed.success) {
      return { ok: false, code: 'BAD_REQUEST', message: `approval.request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ')}` };
    }
    const p = parsed.data;
    const known = requestSession.get(p.requestId);
    if (known !== undefined && known !== p.sessionId) {
      return { ok: false, code: 'CONFLICT', message: `request id ${p.requestId} was already used in session ${known}; use a fresh id` };
    }
    const state = await session(p.sessionId);
    const payload = payloadOf(p);
    const step = await mutex.run(`request:${p.requestId}`, async () => {
      const existing = state.entries.get(p.requestId);
      if (existing) {
        if (existing.payload !== payload) return { conflict: true as const };
        return { entry: existing, replay: true };
      }
      await initPolicy().catch(() => undefined); // idempotent; if the bash grammar cannot load, assessRisk rates shell commands high
      const workspaceRoot = await workspaceRootOf(p.sessionId, p.cwd);
      const risk = assessRisk({ tool: p.tool, input: p.input }, { cwd: p.cwd, workspaceRoot, home });
      const now = Date.now();
      const wait = Math.min(p.timeoutMs ?? timeoutMs, timeoutMs);
      const record: ApprovalRequestRecord = {
        type: 'request',
        schemaVersion: APPROVALS_SCHEMA_VERSION,
        requestId: p.requestId,
        sessionId: p.sessionId,
        tool: p.tool,
        input: p.input,
        cwd: p.cwd,
        workspaceRoot,
        ...(p.client ? { client: p.client } : {}),
        risk,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + wait).toISOString(),
      };
      await state.log.append(record); // persisted before shown
      const entry: Entry = { request: record, decision: null, waiters: new Set(), timer: null, payload };
      state.entries.set(p.requestId, entry);
      requestSession.set(p.requestId, p.sessionId);
      const grant = risk.level === 'high' ? undefined : [...state.grants.values()].find((g) => ruleMatches(g.rule, actionOf(p.tool, p.input)));
      if (grant) {
        await settle(state, entry, 'approve', 'grant', `allowed for this session by grant ${grant.id} (${grant.rule})`);
        return { entry, replay: false };
      }
      entry.timer = setTimeout(() => void settle(state, entry, 'deny', 'timeout', `no decision within ${Math.round(wait / 1000)} s`), wait);
      entry.timer.unref();
      emit({ type: 'request', sessionId: p.sessionId, view: viewOf(entry) });
      return { entry, replay: false };
    });
    if ('conflict' in step) {
      return { ok: false, code: 'CONFLICT', message: `request id ${p.requestId} was already used with a different tool call; use a fresh id` };
    }
    return wait(state, step.entry, connection, step.replay);
  }

  async function locate(requestId: string): Promise<{ state: SessionState; entry: Entry }> {
    const sessionId = requestSession.get(requestId);
    const state = sessionId === undefined ? undefined : await session(sessionId);
    const entry = state?.entries.get(requestId);
    if (!state || !entry) throw new ApprovalError('NOT_FOUND', `no approval request ${requestId} is known to this Baton; it may have been made before a restart`, requestId);
    return { state, entry };
  }

  function lateClick(entry: Entry): ApprovalError {
    const d = entry.decision!;
    return new ApprovalError(
      'ALREADY_DECIDED',
      `request ${d.requestId} ${BY_MESSAGE[d.by]} (${d.decision}) at ${d.decidedAt}; the agent already has that answer. Ask it to try again if it still needs this.`,
      d.requestId,
    );
  }

  async function decide(requestId: string, raw: DecideParams): Promise<ApprovalView> {
    const parsed = DecideParams.safeParse(raw);
    if (!parsed.success) throw new ApprovalError('BAD_REQUEST', `decide: ${parsed.error.issues.map((i) => i.message).join('; ')}`, requestId);
    const params = parsed.data;
    const { state, entry } = await locate(requestId);
    if (entry.decision) throw lateClick(entry);
    if (Date.now() >= Date.parse(entry.request.expiresAt)) {
      await settle(state, entry, 'deny', 'timeout', 'no decision before the request expired');
      throw lateClick(entry);
    }
    const high = entry.request.risk.level === 'high';
    if (params.decision === 'approve' && high && params.confirmHighRisk !== true) {
      throw new ApprovalError('CONFIRMATION_REQUIRED', `request ${requestId} is high risk (${entry.request.risk.reasons.map((r) => r.rule).join(', ')}); approving it needs a second, deliberate confirmation`, requestId);
    }
    let grant: Grant | undefined;
    if (params.decision === 'approve' && params.allowForSession) {
      const rule = high ? null : grantRuleFor(entry.request.tool, entry.request.input, entry.request.workspaceRoot);
      if (rule === null) {
        throw new ApprovalError('BAD_REQUEST', high ? `request ${requestId} is high risk: it can be approved once, never for the whole session` : `request ${requestId} cannot be remembered as a rule that matches only this call; approve it once instead`, requestId);
      }
      grant = { id: newId('grant-'), sessionId: entry.request.sessionId, rule, requestId, createdAt: new Date().toISOString() };
    }
    const won = await settle(state, entry, params.decision, 'user', params.reason ?? null, { confirmedHighRisk: high && params.decision === 'approve', ...(grant ? { grant } : {}) });
    if (!won) throw lateClick(entry);
    return viewOf(entry);
  }

  async function revoke(sessionId: string, grantId: string, reason = 'revoked by the user'): Promise<void> {
    const state = await session(sessionId);
    await mutex.run(`grants:${sessionId}`, async () => {
      const grant = state.grants.get(grantId);
      if (!grant) throw new ApprovalError('NOT_FOUND', `no active grant ${grantId} in session ${sessionId}`, grantId);
      await state.log.append({ type: 'revoke', grantId, sessionId, reason, revokedAt: new Date().toISOString() });
      state.grants.delete(grantId);
      emit({ type: 'revoke', sessionId, grant });
    });
  }

  return {
    methods: {
      'approval.request': async (req, connection) => {
        try {
          return await request(req, connection);
        } catch (error) {
          const code = error instanceof ApprovalError ? error.code : 'INTERNAL';
          return { ok: false, code, message: (error as Error).message };
        }
      },
    },
    listPending() {
      const pending: ApprovalView[] = [];
      for (const state of loaded) for (const e of state.entries.values()) if (!e.decision) pending.push(viewOf(e));
      return pending.sort((a, b) => a.request.createdAt.localeCompare(b.request.createdAt));
    },
    decide,
    async history(sessionId) {
      const state = await session(sessionId);
      return [...state.entries.values()].map(viewOf).sort((a, b) => a.request.createdAt.localeCompare(b.request.createdAt));
    },
    grants: {
      async list(sessionId) {
        return [...(await session(sessionId)).grants.values()];
      },
      revoke,
      async narrowTo(sessionId, target) {
        const state = await session(sessionId);
        const current = [...state.grants.values()];
        // Grants are the session's own rules: they survive only where narrowing keeps them.
        const kept = new Set(narrowPermissions({ mode: target.mode, allow: [], deny: [], roots: target.roots, grants: current.map((g) => g.rule) }, target).grants);
        const dropped = current.filter((g) => !kept.has(g.rule) || target.deny.some((d) => covers(d, g.rule)));
        for (const g of dropped) await revoke(sessionId, g.id, 'not allowed by the policy after a handoff');
        return dropped;
      },
    },
    onChange(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
    async close() {
      closed = true;
      const all = await Promise.all([...sessions.values()].map((s) => s.catch(() => null)));
      for (const state of all) {
        if (!state) continue;
        for (const entry of state.entries.values()) if (!entry.decision) await settle(state, entry, 'deny', 'host-restart', 'Baton is shutting down');
      }
      emitter.removeAllListeners();
    },
  };

}
