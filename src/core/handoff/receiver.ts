import { Manifest, describeZodError } from '../../shared/manifest.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { Answer, ConnectionContext, IncomingRequest, RequestHandler } from '../transport/types.js';
import type { SessionStore } from '../store/types.js';
import type { SessionDoc } from '../../shared/session.js';
import { canonicalJson, sha256Hex } from '../hash.js';
import { verifyAgainstDisk } from './verify-offer.js';
import { reportMismatch } from '../context/mismatch-alert.js';
import type { HandoffAlert } from '../../shared/ui-contract.js';
import { isValidId } from '../../shared/ids.js';
import { tieredSafeParse } from '../../shared/tiered-parse.js';
import { readSessionWorkspace, verifyWorkspace, type GitSpawner, type ObservedRepository } from '../workspace/index.js';

export const RECEIVER_PROTOCOL_MAJOR = 1;

/**
 * A host receives one offer per handoff, far fewer than the parses that pay back zod's compile of
 * the manifest's parser (~6 ms on the first offer): interpreted, as the store's session.json.
 */
const parseManifest = tieredSafeParse(Manifest);

/** A change to a session document that returns the document itself when it has nothing to change. */
export type SessionChange = (doc: SessionDoc) => SessionDoc;

export type OfferStatus = 'accepted' | 'duplicate' | 'needs-capabilities' | 'rejected';

export interface ReceiverEvent {
  kind: 'handoff' | 'select' | 'mismatch';
  sessionId: string;
  status?: OfferStatus;
  /** For 'mismatch': what the UI shows. */
  alert?: HandoffAlert;
}

export interface ReceiverOptions {
  store: SessionStore;
  /** What this host can show (a headless host offers fewer). */
  capabilities: readonly string[];
  /** Who takes the baton on acceptance. */
  holder: string;
  /** Told after a session was accepted or a link asked to select one. */
  onEvent?: (event: ReceiverEvent) => void;
  /**
   * Where permissions narrow, in two steps: the first only reads, and starts once the offer is
   * parsed, beside the verification and the sender's record; the function it gives runs once the
   * offer is verified and displayable and the record is durable (its writes, the narrowing's
   * revocations, keep the crash order), before the baton is taken. The change it returns is
   * applied in the write that takes the baton: one durable write per accepted offer, and the two
   * land together.
   */
  prepareAccept?: (manifest: Manifest) => Promise<() => Promise<SessionChange | void>>;
  /** Extra request methods (approvals, tasks) bound by later layers. */
  methods?: Record<string, RequestHandler>;
  /**
   * The host's long-lived git shell (git-spawner.ts): the workspace verdict's git then starts
   * without a fork of the host, which would stop the verification running beside it.
   */
  gitSpawner?: GitSpawner;
}

/**
 * The connection of an offer made in this very process (a hosted handoff, hosted-handoff.ts),
 * which also carries the sender's record of the offer (handoff.json and its history line) while
 * it is still being written: the receiver verifies meanwhile and waits for it only before the
 * narrowing and the baton. A socket's connection never has it (the transport builds its context).
 */
export interface OfferConnection extends ConnectionContext {
  readonly beforeTake?: Promise<unknown>;
  /** Marks where the receiver's time goes (a hosted handoff's `hostMs`, for the CLI's trace). */
  readonly mark?: (name: string) => void;
  /** A hosted handoff's own capture of the workspace it landed (in this process): the verdict takes git's answers from it (verify.ts). */
  readonly observedWorkspace?: ObservedRepository;
}

/**
 * The target side of a handoff (ARCHITECTURE.md §4): validate, check the receipt, verify against
 * the disk, check capabilities, take the baton, record the receipt, tell the UI. Every failure is
 * an answer with a code; nothing here throws to the transport.
 */
export function createReceiver(options: ReceiverOptions): RequestHandler {
  const { store } = options;

  async function offer(params: unknown, connection: OfferConnection): Promise<Answer> {
    const raw = (params as { manifest?: unknown } | null)?.manifest;
    const versionAnswer = checkVersion(raw);
    if (versionAnswer) return versionAnswer;
    const parsed = parseManifest(raw);
    if (!parsed.success) return rejected(ErrorCode.INVALID_MANIFEST, `The manifest is not valid: ${describeZodError(parsed.error)}`);
    const manifest = parsed.data;
    const payloadSha256 = sha256Hex(canonicalJson(manifest));

    const receipt = await store.getReceipt(manifest.handoff_id);
    if (receipt) return replay(receipt, payloadSha256);

    // The workspace verdict only reads (session.json's snapshot and git), and its git processes
    // are most of the receiver's time: it runs beside the verification, the narrowing and the
    // baton instead of after them. It never rejects; an offer refused below leaves it unread.
    const workspace = workspaceVerdict(store, manifest.session_id, options.gitSpawner, connection.observedWorkspace);
    // The narrowing's reads beside the verification (an offer refused below leaves them unread).
    const accepting = options.prepareAccept?.(manifest);
    accepting?.catch(() => undefined);
    if (connection.mark) workspace.then(() => connection.mark?.('host-verdict'), () => undefined);

    let mismatches;
    try {
      mismatches = await verifyAgainstDisk(store, manifest);
    } catch (error) {
      const code = (error as { code?: string }).code === ErrorCode.NOT_FOUND ? ErrorCode.NOT_FOUND : ErrorCode.IO_ERROR;
      return rejected(code, `Session ${manifest.session_id} could not be read from the store: ${(error as Error).message}`);
    }
    connection.mark?.('host-verified');
    if (mismatches.length > 0) {
      options.onEvent?.({ kind: 'mismatch', sessionId: manifest.session_id, alert: await reportMismatch(store, manifest, mismatches) });
      const fields = mismatches.map((m) => m.field);
      return { ...rejected(ErrorCode.VERIFY_MISMATCH, `The files on disk differ from the manifest in: ${fields.join(', ')}`), mismatches };
    }

    const missing = manifest.capabilities_required.filter((c) => !options.capabilities.includes(c));
    if (missing.length > 0) return { ok: true, status: 'needs-capabilities', missing, sessionId: manifest.session_id };

    // Crash order: the sender's record is durable before anything of the take is written (the
    // narrowing's revocations, the baton, the receipt). A host that dies after the take re-offers
    // from that record with the same handoff id, which the baton's holder names: never a second
    // take. The verification above only reads, so it ran while the record was being fsynced.
    if (connection.beforeTake) {
      try {
        await connection.beforeTake;
      } catch (error) {
        return rejected(ErrorCode.IO_ERROR, `The sender's record of handoff ${manifest.handoff_id} could not be saved, so it was not taken: ${(error as Error).message}`);
      }
      connection.mark?.('host-may-take');
    }
    // Narrowing first: if it fails the handoff is refused and the baton stays where it was.
    const narrowing = accepting ? ((await (await accepting)()) ?? undefined) : undefined;
    connection.mark?.('host-narrowed');
    const epoch = await takeBaton(store, manifest.session_id, manifest.handoff_id, options.holder, narrowing);
    connection.mark?.('host-taken');
    const answer = { ok: true, status: 'accepted', handoffId: manifest.handoff_id, sessionId: manifest.session_id, epoch, workspace: await workspace };
    const stored = await store.putReceipt({
      handoffId: manifest.handoff_id,
      sessionId: manifest.session_id,
      payloadSha256,
      answer,
      createdAt: new Date().toISOString(),
    });
    connection.mark?.('host-receipt');
    // Two offers of the same key may race; the receipt that landed first is the answer for both.
    if (stored.payloadSha256 !== payloadSha256 || stored.answer.epoch !== answer.epoch) return replay(stored, payloadSha256);
    options.onEvent?.({ kind: 'handoff', sessionId: manifest.session_id, status: 'accepted' });
    return answer as Answer;
  }

  async function openSession(params: unknown): Promise<Answer> {
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    if (!isValidId(sessionId)) return rejected(ErrorCode.BAD_REQUEST, 'session.open needs a valid sessionId');
    try {
      await store.getSession(sessionId);
    } catch {
      return rejected(ErrorCode.NOT_FOUND, `No session ${sessionId} in the store at ${store.root}`);
    }
    options.onEvent?.({ kind: 'select', sessionId });
    return { ok: true, sessionId };
  }

  return async (request: IncomingRequest, connection) => {
    try {
      switch (request.method) {
        case 'ping':
          return { ok: true, pong: true, capabilities: [...options.capabilities] };
        case 'handoff.offer':
          return await offer(request.params, connection);
        case 'session.open':
          return await openSession(request.params);
        default: {
          const extra = options.methods?.[request.method];
          if (extra) return await extra(request, connection);
          return rejected(ErrorCode.UNKNOWN_METHOD, `Unknown method "${request.method}"`);
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code ?? ErrorCode.INTERNAL;
      return rejected(code, (error as Error).message);
    }
  };
}

/**
 * The workspace as the target finds it (complete / partial / none), for the answer; the UI checks
 * again when it opens the session. Never fails the handoff: the conversation is what was offered.
 */
async function workspaceVerdict(store: SessionStore, sessionId: string, spawner: GitSpawner | undefined, observed: ObservedRepository | undefined) {
  try {
    const snapshot = await readSessionWorkspace(store, sessionId);
    if (!snapshot?.git) return null;
    const verification = await verifyWorkspace(snapshot, snapshot.git.root, { spawner, ...(observed ? { observed } : {}) });
    return { status: verification.status, drifted: verification.drifted.map((d) => d.path) };
  } catch (error) {
    return { status: 'unknown', reason: (error as Error).message };
  }
}

/**
 * Takes the baton (epoch + 1) for this handoff, exactly once: the holder records the handoff id,
 * so a receiver killed after the claim but before the receipt does not claim a second time when
 * the source retries. `alongside` (the narrowing's record) is applied in the same write.
 */
async function takeBaton(store: SessionStore, sessionId: string, handoffId: string, who: string, alongside?: SessionChange): Promise<number> {
  const updated = await store.mutate(sessionId, (current) => {
    const changed = alongside ? alongside(current) : current;
    if (changed.holder.handoffId === handoffId) return changed === current ? undefined : changed;
    return { ...changed, holder: { ...changed.holder, who, epoch: changed.holder.epoch + 1, handoffId } };
  });
  return updated.holder.epoch;
}

function rejected(code: string, message: string): Answer {
  return { ok: false, status: 'rejected', code, message };
}

function replay(receipt: { payloadSha256: string; answer: Record<string, unknown>; handoffId: string }, payloadSha256: string): Answer {
  if (receipt.payloadSha256 !== payloadSha256) {
    return rejected(ErrorCode.CONFLICT, `Handoff ${receipt.handoffId} was already received with a different manifest`);
  }
  return { ...receipt.answer, ok: true, status: 'duplicate', firstStatus: receipt.answer.status };
}

/** A newer major protocol is refused with both versions named, before the schema is applied. */
function checkVersion(raw: unknown): Answer | null {
  const version = (raw as { protocol_version?: unknown } | null)?.protocol_version;
  if (typeof version !== 'string') return null;
  const major = Number.parseInt(version.split('.')[0] ?? '', 10);
  if (Number.isFinite(major) && major > RECEIVER_PROTOCOL_MAJOR) {
    return rejected(
      ErrorCode.UPGRADE_REQUIRED,
      `This manifest speaks protocol ${version}; this Baton understands ${RECEIVER_PROTOCOL_MAJOR}.x. Upgrade Baton on the desktop.`,
    );
  }
  return null;
}
