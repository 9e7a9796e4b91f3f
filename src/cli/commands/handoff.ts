import { Option, type Command } from 'commander';
import { MESSAGE_INPUT_MAX_BYTES } from '../../core/handoff/read-message-input.js';
import { parseMessageStream } from '../../core/handoff/stream-message-input.js';
import { defaultTitle, scanMessageArray, scanMessageFile, type ScannedInput } from '../../core/handoff/message-source.js';
import { DEFAULT_HANDOFF_TIMEOUT_MS, landAndReadBack, offerSession, type LandedSession } from '../../core/handoff/send.js';
import { connectFirst, type ConnectAttempt } from '../../core/handoff/find-target.js';
import { HandoffCategory } from '../../core/handoff/outcome.js';
import { reportHandoff as report } from '../handoff-report.js';
import { isValidId } from '../../shared/ids.js';
import { IDLE_TIMEOUT_MS } from '../../shared/wire.js';
import { createOutput, EXIT } from '../output.js';
import { endpointFor, openCliStore } from '../context.js';
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { payloadConflict, payloadDigest, recordedDigest } from '../../core/handoff/hosted-handoff-key.js';
import type { SessionStore } from '../../core/store/types.js';
import { markPhase } from '../../core/perf/phase-trace.js';
import type { ImportResult } from '../../core/handoff/import-agent-session.js';
import { captureWorkspaceWithPatch } from '../../core/workspace/capture.js';

/** The tools `--from` imports from (the importers themselves load only when asked). */
const AGENT_SOURCES = ['claude', 'codex'] as const;
type AgentSource = (typeof AGENT_SOURCES)[number];

interface HandoffFlags {
  from?: string;
  latest?: boolean;
  cwd?: string;
  title?: string;
  messages?: string;
  session?: string;
  dryRun?: boolean;
  json?: boolean;
  timeout?: string;
  launch: boolean;
  to?: string;
  landAs?: string;
}

export function registerHandoff(program: Command): void {
  program
    .command('handoff')
    .description('save a session and offer it to the Baton desktop app')
    .option('--cwd <dir>', 'working directory of the session', process.cwd())
    .option('--title <title>', 'title shown in the session list')
    .option('--messages <file>', 'messages as JSONL, one {"role","content"} object a line ("-" or omitted: stdin)')
    .option('--session <id>', 're-offer a session that is already saved (after a failed attempt); with --from: the tool\'s session id or log path')
    .option('--from <tool>', 'import a Claude Code (claude) or Codex CLI (codex) session instead of reading messages')
    .option('--latest', 'with --from: the most recent session of that tool in --cwd')
    .option('--dry-run', 'save the session and build the manifest, but offer nothing')
    .option('--timeout <seconds>', 'how long to wait for a launched app', String(DEFAULT_HANDOFF_TIMEOUT_MS / 1000))
    .option('--no-launch', 'do not start the desktop app through baton:// when none is running')
    .option('--to <device>', 'hand off to a paired device through the relay (baton device list); waits --timeout for its receipt')
    .option('--json', 'print one versioned JSON object')
    // Not for people: the hosted handoff's client (src/cli/handoff-fast.ts) falls back to this
    // command after its request may have reached a host, with the session id it sent. The session
    // lands under that id, or, when the host landed it already, that session is offered: a
    // request sent twice never lands twice (the store refuses a second session of one id).
    .addOption(new Option('--land-as <id>', 'land the new session under this id; offer it if it is saved already').hideHelp())
    .action(async (flags: HandoffFlags) => {
      markPhase('action');
      process.exitCode = await runHandoff(flags);
      markPhase('done');
    });
}

async function runHandoff(flags: HandoffFlags): Promise<number> {
  const out = createOutput(!!flags.json);
  const timeoutSeconds = Number(flags.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) {
    out.problem('handoff', 'BAD_ARGUMENT', `--timeout must be a number of seconds, got "${flags.timeout}"`);
    return EXIT.usage;
  }
  if (flags.from !== undefined && !(AGENT_SOURCES as readonly string[]).includes(flags.from)) {
    out.problem('handoff', 'BAD_ARGUMENT', `--from must be one of ${AGENT_SOURCES.join(', ')}, got "${flags.from}"`);
    return EXIT.usage;
  }
  if (flags.from && !flags.session === !flags.latest) {
    out.problem('handoff', 'BAD_ARGUMENT', '--from needs exactly one of --session ID or --latest');
    return EXIT.usage;
  }
  if (flags.landAs !== undefined && (!isValidId(flags.landAs) || flags.from !== undefined || flags.session !== undefined)) {
    out.problem('handoff', 'BAD_ARGUMENT', `--land-as needs a valid session id and neither --from nor --session, got "${flags.landAs}"`);
    return EXIT.usage;
  }
  if (!flags.from && flags.session !== undefined && !isValidId(flags.session)) {
    out.problem('handoff', 'BAD_ARGUMENT', `--session "${flags.session}" is not a valid session id`);
    return EXIT.usage;
  }

  // A new session's workspace is captured while the store opens and the messages are read: the
  // capture is git processes and file hashing, the other two are this process's own work. It only
  // reads (a dirty tree's temporary index is private); landAndReadBack waits for it and reports
  // its failure where it always did. Settled before exit whatever happens (its git children keep
  // the process alive), and never left unhandled.
  const capture = !flags.from && !flags.session ? captureWorkspaceWithPatch(flags.cwd ?? process.cwd()) : undefined;
  capture?.then(() => markPhase('captured'), () => undefined);
  const { dataDir, store } = await openCliStore();
  markPhase('store-open');
  let endpointAsked: ReturnType<typeof endpointFor> | undefined;
  let firstConnection: Promise<ConnectAttempt> | undefined;
  try {
    let sessionId = flags.from ? undefined : flags.session;
    // A hosted attempt's host landed it already (see --land-as): offered as --session would, when
    // it was landed from this very request (its payload's digest), else a conflict.
    const landedAs = flags.landAs !== undefined ? await landedByHost(store, flags.landAs, flags) : 'absent';
    if (landedAs === 'conflict') return conflict(out, flags.landAs!);
    if (landedAs === 'saved') sessionId = flags.landAs;
    let landed: LandedSession | undefined;
    if (flags.from) {
      const imported = await importFrom(store, flags.from as AgentSource, flags, out);
      if (typeof imported === 'number') return imported;
      sessionId = imported.session.id;
      landed = imported.landed;
    } else if (!sessionId) {
      const input = await readMessages(flags.messages);
      markPhase('read');
      if (!input.ok) {
        out.problem('handoff', 'BAD_INPUT', input.message);
        return EXIT.usage;
      }
      // The endpoint directory and token are read while the session lands (one wait fewer); a
      // refusal still surfaces where it did, after the landing.
      endpointAsked = endpointFor(dataDir);
      endpointAsked.catch(() => undefined);
      // The desktop is connected to (and authenticated with) while the session lands; nothing is
      // offered before the landing succeeded, and the connection is closed if it did not.
      if (!flags.dryRun && flags.to === undefined) {
        firstConnection = endpointAsked.then(({ endpoint, token }) => connectFirst({ endpoint, token, timeoutMs: timeoutSeconds * 1000 }));
        firstConnection.catch(() => undefined);
      }
      const landingStarted = Date.now();
      try {
        landed = await landAndReadBack(store, { ...(flags.landAs !== undefined ? { id: flags.landAs } : {}), cwd: flags.cwd ?? process.cwd(), title: flags.title ?? defaultTitle(input.scan), messages: input.source, scan: input.scan, capture });
        sessionId = landed.session.id;
        markPhase('landed');
        // The receiver closes a connection left idle for IDLE_TIMEOUT_MS: after a long landing (a
        // 300 MB session) the early one may be gone, so a fresh one is made for the offer.
        if (firstConnection && Date.now() - landingStarted > IDLE_TIMEOUT_MS / 2) {
          const early = firstConnection;
          firstConnection = undefined;
          void early.then((attempt) => attempt.client?.close(), () => undefined);
        }
      } catch (error) {
        // The host landed it while this landed (it was answering as the connection dropped): the
        // store refused a second session of that id, so it is saved. Offered, as the check above.
        const raced = flags.landAs !== undefined && (error as { code?: unknown }).code === 'CONFLICT' ? await landedByHost(store, flags.landAs, flags) : 'absent';
        if (raced === 'conflict') return conflict(out, flags.landAs!);
        if (raced === 'saved') sessionId = flags.landAs;
        else return report(out, {
          category: HandoffCategory.writeFailure,
          sessionId: null,
          handoffId: null,
          sessionDir: null,
          message: `The session could not be saved, so nothing was sent: ${(error as Error).message}`,
          durationsMs: {},
        });
      }
    }
    // Every branch above either returned or named the session it landed or found saved.
    if (sessionId === undefined) throw new Error('handoff: no session was landed or found to offer');
    const { endpoint, token, forwarded } = await (endpointAsked ?? endpointFor(dataDir));
    if (flags.to !== undefined) {
      const { handoffToDevice } = await import('../../core/relay/handoff-to-device.js');
      const outcome = await handoffToDevice({ dataDir, store, sessionId, landed, to: flags.to, offer: { endpoint, token, timeoutMs: timeoutSeconds * 1000 }, receiptWaitMs: timeoutSeconds * 1000 });
      await store
        .appendEvent({ at: new Date().toISOString(), side: 'source', category: outcome.category, sessionId: outcome.sessionId, handoffId: outcome.handoffId, to: flags.to, durationsMs: outcome.durationsMs })
        .catch(() => undefined);
      return report(out, outcome);
    }
    const outcome = await offerSession(sessionId, {
      store,
      endpoint,
      token,
      timeoutMs: timeoutSeconds * 1000,
      // Through baton ssh the desktop is on the laptop: nothing to launch here, and the content travels.
      launch: flags.launch && !forwarded,
      dryRun: !!flags.dryRun,
      forwarded,
      ...(firstConnection ? { firstConnection } : {}),
    }, landed);
    markPhase('answered');
    await store
      .appendEvent({ at: new Date().toISOString(), side: 'source', category: outcome.category, sessionId: outcome.sessionId, handoffId: outcome.handoffId, durationsMs: outcome.durationsMs, ...(flags.dryRun ? { dryRun: true } : {}) })
      .catch(() => undefined); // observability must never turn a delivered handoff into a failure
    markPhase('event-written');
    return report(out, outcome);
  } finally {
    // offerSession closes the connection it used; this closes one a failed landing left open.
    if (firstConnection) void firstConnection.then((attempt) => attempt.client?.close(), () => undefined);
    // The capture's git children and temporary index are done with before this returns: the
    // launcher exits once main resolves (bin/exit-when-flushed.js). Settled already when it landed.
    await capture?.catch(() => undefined);
    await store.close();
  }
}

/** Imports the named (or latest) session of a terminal tool; returns the import (with what was landed, when new), or an exit code. */
async function importFrom(store: SessionStore, source: AgentSource, flags: HandoffFlags, out: ReturnType<typeof createOutput>): Promise<ImportResult | number> {
  const [{ findLatestSession }, { importAgentSession }] = await Promise.all([
    import('../../core/importers/index.js'),
    import('../../core/handoff/import-agent-session.js'),
  ]);
  try {
    let pathOrId = flags.session;
    if (flags.latest) {
      const cwd = await realpath(flags.cwd ?? process.cwd()).catch(() => flags.cwd ?? process.cwd());
      const latest = await findLatestSession(source, process.env, { cwd });
      if (!latest) {
        out.problem('handoff', 'NOT_FOUND', `No ${source} session was found for ${cwd}.`);
        return EXIT.failure;
      }
      pathOrId = latest.path;
    }
    // A new import's read-back goes to the offer: the log is not parsed a second time for the manifest.
    return await importAgentSession(store, source, pathOrId!);
  } catch (error) {
    out.problem('handoff', (error as { code?: string }).code ?? 'ERROR', `Could not import the ${source} session: ${(error as Error).message}`);
    return EXIT.failure;
  }
}

/** The messages, parsed a line at a time as they are read: the input is never held whole (issue 20). */
/** A --messages file is scanned here and read again as it lands (never held whole); stdin, which cannot be read twice, is held. */
/**
 * Whether the session a hosted attempt named (--land-as) is saved, and from this request: its
 * recorded digest (hosted-handoff-key.ts) matches the payload the client sent, computed alike.
 */
async function landedByHost(store: SessionStore, id: string, flags: HandoffFlags): Promise<'saved' | 'conflict' | 'absent'> {
  const [saved, recorded] = await Promise.all([store.getSession(id).then(() => true, () => false), recordedDigest(store.root, id)]);
  if (!saved) return recorded === null || flags.messages === undefined ? 'absent' : (await digestOf(flags)) === recorded ? 'absent' : 'conflict';
  return recorded !== null && (await digestOf(flags)) === recorded ? 'saved' : 'conflict';
}

async function digestOf(flags: HandoffFlags): Promise<string | null> {
  if (flags.messages === undefined || flags.messages === '' || flags.messages === '-') return null;
  const bytes = await readFile(flags.messages).catch(() => null);
  return bytes && payloadDigest({ cwd: resolve(flags.cwd ?? process.cwd()), ...(flags.title !== undefined ? { title: flags.title } : {}), source: flags.messages, bytes });
}

function conflict(out: ReturnType<typeof createOutput>, id: string): number {
  out.problem('handoff', 'CONFLICT', payloadConflict(id));
  return EXIT.failure;
}

async function readMessages(file: string | undefined): Promise<ScannedInput> {
  if (file && file !== '-') return scanMessageFile(file);
  if (process.stdin.isTTY) return { ok: false as const, message: 'no --messages file given and stdin is a terminal: pipe JSONL messages in or pass --messages FILE' };
  const parsed = await parseMessageStream(process.stdin, 'stdin', MESSAGE_INPUT_MAX_BYTES);
  return parsed.ok ? scanMessageArray(parsed.messages) : parsed;
}
