import { stat } from 'node:fs/promises';
import type { Manifest } from '../../shared/manifest.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { SessionStore } from '../store/types.js';
import type { Answer, ConnectionContext, EndpointInfo, IncomingRequest, RequestHandler } from '../transport/types.js';
import { captureWorkspaceWithPatch, type ObservedRepository } from '../workspace/capture.js';
import type { GitSpawner } from '../workspace/git-spawner.js';
import { payloadConflict, payloadDigest, recordDigest, recordedDigest } from './hosted-handoff-key.js';
import { HOSTED_HANDOFF_METHOD, parseHostedHandoffRequest, type HostedHandoffRequest } from './hosted-handoff-request.js';
import { defaultTitle, scanMessageBytes } from './message-source.js';
import { HandoffCategory, type HandoffOutcome } from './outcome.js';
import { landAndReadBack, offerSession, type LandedSession } from './send.js';
import type { OfferConnection } from './receiver.js';

/** Answers kept for a request sent again after a dropped connection (by session id, oldest dropped first). */
export const HOSTED_HANDOFF_ANSWERS_KEPT = 256;
/** Requests whose parts are still arriving, at once (each holds at most HOSTED_HANDOFF_MAX_BYTES). */
export const HOSTED_HANDOFF_PENDING_MAX = 8;

export interface HostedHandoffOptions {
  store: SessionStore;
  /** The host's long-lived git shell: the capture's first round of git forks no part of the host. */
  gitSpawner?: GitSpawner;
  /** The host's own endpoint (offerSession's options name one; nothing connects to it). */
  endpoint: EndpointInfo;
  token: Buffer;
  /** The receiver's handling of `handoff.offer` (receiver.ts): verification, narrowing, baton, receipt, event. */
  take: (manifest: Manifest, connection: OfferConnection) => Promise<Answer>;
}

/**
 * The request's connection with the sender's record in flight: the receiver verifies beside its
 * fsyncs and takes once it is durable. With the capture this request landed, whose git answers
 * the receiver's workspace verdict takes instead of asking git again moments later (verify.ts).
 */
function takeConnection(connection: ConnectionContext, recorded: Promise<void>, mark: (name: string) => void, observed: ObservedRepository | undefined): OfferConnection {
  return { signal: connection.signal, ...(connection.credential ? { credential: connection.credential } : {}), beforeTake: recorded, mark, ...(observed ? { observedWorkspace: observed } : {}) };
}

interface Pending {
  request: Omit<HostedHandoffRequest, 'part' | 'data'>;
  chunks: Buffer[];
  signal: AbortSignal;
}

export interface HostedHandoff {
  /** The `handoff.land` method. */
  handle: RequestHandler;
  /** Resolves once every landing under way has answered and its event line is written (before the store closes). */
  settle(): Promise<void>;
}

/**
 * `handoff.land` on a running host (issue 20): lands a session from the messages the CLI sent
 * and takes it, as `baton handoff` and this host's receiver would in two processes, with the same
 * code: the same store, redaction, workspace capture of the given cwd, landing (fsynced and read
 * back before anything is offered), handoff record and manifest (offerSession), then the
 * receiver's own offer handling. Local connections only (the remote gate lets no `baton ssh`
 * credential reach it).
 *
 * A request sent again (same session id: the client makes it, see hosted-handoff-request.ts) is
 * answered with the first answer while this host remembers it; after that, or from another
 * host process, the session found in the store is offered again, as `baton handoff --session`
 * would (a receiver that took it answers `duplicate`). Nothing lands twice: the store refuses a
 * second session of one id. The same id with another payload (bytes, cwd, title, source), or
 * naming a session no hosted handoff landed, is refused with CONFLICT (hosted-handoff-key.ts).
 *
 * Answers, which the CLI prints (src/cli/handoff-fast.ts):
 *  - `{ok: true, outcome}`: the handoff's outcome, exactly as the full CLI reports it;
 *  - `{ok: true, problem: {code, message}}`: the messages are not valid; nothing was saved;
 *  - `{ok: true, part}`: a part before the last was received;
 *  - `{ok: false, code, message}`: refused before anything was saved (the CLI then runs the
 *    full handoff itself).
 */
export function createHostedHandoff(options: HostedHandoffOptions): HostedHandoff {
  const { store } = options;
  const pending = new Map<string, Pending>();
  /** Per connection, the ids it holds parts of and its one abort listener (removed once it holds none). */
  const watched = new Map<AbortSignal, { ids: Set<string>; onAbort: () => void }>();
  const answers = new Map<string, { digest: string; answer: Promise<Answer> }>();
  /** Every handle() under way, from its first line (settle() waits for them, even one evicted from `answers`). */
  const inFlight = new Set<Promise<Answer>>();
  /** Event lines still being written (after their answer). */
  const writing = new Set<Promise<void>>();
  const track = (write: Promise<void>) => {
    writing.add(write);
    void write.finally(() => writing.delete(write));
  };
  /** A capture started beside the look-ups that the request turned out not to need: not waited for, but settle() does. */
  const unused = (capture: Promise<unknown>) => track(capture.then(() => undefined, () => undefined));

  function remember(sessionId: string, digest: string, answer: Promise<Answer>): void {
    answers.set(sessionId, { digest, answer });
    if (answers.size > HOSTED_HANDOFF_ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
  }

  /** Drops what is held for `sessionId`, and its connection's listener once that connection holds nothing. */
  function drop(sessionId: string): void {
    const entry = pending.get(sessionId);
    if (!entry) return;
    pending.delete(sessionId);
    const watch = watched.get(entry.signal);
    if (!watch) return;
    watch.ids.delete(sessionId);
    if (watch.ids.size === 0) {
      entry.signal.removeEventListener('abort', watch.onAbort);
      watched.delete(entry.signal);
    }
  }

  /** Holds a first part; a connection that closes mid-way leaves nothing held (one listener per connection). */
  function hold(sessionId: string, entry: Pending): void {
    drop(sessionId);
    pending.set(sessionId, entry);
    let watch = watched.get(entry.signal);
    if (!watch) {
      const ids = new Set<string>();
      const onAbort = () => {
        for (const id of [...ids]) drop(id);
      };
      watch = { ids, onAbort };
      watched.set(entry.signal, watch);
      entry.signal.addEventListener('abort', onAbort, { once: true });
    }
    watch.ids.add(sessionId);
  }

  /** The whole file once its last part came, an answer for a part before it, or a refusal. */
  function collect(request: HostedHandoffRequest, connection: ConnectionContext): Buffer | Answer {
    if (request.parts === 1) return request.data;
    const { part: _part, data: _data, ...fields } = request;
    if (request.part === 0) {
      // A connection closed already (a request the early endpoint queued): its listener would never fire.
      if (connection.signal.aborted) return refused(ErrorCode.BAD_REQUEST, `${HOSTED_HANDOFF_METHOD}: the connection of part 0 of ${request.sessionId} is closed`);
      if (!pending.has(request.sessionId) && pending.size >= HOSTED_HANDOFF_PENDING_MAX) {
        return refused('BUSY', `${HOSTED_HANDOFF_METHOD}: ${HOSTED_HANDOFF_PENDING_MAX} handoffs are arriving already (HOSTED_HANDOFF_PENDING_MAX)`);
      }
      hold(request.sessionId, { request: fields, chunks: [request.data], signal: connection.signal });
      return { ok: true, part: 0 };
    }
    const entry = pending.get(request.sessionId);
    if (!entry || entry.signal !== connection.signal || entry.chunks.length !== request.part || !sameFields(entry.request, fields)) {
      if (entry?.signal === connection.signal) drop(request.sessionId);
      return refused(ErrorCode.BAD_REQUEST, `${HOSTED_HANDOFF_METHOD}: part ${request.part} of ${request.sessionId} must follow parts 0 to ${request.part - 1} of the same request on the same connection`);
    }
    entry.chunks.push(request.data);
    if (request.part < request.parts - 1) return { ok: true, part: request.part };
    drop(request.sessionId);
    return Buffer.concat(entry.chunks);
  }

  async function handOff(request: Omit<HostedHandoffRequest, 'part' | 'data'>, bytes: Buffer, digest: string, connection: ConnectionContext): Promise<Answer> {
    // Where the host's time goes, for the CLI's trace (bench/handoff/cli-process.ts): ms since the request was whole.
    const started = performance.now();
    const hostMs: Record<string, number> = {};
    const mark = (name: string) => (hostMs[name] = Math.round((performance.now() - started) * 100) / 100);
    const answered = (outcome: HandoffOutcome): Answer => ({ ok: true, outcome, hostMs });
    // The capture (git, the landing's longest part) starts before the store's look-ups, not after
    // them: it only reads (a copy of the index, never the person's), so a request those look-ups
    // refuse or find landed already leaves nothing behind but its unused result. It runs while
    // the messages are parsed and scanned, as in the CLI.
    const capture = captureWorkspaceWithPatch(request.cwd, { spawner: options.gitSpawner });
    capture.then(() => mark('host-captured'), () => undefined);
    const [saved, recorded] = await Promise.all([
      store.getSession(request.sessionId).then(
        () => true,
        () => false,
      ),
      recordedDigest(store.root, request.sessionId),
    ]);
    mark('host-looked-up');
    // Same key, another payload (or a session this request did not land): refused, nothing offered.
    if ((saved && recorded !== digest) || (recorded !== null && recorded !== digest)) {
      unused(capture);
      return refused(ErrorCode.CONFLICT, `${HOSTED_HANDOFF_METHOD}: ${payloadConflict(request.sessionId)}`);
    }
    let landed: LandedSession | undefined;
    /** What the capture's git saw of the repository this request landed (none for a session found saved). */
    let observed: ObservedRepository | undefined;
    if (saved) unused(capture);
    else {
      const input = await scanMessageBytes(bytes, request.source);
      mark('host-read');
      if (!input.ok) {
        await capture.catch(() => undefined);
        return { ok: true, problem: { code: 'BAD_INPUT', message: input.message } };
      }
      // The client saw a repository that this host's git did not (another PATH, no file access):
      // refused before the session is saved, so the CLI, in the terminal's environment, records it.
      const cannotRead = () => Promise.reject(new HostCannotReadRepository());
      const checked = request.git ? capture.then((c) => (c.snapshot.git === null ? cannotRead() : c), cannotRead) : capture;
      // The digest is written while git and the landing run; the landing takes the capture (its
      // last batch) only once the digest is durable too, so no session is ever visible without it.
      const keyed = recorded === null ? recordDigest(store.root, request.sessionId, digest) : Promise.resolve();
      const landable = Promise.all([checked, keyed]).then(([c]) => c);
      try {
        landed = await landAndReadBack(store, { id: request.sessionId, cwd: request.cwd, title: request.title ?? defaultTitle(input.scan), messages: input.source, scan: input.scan, capture: landable });
      } catch (error) {
        if (error instanceof HostCannotReadRepository) {
          await keyed.catch(() => undefined);
          return refused('WORKSPACE', `${HOSTED_HANDOFF_METHOD}: the client found a git repository above ${request.cwd} that this host's git could not read`);
        }
        return answered({ category: HandoffCategory.writeFailure, sessionId: null, handoffId: null, sessionDir: null, message: `The session could not be saved, so nothing was sent: ${(error as Error).message}`, durationsMs: {} });
      }
      mark('host-landed');
      observed = (await capture.catch(() => undefined))?.observed;
    }
    let outcome: HandoffOutcome;
    try {
      outcome = await offerSession(request.sessionId, { store, endpoint: options.endpoint, token: options.token, timeoutMs: 0, launch: false, dryRun: false, mark, deliver: (manifest, recorded) => options.take(manifest, takeConnection(connection, recorded, mark, observed)) }, landed);
    } catch (error) {
      // Saved, not offered (its manifest could not be recorded): said with where it is.
      outcome = { category: HandoffCategory.rejected, sessionId: request.sessionId, handoffId: null, sessionDir: store.sessionDir(request.sessionId), message: `The session was saved but could not be offered: ${(error as Error).message}`, durationsMs: {} };
    }
    mark('host-answered');
    // The source side's event line, as the CLI writes it once answered; written after this answer
    // is sent (the CLI is waiting, the line is observability only), and its failure never turns a
    // delivered handoff into one. Kept, so a host closing waits for it (settle()).
    track(
      store
        .appendEvent({ at: new Date().toISOString(), side: 'source', category: outcome.category, sessionId: outcome.sessionId, handoffId: outcome.handoffId, durationsMs: outcome.durationsMs, hosted: true })
        .catch(() => undefined),
    );
    return answered(outcome);
  }

  async function handleOne(incoming: IncomingRequest, connection: ConnectionContext): Promise<Answer> {
    // The remote gate admits no `baton ssh` credential to this method; checked here too.
    if (connection.credential) return refused(ErrorCode.ACCESS_DENIED, `${HOSTED_HANDOFF_METHOD} is for local connections only`);
    const parsed = parseHostedHandoffRequest(incoming.params);
    if (!parsed.ok) return refused(ErrorCode.BAD_REQUEST, parsed.message);
    const collected = collect(parsed.request, connection);
    if (!Buffer.isBuffer(collected)) return collected;
    const { part: _part, data: _data, ...request } = parsed.request;
    const digest = payloadDigest({ ...request, bytes: collected });
    const problem = await directoryProblem(request.cwd);
    if (problem) return refused(ErrorCode.BAD_REQUEST, `${HOSTED_HANDOFF_METHOD}: ${problem}`);
    // No await between this look-up and remember(): two copies of one request share one landing.
    const known = answers.get(request.sessionId);
    if (known) return known.digest === digest ? known.answer : refused(ErrorCode.CONFLICT, `${HOSTED_HANDOFF_METHOD}: ${payloadConflict(request.sessionId)}`);
    const answer = handOff(request, collected, digest, connection);
    remember(request.sessionId, digest, answer);
    // A refusal landed nothing (a conflict, a capture this host could not make): not this id's answer to keep.
    const forget = () => void (answers.get(request.sessionId)?.answer === answer && answers.delete(request.sessionId));
    answer.then((a) => !a.ok && forget(), forget);
    return answer;
  }

  const handle: RequestHandler = (incoming, connection) => {
    const call = handleOne(incoming, connection);
    inFlight.add(call);
    const done = () => void inFlight.delete(call);
    call.then(done, done);
    return call;
  };
  return {
    handle,
    async settle() {
      // Landings still answering (tracked from their first line), then their event lines (a
      // handoff answered as the host closes still records its event).
      await Promise.allSettled([...inFlight]);
      await Promise.allSettled([...answers.values()].map((known) => known.answer));
      await Promise.allSettled([...writing]);
    },
  };
}

/** The capture found no repository where the client saw one: the landing stops before its session is saved. */
class HostCannotReadRepository extends Error {}

function refused(code: string, message: string): Answer {
  return { ok: false, code, message };
}

function sameFields(a: Omit<HostedHandoffRequest, 'part' | 'data'>, b: Omit<HostedHandoffRequest, 'part' | 'data'>): boolean {
  return a.cwd === b.cwd && a.title === b.title && a.source === b.source && a.git === b.git && a.bytes === b.bytes && a.parts === b.parts;
}

/** Why `cwd` cannot be the session's directory, or null: it must exist and be a directory. */
async function directoryProblem(cwd: string): Promise<string | null> {
  try {
    return (await stat(cwd)).isDirectory() ? null : `cwd ${cwd} is not a directory`;
  } catch (error) {
    return `cwd ${cwd} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
