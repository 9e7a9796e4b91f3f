import { createLifecycleUiHandlers } from './lifecycle-ui-handlers.js';
import { EventEmitter } from 'node:events';
import { openStore } from '../store/index.js';
import { KEY_METHOD, keyRequestMethod } from '../store/at-rest/key-request.js';
import type { SessionStore } from '../store/types.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { startEndpointServer } from '../transport/server.js';
import type { EndpointInfo, EndpointServer } from '../transport/types.js';
import type { EarlyEndpoint } from '../transport/early-endpoint.js';
import { createReceiver, type ReceiverEvent } from '../handoff/receiver.js';
import { createHostedHandoff } from '../handoff/hosted-handoff.js';
import { HOSTED_HANDOFF_METHOD } from '../handoff/hosted-handoff-request.js';
import { GitSpawner } from '../workspace/git-spawner.js';
import { FULL_OUTPUT_VIEW_MAX_BYTES, MESSAGE_PAGE_SIZE, type UiEvent, type UiEventPayload, type UiResponse } from '../../shared/ui-contract.js';
import { createUiDispatcher, type UiDispatcher } from './ui-handlers.js';
import { BATON_VERSION } from '../version.js';
import { computeHandoffStats, lastActivityOf } from '../handoff/stats.js';
import { alertsFrom } from '../context/mismatch-alert.js';
import { createApprovalService, type ApprovalService } from '../approvals/index.js';
import { initPolicy } from '../policy/parser.js';
import { createTaskService, type TaskService } from '../tasks/index.js';
import { importAgentSession, notYetImported } from '../handoff/import-agent-session.js';
import { createAgentCandidates, type AgentCandidates } from './agent-candidates.js';
import { agentListPage, createAgentListMemo, firstScreenPage, type AgentListMemo } from './agent-list-page.js';
import { closeCandidateMethods, createCandidateMethods, startCandidateListings } from './candidate-listing.js';
import { listingPlace } from './listing-place.js';
import { LIST_JSON_VERSION } from '../importers/list-json.js';
import { commandTargetOf, terminalCommandFor } from '../terminal-command.js';
import { createWorkspaceHandlers } from './workspace-handlers.js';
import { createSessionWatches } from '../watch/session-watches.js';
import { watchTargetOf } from './watch-target.js';
import { prepareNarrowing } from '../handoff/apply-permissions.js';
import { carriedTasksOf } from '../tasks/carried-tasks.js';
import type { RelayHost } from '../relay/relay-host.js';
import { startConfiguredRelay } from '../relay/start-configured-relay.js';
import { createRelayUiHandlers } from '../relay/ui-handlers.js';
import { createSearchService, INDEX_LOAD_DELAY_MS } from '../search/search-service.js';
import { createCredentialRegistry } from '../transport/session-credentials.js';
import { createRemoteGate } from '../ssh/remote-gate.js';
import { createAgentRunner, type AgentRunner } from '../agent-run/agent-runner.js';
import { defaultBatonCommand } from '../agent-run/baton-command.js';
import { searchCandidates } from '../search/candidate-search.js';
import { createCandidatePreview } from './candidate-preview.js';
import { openInEditor, pathInside } from '../editor/open-in-editor.js';
import { encryptionView } from '../store/at-rest/encryption-view.js';
import { markPhase } from '../perf/phase-trace.js';

/** Newest messages the session view receives at once; older pages come through session:messages. */
export const SESSION_VIEW_MESSAGE_LIMIT = MESSAGE_PAGE_SIZE;

export type HostKind = 'electron' | 'browser';

export interface HostOptions {
  dataDir: string;
  /** The endpoint to receive on, when the caller resolved it already (`baton serve` prints it before the services start); default: resolveEndpoint(dataDir). */
  endpoint?: EndpointInfo;
  /** The endpoint already listening, its requests held until these services hand it their handler (`baton serve`); default: listen here. */
  early?: EarlyEndpoint;
  kind: HostKind;
  capabilities: readonly string[];
  /** How an agent's approval hook calls this Baton; default: the running CLI (see baton-command.ts). */
  batonCommand?: string;
  /** Leave desktop runs going when the host closes (marked as orphans at the next start); default: stop them. BATON_LEAVE_RUNS_ON_CLOSE=1 sets it. */
  leaveRunsOnClose?: boolean;
}

export interface HostServices {
  readonly dataDir: string;
  readonly store: SessionStore;
  readonly endpoint: EndpointInfo;
  readonly token: Buffer;
  readonly dispatch: UiDispatcher;
  readonly approvals: ApprovalService;
  readonly tasks: TaskService;
  /** Claude Code / Codex resume candidates, kept current by watching their folders. */
  readonly candidates: AgentCandidates;
  /** The `agents:list` order kept between requests, sorted ahead of the first. */
  readonly agentList: AgentListMemo;
  /** The relay inbox when a relay is configured (issue 13), else undefined. */
  readonly relay: RelayHost | undefined;
  /** Desktop runs of the sessions' own agents (issue 19). */
  readonly runner: AgentRunner;
  onUiEvent(listener: <E extends UiEvent>(event: E, payload: UiEventPayload<E>) => void): () => void;
  emitUiEvent<E extends UiEvent>(event: E, payload: UiEventPayload<E>): void;
  /** `leaveRunsOnClose` here (the desktop's preference, read at close) wins over the start option and the env variable. */
  close(options?: { leaveRunsOnClose?: boolean }): Promise<void>;
}

/**
 * Everything a host runs, whichever host it is: the store, the receiver on the local endpoint and
 * the UI contract's handlers. The Electron host and the browser host differ only in how they
 * carry `dispatch` and `onUiEvent` to the renderer.
 */
export async function startHostServices(options: HostOptions): Promise<HostServices> {
  markPhase('host-services-start');
  const store = await openStore(options.dataDir);
  markPhase('host-store-open');
  const endpoint = options.endpoint ?? resolveEndpoint(options.dataDir);
  // An early endpoint (`baton serve`) made the endpoint's directory and read the token already.
  let token: Buffer;
  if (options.early) token = options.early.token;
  else {
    await ensureEndpointDir(endpoint.dir);
    token = await loadOrCreateToken(endpoint.tokenPath);
  }
  const emitter = new EventEmitter();
  // One listener per open page: the browser host allows 32 (MAX_BROWSER_CONNECTIONS), so the
  // default warning at 11 would fire on ordinary use. Past 64 a leak is still reported.
  emitter.setMaxListeners(64);
  const emitUiEvent = <E extends UiEvent>(event: E, payload: UiEventPayload<E>) => emitter.emit('ui', event, payload);
  // The full-text index follows every session change the UI hears of; at start it indexes only
  // what landed since the last run (in the background: the host does not wait for it).
  const search = await createSearchService({ store, dataDir: options.dataDir, loadDelayMs: INDEX_LOAD_DELAY_MS });
  emitter.on('ui', (event: UiEvent, payload: { id?: string; reason?: string }) => {
    // A deleted (or purged) session leaves the full-text index too: syncAll drops what the store no longer lists.
    if (event === 'session:changed' && (payload.reason === 'deleted' || payload.reason === 'purged')) void search.syncAll();
    else if (event === 'session:changed' && payload.id !== undefined) search.sessionChanged(payload.id);
  });
  void search.syncAll();

  const onReceiverEvent = (event: ReceiverEvent) => {
    if (event.alert) emitUiEvent('handoff:alert', event.alert);
    emitUiEvent('session:changed', { id: event.sessionId, reason: event.kind });
    if (event.kind === 'select' || event.status === 'accepted') emitUiEvent('session:select', { id: event.sessionId });
  };
  markPhase('host-search-created');
  // Started, not awaited: a cold scan of a big ~/.claude must not delay the host; requests wait for it.
  // Before the risk policy's parser loads (its WebAssembly compiles off-thread meanwhile): the
  // candidates' watches and index read are on the path to the UI's first rows.
  const candidates = createAgentCandidates({
    dataDir: options.dataDir,
    onChange: (change) => emitUiEvent('agents:changed', change),
    onProgress: (progress) => emitUiEvent('agents:progress', progress),
  });
  // The risk policy's bash grammar; if it cannot load, every shell command is rated high (never low).
  // Not awaited: every risk assessment waits for it in the approval service (its session() starts
  // or awaits the same load). Started once the candidates' start is done, not with the host: its
  // WebAssembly compile (two threads of ~1.5 MB) ran beside the index read that the UI's first rows
  // wait for, on a 2-core machine: a new host's CPU to its first page 385 -> 360 ms, wall 675 -> 622
  // (medians of 8, bench/README.md "Eleventh sitting", second round).
  void candidates.ready
    .catch(() => undefined)
    .then(() => initPolicy())
    .catch((error: unknown) => console.error(`baton: risk policy parser not loaded (${(error as Error).message}); shell commands will be rated high`));
  markPhase('host-policy-loaded');
  const approvals = createApprovalService({ dataDir: options.dataDir, sessionDir: (id) => store.sessionDir(id), store });
  const tasks = createTaskService({ dataDir: options.dataDir });
  const unsubscribers = [
    approvals.onChange((event) =>
      emitUiEvent('approvals:changed', { sessionId: event.sessionId, type: event.type, requestId: 'view' in event ? event.view.request.requestId : undefined }),
    ),
    tasks.onChange((event) => emitUiEvent('tasks:changed', { id: event.view.record.id, state: event.view.state })),
  ];
  const listings = listingPlace(options.dataDir, endpoint.dir, store.atRest.state === 'on');
  const candidateMethods = createCandidateMethods({
    candidates,
    listRows: () => store.list({ includeArchived: true }),
    cliVersion: LIST_JSON_VERSION,
    // Listings bigger than a frame go to a file: an encrypted store's in memory (the endpoint's
    // directory on tmpfs), else sealed (listing-place.ts).
    listingDir: listings.dir,
    sealListings: listings.seal,
    staleListingDirs: listings.stale,
  });
  let endpointServer: EndpointServer;
  // The workspace verdict's git starts from this shell, not a fork of the host (git-spawner.ts).
  const gitSpawner = new GitSpawner();
  // `baton handoff` asks this host to land and take a session (hosted-handoff.ts): its offer goes
  // to this receiver directly, bound once the receiver exists.
  const hostedHandoff = createHostedHandoff({
    store,
    gitSpawner,
    endpoint,
    token,
    take: (manifest, connection) => receive({ id: HOSTED_HANDOFF_METHOD, method: 'handoff.offer', params: { manifest } }, connection),
  });
  const receive = createReceiver({
    gitSpawner,
    store,
    capabilities: options.capabilities,
    holder: options.kind === 'electron' ? 'desktop' : 'browser',
    onEvent: onReceiverEvent,
    prepareAccept: (manifest) => prepareNarrowing({ store, dataDir: options.dataDir, grants: approvals.grants }, manifest),
    // Passphrase mode: the CLI asks this host for the key it holds (local connections only).
    methods: { ...approvals.methods, ...tasks.methods, ...candidateMethods, [KEY_METHOD]: keyRequestMethod(options.dataDir), [HOSTED_HANDOFF_METHOD]: hostedHandoff.handle },
  });
  try {
    // Remote boxes reach the receiver through `baton ssh` with one-time credentials (issue 22).
    const credentials = options.early?.credentials ?? createCredentialRegistry();
    const gate = createRemoteGate({
      store,
      credentials,
      receive,
      onLanded: (id) => emitUiEvent('session:changed', { id, reason: 'handoff' }),
      taskExists: async (id) => (await tasks.list()).some((view) => view.record.id === id),
    });
    if (options.early) {
      options.early.serve(gate);
      endpointServer = options.early.server;
    } else endpointServer = await startEndpointServer({ endpoint, token, credentials, handle: gate });
  } catch (error) {
    gitSpawner.close();
    await Promise.all([approvals.close(), tasks.close(), candidates.close(), search.close()]);
    await store.close();
    throw error;
  }

  // The socket is this host's: what an earlier host left in the listings folders goes (a killed
  // one may have left an encrypted store's listing in the clear, in memory: listing-place.ts).
  void startCandidateListings(candidateMethods);
  // With a relay configured, handoffs from paired devices land through the same receiver (issue 13).
  markPhase('host-endpoint-listening');
  const relay = await startConfiguredRelay({ dataDir: options.dataDir, store, receive });

  const runner = createAgentRunner({ store, tasks, dataDir: options.dataDir, batonCommand: options.batonCommand ?? defaultBatonCommand() });
  unsubscribers.push(runner.onEvent((sessionId, run, event) => emitUiEvent('composer:event', { sessionId, runId: run.runId, state: run.state, event })));
  unsubscribers.push(runner.onEvent((sessionId, _run, event) => event.kind === 'finished' && emitUiEvent('session:changed', { id: sessionId, reason: 'agent-run' })));
  // The agent's edits reach the Changes tab as they happen, like any other drift.
  unsubscribers.push(runner.onEvent((sessionId, _run, event) => event.kind === 'files' && emitUiEvent('workspace:drift', { sessionId, paths: event.paths })));
  // Runs a previous host left are failed or orphaned now, never shown as running.
  await runner.recoverLeftovers().catch((error: unknown) => console.error(`baton: leftover agent runs not recovered (${(error as Error).message})`));

  markPhase('host-runs-recovered');
  const workspace = createWorkspaceHandlers(store);
  const preview = createCandidatePreview({
    // Before the index's whole read, a row of its first screen (the page shows those first).
    find: (source, path) => candidates.entries().find((e) => e.source === source && e.path === path)?.candidate() ?? candidates.firstScreen()?.candidates.find((c) => c.source === source && c.path === path),
  });
  // Archived sessions count as imported: archiving one must not bring its Claude Code / Codex candidate back.
  const agentList = createAgentListMemo(candidates, () => store.list({ includeArchived: true }));
  // Sorted as soon as the first rows are in (a trusted index, or a cold scan's first batch): the page asks while it loads.
  // Again once the first scan is done (after a cold or untrusted start the rows read first were partial).
  let stopping = false;
  let preparing: Promise<void> = Promise.resolve();
  const prepareOrder = () => setImmediate(() => {
    if (!stopping) preparing = agentList.prepare();
  });
  // listed(), not current(): the index's whole read waits for the first page's answer from its first screen.
  void candidates.listed().then(prepareOrder, () => undefined);
  // Its one fork of the host happens once, instead of during the first offer: once the candidates'
  // first rows are listed, not before the host's first answers (the spawn was ~9 ms of the main
  // thread on the way to the UI's first rows, issue 15). An offer before then starts the shell itself.
  void candidates.listed().then(
    () => void (stopping || gitSpawner.start()),
    () => undefined,
  );
  void candidates.ready.then(prepareOrder, () => undefined);
  const watches = createSessionWatches({ resolve: (id) => watchTargetOf(store, id), onDrift: (sessionId, paths) => emitUiEvent('workspace:drift', { sessionId, paths }) });
  const dispatch = createUiDispatcher({
    'host:info': async () => ({ host: options.kind, version: BATON_VERSION, dataDir: options.dataDir, endpoint: endpoint.address, encryption: encryptionView(store.atRest) }),
    'sessions:list': async ({ includeArchived }) => store.list({ includeArchived }),
    'session:get': async ({ id }) => {
      // Messages first: damage this read finds is recorded in the session it returns.
      const messages = await store.readMessages(id, { tail: SESSION_VIEW_MESSAGE_LIMIT });
      const session = await store.getSession(id);
      // Older messages exist only when the tail came back full: a count above what was read can
      // also mean lines quarantined as damage, and a view told "older" would ask for them.
      return { session, messages, truncated: messages.length >= SESSION_VIEW_MESSAGE_LIMIT };
    },
    'session:messages': async ({ id, beforeSeq, afterSeq, limit }) => ({
      messages:
        beforeSeq !== undefined ? await store.readMessages(id, { beforeSeq, tail: limit }) : await store.readMessages(id, { afterSeq: afterSeq ?? -1, limit }),
    }),
    'search:messages': async ({ query }) => {
      // Baton's sessions from the index; Claude Code / Codex sessions not opened yet by their first prompt.
      const { hits, tookMs } = await search.searchSessions(query);
      const started = performance.now();
      const imported = new Set((await store.list()).map((row) => row.id));
      // A new host may still hold only the index's first screen: a search needs every entry (it ends that wait).
      await candidates.current({ partialOk: true });
      const found = searchCandidates(notYetImported(candidates.entries().map((e) => e.candidate()), imported), query);
      return { hits: [...hits, ...found], tookMs: tookMs + performance.now() - started };
    },
    'agents:preview': async (request) => preview.page(request),
    'editor:open': async ({ sessionId, path, line }) => {
      const session = await store.getSession(sessionId);
      const started = await openInEditor(pathInside(session.gitRoot ?? session.cwd, path), line ?? 1);
      return { command: [started.command, ...started.args].join(' ') };
    },
    'session:search': async ({ id, query }) => ({ seqs: await search.searchSession(id, query) }),
    'stats:get': async () => computeHandoffStats(await store.readEvents(), lastActivityOf(await store.list({ includeArchived: true }))),
    'alerts:list': async () => alertsFrom(await store.readEvents()),
    'artifact:text': async ({ sessionId, ref }) => {
      const bytes = Buffer.from(await store.readArtifact(sessionId, ref));
      const shown = bytes.subarray(0, FULL_OUTPUT_VIEW_MAX_BYTES);
      return { text: shown.toString('utf8'), bytes: bytes.length, shownBytes: shown.length };
    },
    ...createLifecycleUiHandlers({ store, dataDir: options.dataDir, onChanged: (id, reason) => emitUiEvent('session:changed', { id, reason }) }),
    ...createRelayUiHandlers({ dataDir: options.dataDir, store, relay, endpoint, token, onDevicesChanged: (reason) => emitUiEvent('devices:changed', { reason }) }),
    'approvals:pending': async () => approvals.withLinks(approvals.listPending()),
    'approvals:history': async ({ sessionId }) => approvals.withLinks(await approvals.history(sessionId)),
    'approvals:decide': async ({ requestId, ...params }) => approvals.decide(requestId, params),
    'grants:list': async ({ sessionId }) => approvals.linkGrants(await approvals.grants.list(sessionId)),
    'grants:revoke': async ({ sessionId, grantId }) => {
      await approvals.grants.revoke(sessionId, grantId, 'revoked in the UI');
      return { revoked: true as const };
    },
    'tasks:list': async ({ sessionId }) => tasks.list(sessionId ? { sessionId } : undefined),
    'tasks:handoff': async ({ sessionId }) => tasks.forHandoff(sessionId),
    'tasks:carried': async ({ sessionId }) => carriedTasksOf(await store.getSession(sessionId), await tasks.list({ sessionId })),
    'tasks:terminate': async ({ id }) => tasks.terminate(id, { confirmed: true }),
    'tasks:clear-finished': async () => {
      const cleared = await tasks.clearFinished();
      for (const id of cleared) emitUiEvent('tasks:changed', { id, state: 'cleared' });
      return { cleared };
    },
    'tasks:log': async ({ id }) => tasks.readLog(id),
    'workspace:status': workspace.status,
    'workspace:diff': workspace.diff,
    'workspace:file': workspace.file,
    'workspace:rehydrate': async (request) => {
      const result = await workspace.rehydrate(request);
      emitUiEvent('session:changed', { id: request.sessionId, reason: 'rehydrate' });
      return result;
    },
    'workspace:watch': async ({ sessionId, renew }) => (renew !== undefined ? watches.renew(renew) : null) ?? watches.start(sessionId),
    'workspace:unwatch': async ({ watchId }) => {
      await watches.stop(watchId);
      return { stopped: true as const };
    },
    'agents:list': async ({ offset, limit }) => {
      // The resident set: no rescan per request (issue 15); watches keep it current. A page
      // reload with nothing changed gets the list sorted for the last one; the UI asks for the
      // newest page first and streams the rest.
      // A fresh data directory: the rows read so far, marked scanning (the UI shows them with the progress).
      markPhase('agents-list-asked');
      // A new host's first page, from the index's first screen while the rest of the index waits.
      const early = await firstScreenPage(candidates, () => store.list({ includeArchived: true }), offset, limit);
      if (early) {
        markPhase('agents-list-first-screen');
        return early;
      }
      await candidates.current({ partialOk: true });
      markPhase('agents-list-candidates');
      const order = await agentList.order();
      markPhase('agents-list-sorted');
      return { ...agentListPage(order, offset, limit), ...(candidates.partial() ? { scanning: true } : {}) };
    },
    'agents:import': async ({ source, path }) => {
      const { session, created } = await importAgentSession(store, source, path);
      emitUiEvent('session:changed', { id: session.id, reason: 'import' });
      return { sessionId: session.id, created };
    },
    'composer:status': async ({ sessionId }) => runner.status(sessionId),
    'composer:send': async (request) => runner.send(request),
    'composer:stop': async ({ sessionId }) => runner.stop(sessionId),
    'composer:hand-back': async ({ sessionId }) => {
      const doc = await runner.handBack(sessionId);
      emitUiEvent('session:changed', { id: sessionId, reason: 'hand-back' });
      return doc;
    },
    'terminal:command': async (request) => {
      const known = (await store.list()).flatMap((row) => [row.cwd, row.gitRoot ?? row.cwd]);
      if ('sessionId' in request) return terminalCommandFor(commandTargetOf(await store.getSession(request.sessionId)), known);
      return terminalCommandFor({ tool: request.source, id: request.externalId, cwd: request.cwd }, known);
    },
  });

  return {
    dataDir: options.dataDir,
    store,
    endpoint,
    token,
    dispatch,
    approvals,
    tasks,
    candidates,
    agentList,
    relay,
    runner,
    emitUiEvent,
    onUiEvent(listener) {
      emitter.on('ui', listener);
      return () => emitter.off('ui', listener);
    },
    async close(closing = {}) {
      stopping = true;
      // The runs this host started stop with it (their tasks record why), unless the person chose to leave them.
      await runner.close({ leaveRunning: closing.leaveRunsOnClose ?? options.leaveRunsOnClose ?? process.env.BATON_LEAVE_RUNS_ON_CLOSE === '1' });
      emitter.removeAllListeners();
      for (const unsubscribe of unsubscribers) unsubscribe();
      await relay?.close();
      await endpointServer.close();
      // A hosted handoff under way lands, answers and writes its event line before the store closes.
      await hostedHandoff.settle();
      gitSpawner.close();
      await Promise.all([approvals.close(), tasks.close(), watches.close(), candidates.close(), search.close(), closeCandidateMethods(candidateMethods)]);
      await preparing;
      await store.close();
    },
  };
}
