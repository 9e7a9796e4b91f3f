import { EventEmitter } from 'node:events';
import { readdir } from 'node:fs/promises';
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
  type GrantProposal,
  type SessionLink,
} from '../../shared/approvals.js';
import { isValidId, newId } from '../../shared/ids.js';
import type { SessionDoc } from '../../shared/session.js';
import { canonicalJson } from '../hash.js';
import { deriveGrant, grantAllows } from '../policy/grants.js';
import { narrowPermissions, type PermissionPolicy } from '../policy/narrow.js';
import { assessRisk, initPolicy, type RiskContext, type ToolCall } from '../policy/risk.js';
import { chooseWorkspaceRoot, type WorkspaceRootChoice } from '../policy/workspace-root.js';
import { covers } from '../policy/rules.js';
import type { SessionStore } from '../store/types.js';
import { KeyedMutex } from '../tasks/keyed-mutex.js';
import type { Answer, ConnectionContext, IncomingRequest, RequestHandler } from '../transport/types.js';
import { APPROVALS_FILE, ApprovalLog } from './approval-log.js';
import { assessRemoteRisk, inRemotePaths, remoteCall } from './remote-request.js';
import { ApprovalError } from './errors.js';
import { createSessionLinker, type SessionLinker } from './session-link.js';

/**
 * Approval requests (issue #6, #10). Order is the contract: a request is fsynced before it is
 * shown; a decision is fsynced before the agent hears it; a timeout or a disconnect is a recorded
 * deny; a click after that is refused.
 *
 * Replay (issue #10): a decision is answered again only to a caller that repeats the request's own
 * id, and only until that request's expiresAt; a high-risk approval answers one call, never a
 * repeat. Nothing keyed by content (the bridge's groupKey) ever answers a request.
 */
export interface ApprovalServiceOptions {
  dataDir: string;
  /** How long a request waits for a person; default 10 minutes. */
  timeoutMs?: number;
  /** Where a session's approvals.jsonl lives; default <dataDir>/sessions/<id>. Hosts pass store.sessionDir. */
  sessionDir?: (sessionId: string) => string;
  /** Where session directories live, to list every session's grants; default <dataDir>/sessions. */
  sessionsRoot?: string;
  /** Finds the Baton session of a request (its workspace root, its title, an imported agent session). */
  store?: Pick<SessionStore, 'getSession' | 'list'>;
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
  /** Every request of a session (and of the agent session it was imported from) with its decision, oldest first. */
  history(sessionId: string): Promise<ApprovalView[]>;
  /** The same views with the Baton session each belongs to (title, id), for the UI. */
  withLinks(views: readonly ApprovalView[]): Promise<ApprovalView[]>;
  /** The same grants with the Baton session each belongs to, for the UI. */
  linkGrants(grants: readonly Grant[]): Promise<Grant[]>;
  readonly grants: {
    /** Grants in force of one session (with its agent session's), or of every session on disk. */
    list(sessionId?: string): Promise<Grant[]>;
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
  /** A high-risk approval answers exactly one call: set once it has. */
  highRiskAnswered: boolean;
  /** What "allow for this session" would grant, derived once while the request is pending. */
  proposal: GrantProposal | null;
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

const isHighRiskApproval = (entry: Entry): boolean => entry.decision?.decision === 'approve' && entry.request.risk.level === 'high';

function notReusable(entry: Entry): Answer {
  return {
    ok: false,
    code: 'NOT_REUSABLE',
    message: `request ${entry.request.requestId} was a high-risk approval, which answers one call only; ask again with a fresh id`,
  };
}

function expired(entry: Entry): Answer {
  return {
    ok: false,
    code: 'EXPIRED',
    message: `request ${entry.request.requestId} expired at ${entry.request.expiresAt}; its decision is not given again. Ask again with a fresh id`,
  };
}

function newEntry(request: ApprovalRequestRecord): Entry {
  return { request, decision: null, waiters: new Set(), timer: null, payload: payloadOf(request), highRiskAnswered: false, proposal: null };
}

/**
 * The workspace a request is judged against: the Baton session's git root or cwd, else the git
 * repository around the agent's cwd, and only then the cwd itself (an agent reporting cwd=$HOME
 * must not make all of $HOME "inside").
 */
function workspaceRootOf(doc: SessionDoc | null, cwd: string, home: string): WorkspaceRootChoice {
  return chooseWorkspaceRoot({ sessionRoot: doc ? (doc.gitRoot ?? doc.cwd) : null, cwd, home });
}

export function createApprovalService(options: ApprovalServiceOptions): ApprovalService {
  const timeoutMs = Math.min(options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS, MAX_APPROVAL_TIMEOUT_MS);
  const sessionDir = options.sessionDir ?? ((id: string) => join(options.dataDir, 'sessions', id));
  const sessionsRoot = options.sessionsRoot ?? join(options.dataDir, 'sessions');
  const home = options.home ?? homedir();
  const linker: SessionLinker | null = options.store ? createSessionLinker(options.store) : null;
  // The bash grammar loads once; until it has, assessRisk rates every command high, so requests wait for it.
  // A grammar that cannot load leaves that fail-safe in place rather than refusing every request.
  // Loaded at the first session's use, not here: a host creates this service at start, and the
  // grammar's WebAssembly compile competed with the UI's first rows (the host starts it once its
  // candidates are listed, host-services.ts).
  let policyLoaded: Promise<void> | null = null;
  const policyLoad = (): Promise<void> => (policyLoaded ??= initPolicy().catch(() => undefined));
  const emitter = new EventEmitter();
  const mutex = new KeyedMutex();
  const sessions = new Map<string, Promise<SessionState>>();
  const requestSession = new Map<string, string>();
  const loaded = new Set<SessionState>();
  let closed = false;

  const emit = (event: ApprovalEvent): void => void emitter.emit('change', event);
  // A remote box's request (issue 22) is judged with its own home and the paths as resolved there.
  const contextOf = (request: ApprovalRequestRecord): RiskContext => ({ cwd: request.cwd, workspaceRoot: request.workspaceRoot, home: request.remote?.home ?? home });
  const callOf = (request: ApprovalRequestRecord): ToolCall => remoteCall({ tool: request.tool, input: request.input }, request.remote);

  function proposalOf(entry: Entry): GrantProposal {
    entry.proposal ??= inRemotePaths(entry.request.remote, () => deriveGrant(callOf(entry.request), contextOf(entry.request)));
    return entry.proposal;
  }

  // The grant proposal is shown only while a person can still act on it.
  const viewOf = (entry: Entry): ApprovalView => ({ request: entry.request, decision: entry.decision, ...(entry.decision ? {} : { grant: proposalOf(entry) }) });

  /** Loads a session's log once; requests left pending by a previous run are denied and recorded. */
  function session(sessionId: string): Promise<SessionState> {
    let loading = sessions.get(sessionId);
    if (!loading) {
      loading = (async () => {
        await policyLoad(); // views derive grant proposals from the policy
        const log = new ApprovalLog(join(sessionDir(sessionId), APPROVALS_FILE));
        const state: SessionState = { log, entries: new Map(), grants: new Map() };
        const { records } = await log.read();
        for (const r of records) {
          if (r.type === 'request') state.entries.set(r.requestId, newEntry(r));
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
      for (const w of entry.waiters) w.resolve(record); // in arrival order: the caller who asked first hears it first
      entry.waiters.clear();
      emit({ type: 'decision', sessionId: record.sessionId, view: viewOf(entry) });
      return true;
    });
  }

  /** The answer one caller hears; a high-risk approval is heard by the first caller only. */
  function deliver(entry: Entry, replay: boolean): Answer {
    if (isHighRiskApproval(entry)) {
      if (entry.highRiskAnswered) return notReusable(entry);
      entry.highRiskAnswered = true;
    }
    return answerOf(entry, replay);
  }

  function wait(state: SessionState, entry: Entry, connection: ConnectionContext, replay: boolean): Promise<Answer> {
    if (entry.decision) return Promise.resolve(deliver(entry, replay));
    return new Promise<Answer>((resolve) => {
      const waiter: Waiter = { resolve: () => resolve(deliver(entry, replay)) };
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
    const step = await mutex.run(`request:${p.requestId}`, async (): Promise<{ refused: Answer } | { entry: Entry; replay: boolean }> => {
      const existing = state.entries.get(p.requestId);
      if (existing) {
        if (existing.payload !== payload) return { refused: { ok: false, code: 'CONFLICT', message: `request id ${p.requestId} was already used with a different tool call; use a fresh id` } };
        if (existing.decision) {
          // The same id, repeated: the recorded answer, but only while the request lives, and never a high-risk yes.
          if (Date.now() >= Date.parse(existing.request.expiresAt)) return { refused: expired(existing) };
          if (isHighRiskApproval(existing)) return { refused: notReusable(existing) };
        }
        return { entry: existing, replay: true };
      }
      const doc = linker ? (await linker.resolve(p.sessionId)).doc : null;
      // A remote box's workspace root comes from its CLI: this machine's disk knows nothing of it.
      const workspace: WorkspaceRootChoice | { root: string; source: 'remote'; warning: null } = p.remote
        ? { root: p.remote.workspaceRoot, source: 'remote', warning: null }
        : workspaceRootOf(doc, p.cwd, home);
      const workspaceRoot = workspace.root;
      const call: ToolCall = remoteCall({ tool: p.tool, input: p.input }, p.remote);
      const ctx: RiskContext = { cwd: p.cwd, workspaceRoot, home: p.remote?.home ?? home };
      const risk = p.remote ? assessRemoteRisk({ tool: p.tool, input: p.input }, ctx, p.remote) : assessRisk(call, ctx);
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
        workspaceSource: workspace.source,
        ...(workspace.warning ? { workspaceWarning: workspace.warning } : {}),
        ...(p.client ? { client: p.client } : {}),
        ...(p.groupKey ? { groupKey: p.groupKey } : {}),
        ...(p.remote ? { remote: p.remote } : {}),
        risk,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + wait).toISOString(),
      };
      await state.log.append(record); // persisted before shown
      const entry = newEntry(record);
      state.entries.set(p.requestId, entry);
      requestSession.set(p.requestId, p.sessionId);
      // A grant in force answers a new request only through the policy's own matcher, never for high risk.
      const grant = risk.level === 'high' ? undefined : inRemotePaths(p.remote, () => [...state.grants.values()].find((g) => grantAllows(g.rule, call, ctx)));
      if (grant) {
        await settle(state, entry, 'approve', 'grant', `allowed for this session by grant ${grant.id} (${grant.rule})`);
        return { entry, replay: false };
      }
      entry.timer = setTimeout(() => void settle(state, entry, 'deny', 'timeout', `no decision within ${Math.round(wait / 1000)} s`), wait);
      entry.timer.unref();
      emit({ type: 'request', sessionId: p.sessionId, view: viewOf(entry) });
      return { entry, replay: false };
    });
    if ('refused' in step) return step.refused;
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
      // Derived again now, not taken from the view: the rule granted is the one the policy stands behind.
      const derived = high ? { ok: false as const, reason: 'the call is high risk: approve it once, never for the session' } : inRemotePaths(entry.request.remote, () => deriveGrant(callOf(entry.request), contextOf(entry.request)));
      if (!derived.ok) throw new ApprovalError('GRANT_REFUSED', `request ${requestId} cannot be allowed for this session: ${derived.reason}. Approve it once or deny it.`, requestId);
      if (params.expectedRule !== undefined && params.expectedRule !== derived.rule) {
        throw new ApprovalError('GRANT_REFUSED', `request ${requestId}: the rule shown (${params.expectedRule}) is not the rule the policy derives now (${derived.rule}); nothing was granted, look again`, requestId);
      }
      grant = { id: newId('grant-'), sessionId: entry.request.sessionId, rule: derived.rule, summary: derived.summary, requestId, createdAt: new Date().toISOString() };
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

  /** Session ids that have an approvals log on disk (for the grants list across sessions). */
  async function sessionsOnDisk(): Promise<string[]> {
    try {
      const names = await readdir(sessionsRoot);
      return names.filter(isValidId);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ApprovalError('IO_ERROR', `could not list ${sessionsRoot}: ${(error as Error).message}`, sessionsRoot, { cause: error });
    }
  }

  /** One lookup per session id for a batch of views or grants; a failed lookup just leaves the link out. */
  function linksFor(): (sessionId: string) => Promise<SessionLink | undefined> {
    const links = new Map<string, Promise<SessionLink | undefined>>();
    return (id) => {
      if (!linker) return Promise.resolve(undefined);
      let link = links.get(id);
      if (!link) {
        link = linker.resolve(id).then((r) => r.link, () => undefined);
        links.set(id, link);
      }
      return link;
    };
  }
  const withLink = <T extends object>(item: T, link: SessionLink | undefined): T => (link ? { ...item, link } : item);

  const aliasesOf = async (sessionId: string): Promise<string[]> => (linker ? linker.aliases(sessionId) : [sessionId]);
  const byCreated = (a: ApprovalView, b: ApprovalView): number => a.request.createdAt.localeCompare(b.request.createdAt);

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
      const states = await Promise.all((await aliasesOf(sessionId)).map(session));
      return states.flatMap((state) => [...state.entries.values()].map(viewOf)).sort(byCreated);
    },
    async withLinks(views) {
      const linkOf = linksFor();
      return Promise.all(views.map(async (view) => withLink(view, await linkOf(view.request.sessionId))));
    },
    async linkGrants(grants) {
      const linkOf = linksFor();
      return Promise.all(grants.map(async (grant) => withLink(grant, await linkOf(grant.sessionId))));
    },
    grants: {
      async list(sessionId) {
        const ids = sessionId === undefined ? await sessionsOnDisk() : await aliasesOf(sessionId);
        const states = await Promise.all(ids.map((id) => session(id).catch(() => null)));
        return states.flatMap((state) => (state ? [...state.grants.values()] : [])).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
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
