import { join } from 'node:path';
import type { MessageInput } from '../../shared/message.js';
import { WorkspaceErrorCode } from '../../shared/workspace.js';
import { Manifest } from '../../shared/manifest.js';
import { newId } from '../../shared/ids.js';
import type { PermissionState, SessionDoc, SessionSource } from '../../shared/session.js';
import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';
import type { LandingBatch, NewArtifact, SessionStore } from '../store/types.js';
import type { LogBytes } from '../store/log-stream.js';
import type { EndpointInfo } from '../transport/types.js';
import { captureWorkspaceWithPatch, type CapturedWorkspace } from '../workspace/capture.js';
import { landWorkspace, reuseOrCaptureWorkspace } from '../workspace/land.js';
import { landingWorkspacePatch } from '../workspace/session-workspace.js';
import { BATON_VERSION } from '../version.js';
import { buildManifest } from './build-manifest.js';
import { factsMatch, gatherHandoffFacts } from './handoff-facts.js';
import { describeMissing } from './manifest-capabilities.js';
import { digestMessages, type ContextDigest } from './context-digest.js';
import { MESSAGE_MAX_DEPTH } from './read-message-input.js';
import { landingSummary, prepareContext, type LandedConversation } from '../context/context-transfer.js';
import { collectKeyedSecrets, StreamRedactor } from '../redact/redact-value.js';
import { arraySource, scanMessages, type InputScan, type MessageSource } from './message-source.js';
import { redactedBatches } from './landing-batches.js';
import { LandingTotals } from './landing-totals.js';
import { findTarget, type ConnectAttempt } from './find-target.js';
import { batonModelNamed, landingModel } from './manifest-model.js';
import { HandoffCategory, type HandoffOutcome } from './outcome.js';
import { landingPermission } from './manifest-permissions.js';
import { storeFsFor } from '../store/at-rest/registry.js';
import { tracePart } from '../perf/phase-trace.js';

export const DEFAULT_HANDOFF_TIMEOUT_MS = 10_000;

export interface NewSessionRequest {
  /** A fixed id (imports derive it from the source, so the same source lands once). */
  id?: string;
  cwd: string;
  title: string;
  /** The messages, whole or from a source read twice (a --messages file: never held whole). */
  messages: MessageInput[] | MessageSource;
  /** The source's scan, when the caller already made it (the CLI, which names bad lines before landing). */
  scan?: InputScan;
  /** Characters per redaction batch (LANDING_BATCH_CHARS); tests cut inputs finer to cross batch edges. */
  batchChars?: number;
  source?: SessionSource;
  model?: { name: string; settings?: Record<string, unknown> } | null;
  permission?: PermissionState | null;
  /** Background tasks found in an imported log (session.json `tasks`). */
  tasks?: SessionTaskSummary[];
  /**
   * The capture of `cwd` already under way (the CLI starts it before it opens the store and reads
   * the messages, so git runs while they do). Without it, the capture starts here.
   */
  capture?: Promise<CapturedWorkspace>;
}

export interface OfferOptions {
  store: SessionStore;
  endpoint: EndpointInfo;
  token: Buffer;
  timeoutMs: number;
  launch: boolean;
  dryRun: boolean;
  /**
   * The endpoint is a laptop's desktop reached through `baton ssh` (issue 22): its store does not
   * have this session, so the landed session is sent over the same connection before the offer.
   */
  forwarded?: boolean;
  /** A connection attempt started before the offer (find-target.ts connectFirst). */
  firstConnection?: Promise<ConnectAttempt>;
  /**
   * The receiver in this very process (a hosted handoff, hosted-handoff.ts): the manifest goes
   * to it directly, with no socket and nothing to find or launch.
   */
  deliver?: (manifest: Manifest, recorded: Promise<void>) => Promise<Record<string, unknown>>;
  /** Marks where the offer's time goes (a hosted handoff's `hostMs`, for the CLI's trace). */
  mark?: (name: string) => void;
}

/** What was landed, as read back from the disk: offerSession can build the manifest from it without reading again. */
export interface LandedSession {
  session: SessionDoc;
  /** The conversation's digest and summary state, kept as each record was written (the records are not). */
  digest: ContextDigest;
  conversation: LandedConversation;
  /** The trimmed outputs its records name (undefined past MANIFEST_FULL_OUTPUTS_MAX): the manifest lists them for a stored-bytes check. */
  fullOutputs: { ref: string; sha256: string }[] | undefined;
  /** Size and sha256 of messages.jsonl as read back: the receiver checks the disk against these instead of parsing the log again. */
  log: LogBytes;
}

/**
 * Step 1 of a handoff (ARCHITECTURE.md §4): land the session on disk and read it back. Throws
 * (with the store's typed error) when anything could not be made durable: nothing is sent then.
 */
export async function landAndReadBack(store: SessionStore, request: NewSessionRequest): Promise<LandedSession> {
  // The capture (git) is awaited only for the landing's last batch: the messages are redacted,
  // written and fsynced while git builds the patch, and the patch, session.json's `workspace` and
  // its directory fields, written last, still land in the same atomic rename (issue 20).
  const capture = (request.capture ?? captureWorkspaceWithPatch(request.cwd)).catch((error: { code?: string }): CapturedWorkspace => {
    // An imported session may name a directory that is gone: keep the conversation, without a workspace.
    if (request.source && request.source.tool !== 'baton' && error.code === WorkspaceErrorCode.CWD_MISSING) return { snapshot: { cwd: request.cwd, git: null }, patchBytes: null };
    throw error;
  });
  // A landing refused before its last batch never reads the capture: its failure is not unhandled.
  capture.catch(() => undefined);
  let captured: { workspace: CapturedWorkspace; patched: ReturnType<typeof landingWorkspacePatch> } | undefined;
  const awaitCapture = async (): Promise<NewArtifact[]> => {
    const workspace = await capture;
    captured = { workspace, patched: landingWorkspacePatch(workspace) };
    return captured.patched.artifacts;
  };
  /** The capture as the last batch took it (the store reads the late fields only after that batch). */
  const landedCapture = () => {
    if (!captured) throw Object.assign(new Error('the workspace capture was read before the landing took it'), { code: 'INTERNAL' });
    return captured;
  };
  // One pipeline for every input (issue 20): a scan, then batches redacted, trimmed and written as
  // they are read, with running totals for the manifest; the session is never held whole.
  const source = Array.isArray(request.messages) ? arraySource(request.messages) : (request.messages as MessageSource);
  const scan = request.scan ?? (await scanMessages(source, { checkDepth: true }));
  if (scan.tooDeep >= 0) {
    // Imports arrive here without the CLI's line check: the same limit, named before any write.
    throw Object.assign(new Error(`message ${scan.tooDeep + 1} is nested deeper than ${MESSAGE_MAX_DEPTH} levels; Baton stores messages up to that depth`), { code: 'BAD_REQUEST' });
  }
  const header = {
    title: request.title,
    // A Baton session's model is what its messages say (README: message format); imports pass theirs.
    model: request.model ?? (request.source && request.source.tool !== 'baton' ? null : batonModelNamed(scan.lastAssistantModel)),
    permission: request.permission ?? null,
    tasks: request.tasks ?? [],
  };
  // A literal under a secret-named key goes wherever it occurs: in the messages or in the header.
  const keyed = new Set(scan.keyedSecrets);
  collectKeyedSecrets(header, keyed);
  const redactor = new StreamRedactor(keyed);
  const content = await redactor.redact(header);
  const totals = new LandingTotals();
  // The patch, the permission rules and the model settings land with the session (their refs
  // already in `workspace`, `permission` and `model`): landWorkspace and the handoff's facts then
  // find them in place and do not rewrite session.json. The artifacts name the session, so its id
  // is chosen here.
  const id = request.id ?? newId('s-');
  const sessionSource = request.source ?? { tool: 'baton' };
  const permission = landingPermission({ id, source: sessionSource, permission: content.permission });
  const model = content.model ? await landingModel(id, content.model) : null;
  // The first summary too, made once the last record went through the totals (its batch comes last).
  let summary: ReturnType<typeof landingSummary> | undefined;
  const landedSummary = () => (summary ??= landingSummary({ id, source: sessionSource, model: content.model }, totals.conversation()));
  const { session: created, log } = await store.landSessionStream(
    {
      id,
      // Stand-ins until the capture is in (lateDirectory): the document is checked with them first.
      cwd: request.cwd,
      gitRoot: null,
      branch: null,
      title: content.title,
      source: sessionSource,
      model: model?.model ?? null,
      permission: permission.permission,
      holder: 'terminal',
    },
    withArtifacts([permission.artifact, ...(model ? [model.artifact] : [])], redactedBatches(source, scan, redactor, request.batchChars), async () => [...(await awaitCapture()), landedSummary().artifact]),
    {
      repeatedIds: scan.mayRepeat,
      onRecord: (record) => totals.add(record),
      // Known once every message went through the redactor.
      lateExtra: () => {
        const redactions = redactor.found();
        return { workspace: landedCapture().patched.workspace, ...(Object.keys(redactions).length > 0 ? { redactions } : {}), ...(content.tasks.length ? { tasks: content.tasks } : {}), context: landedSummary().context };
      },
      lateDirectory: () => {
        const { snapshot } = landedCapture().workspace;
        return { cwd: snapshot.cwd, gitRoot: snapshot.git?.root ?? null, branch: snapshot.git?.branch ?? null };
      },
    },
  );
  // The patch goes under artifacts/ (by hash) and its ref into session.json's `workspace`.
  const session = await landWorkspace(store, created, landedCapture().workspace);
  // landSessionStream read the log back (every line's checksum against the record written there,
  // and the count); the store folds a repeated message (same id, same content) into one, with a note.
  const digest = totals.digest();
  if (digest.message_count !== session.messageCount) {
    throw Object.assign(new Error(`Session ${session.id}: wrote ${session.messageCount} messages but read back ${digest.message_count}`), {
      code: 'IO_ERROR',
    });
  }
  return { session, digest, conversation: totals.conversation(), fullOutputs: totals.fullOutputs(), log };
}

/** The batches, between one that carries only `first` (when there are any) and one with the artifacts `last` makes once they were all written. */
async function* withArtifacts(first: NewArtifact[], batches: AsyncIterable<LandingBatch>, last: () => Promise<NewArtifact[]>): AsyncIterable<LandingBatch> {
  if (first.length > 0) yield { messages: [], artifacts: first };
  yield* batches;
  yield { messages: [], artifacts: await last() };
}

/**
 * Steps 2–5: build (or reuse) the manifest, find the target, offer, and report. Re-offering a
 * session whose conversation has not changed reuses its handoff id, so a receiver that already
 * took it answers `duplicate` instead of creating anything new.
 */
export async function offerSession(sessionId: string, options: OfferOptions, landed?: LandedSession): Promise<HandoffOutcome> {
  const started = Date.now();
  const durationsMs: Record<string, number> = {};
  const { store } = options;
  const sessionDir = store.sessionDir(sessionId);
  // Just landed in this process: the read-back is the disk's state, no need to read it again.
  const fresh = landed?.session.id === sessionId ? landed : null;
  const session = fresh?.session ?? (await store.getSession(sessionId));
  // A fresh landing kept its digest and summary state: the log is not read again.
  const records = fresh ? null : await store.readMessages(sessionId);
  const previous = fresh ? null : await readLatestManifest(sessionDir);
  const digest = fresh?.digest ?? digestMessages(records!);
  let manifest: Manifest;
  let recorded: Promise<void> = Promise.resolve();
  const workspace = await reuseOrCaptureWorkspace(store, session).catch(() => ({ cwd: session.cwd, git: null }));
  const facts = await gatherHandoffFacts(store, session, workspace);
  if (previous && previous.context.messages_sha256 === digest.messages_sha256 && previous.session_id === sessionId && factsMatch(previous, facts)) {
    manifest = previous;
  } else {
    // Summary (artifacts/summary-NN.md, extending the previous one), anchors and token estimate.
    const context = await prepareContext(store, session, fresh?.conversation ?? records!);
    options.mark?.('host-summary');
    manifest = buildManifest({ handoffId: newId('h'), session, digest, workspace, facts, context, client: { name: 'baton-cli', version: BATON_VERSION }, ...(fresh ? { log: fresh.log, fullOutputs: fresh.fullOutputs } : {}) });
    // Recorded before anything is offered (a re-offer reuses this handoff id), while the connection is made.
    recorded = store.recordHandoff(sessionId, manifest as Record<string, unknown>);
    options.mark?.('host-manifest');
    if (options.mark) recorded.then(() => options.mark?.('host-recorded'), () => undefined);
  }
  durationsMs.manifest = Date.now() - started;
  const base = { sessionId, handoffId: manifest.handoff_id, sessionDir, durationsMs };

  if (options.dryRun) {
    await recorded;
    return { ...base, category: HandoffCategory.accepted, answer: { dryRun: true, manifest }, message: 'Dry run: the session is saved and the manifest built; nothing was offered.' };
  }

  if (options.deliver) {
    // The receiver in this process verifies while the record (handoff.json, its history line) is
    // fsynced, and takes nothing before it is durable (`recorded`, receiver.ts): a re-offer then
    // reuses this handoff id, as below where the record is awaited before the socket's offer.
    recorded.catch(() => undefined); // awaited below; the receiver's own await may come later
    const offerStarted = Date.now();
    const answer = await options.deliver(manifest, recorded);
    // A record that failed fails the offer as before (the receiver refused to take it).
    await recorded;
    // The same keys as an offer over the socket: the CLI's --json does not depend on the path.
    durationsMs.connect = 0;
    durationsMs.offer = Date.now() - offerStarted;
    durationsMs.total = Date.now() - started;
    return { ...base, ...categorise(answer), answer };
  }

  const [record, found] = await Promise.allSettled([
    recorded,
    tracePart('socket', findTarget({ endpoint: options.endpoint, token: options.token, handoffId: manifest.handoff_id, sessionId, timeoutMs: options.timeoutMs, launch: options.launch, ...(options.firstConnection ? { first: options.firstConnection } : {}) })),
  ]);
  if (found.status === 'rejected') throw found.reason;
  const target = found.value;
  if (record.status === 'rejected') {
    if (target.found) target.client.close();
    throw record.reason;
  }
  durationsMs.connect = Date.now() - started - durationsMs.manifest;
  if (!target.found) return { ...base, category: target.category, message: target.reason };

  try {
    if (options.forwarded) {
      const uploadStarted = Date.now();
      // Loaded only through baton ssh: a local handoff does not start the relay/bundle code it needs.
      const { uploadSession } = await import('../ssh/session-upload.js');
      const sent = await uploadSession(target.client, store, sessionId, manifest.handoff_id);
      durationsMs.upload = Date.now() - uploadStarted;
      if (!sent.ok) return { ...base, ...categorise(sent), answer: sent };
    }
    const offerStarted = Date.now();
    const answer = await tracePart('socket', target.client.request('handoff.offer', { manifest }, { timeoutMs: options.timeoutMs }));
    durationsMs.offer = Date.now() - offerStarted;
    return { ...base, ...categorise(answer), answer };
  } finally {
    target.client.close();
    durationsMs.total = Date.now() - started;
  }
}

function categorise(answer: Record<string, unknown>): { category: HandoffCategory; message: string } {
  const status = answer.status;
  if (answer.ok === true && status === 'accepted') return { category: HandoffCategory.accepted, message: 'The desktop accepted the session.' };
  if (answer.ok === true && status === 'duplicate') return { category: HandoffCategory.duplicate, message: 'The desktop already had this handoff; nothing new was created.' };
  if (answer.ok === true && status === 'needs-capabilities') {
    const missing = Array.isArray(answer.missing) ? describeMissing(answer.missing.map(String)) : 'unknown';
    return { category: HandoffCategory.needsCapabilities, message: `The receiving host cannot show what this session needs: ${missing}. Nothing was handed over; open the session in a Baton host that can (the desktop app: npm start).` };
  }
  const code = String(answer.code ?? 'REJECTED');
  const category = code === 'CONFLICT' ? HandoffCategory.conflict : HandoffCategory.rejected;
  return { category, message: `The desktop refused the handoff (${code}): ${String(answer.message ?? '')}` };
}

async function readLatestManifest(sessionDir: string): Promise<Manifest | null> {
  try {
    // Through the store's file system: handoff.json is sealed when the store is encrypted at rest.
    const path = join(sessionDir, 'handoff.json');
    const parsed = Manifest.safeParse(JSON.parse((await storeFsFor(path).readFile(path)).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
