import { EventEmitter } from 'node:events';
import { ErrorCode } from '../../shared/error-codes.js';
import { isLockChannel, lockChannels, type LockState } from '../../shared/lock-contract.js';
import type { UiEvent, UiEventPayload } from '../../shared/ui-contract.js';
import { describeZodError } from '../../shared/manifest.js';
import type { PassphraseState } from '../store/at-rest/at-rest-state.js';
import { passphraseSettings, unlockHostStore } from '../store/at-rest/host-unlock.js';
import { dropPassphraseKey } from '../store/at-rest/passphrase.js';
import { MAX_PASSPHRASE_BYTES } from '../store/at-rest/passphrase.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import { startEndpointServer } from '../transport/server.js';
import type { EndpointInfo, EndpointServer } from '../transport/types.js';
import { startHostServices, type HostOptions, type HostServices } from './host-services.js';
import type { HandlerOutcome } from './ui-handlers.js';
import { createUnlockThrottle } from './unlock-throttle.js';

/**
 * A host for a passphrase store (issue 17) that starts LOCKED: it serves the UI, which shows the
 * unlock screen, and holds the local endpoint so the CLI's `atRest.key` (and every other request)
 * is refused with LOCKED — the CLI then exits 6 before writing anything. Unlocking derives the key
 * (scrypt), checks its id and only then starts the ordinary host services; "Lock" closes them and
 * drops the key. Both hosts (browser and Electron) carry this object's `dispatch` and `onUiEvent`
 * exactly as they carry a plain HostServices'.
 */
export interface LockableHost {
  readonly dataDir: string;
  readonly endpoint: EndpointInfo;
  readonly token: Buffer;
  dispatch(channel: string, payload: unknown): Promise<HandlerOutcome>;
  onUiEvent(listener: <E extends UiEvent>(event: E, payload: UiEventPayload<E>) => void): () => void;
  emitUiEvent<E extends UiEvent>(event: E, payload: UiEventPayload<E>): void;
  /** Runs `attach` on the services each time the store opens, and what it returns when it locks or closes. */
  whileOpen(attach: (services: HostServices) => () => void): void;
  /** The open services, or undefined while locked. */
  services(): HostServices | undefined;
  lockState(): LockState;
  unlock(passphrase: Buffer): Promise<LockState>;
  lock(): Promise<LockState>;
  close(options?: { leaveRunsOnClose?: boolean }): Promise<void>;
}

export interface LockableHostOptions extends HostOptions {
  settings: PassphraseState;
  /** The services started once unlocked; tests pass their own. */
  startServices?: (options: HostOptions) => Promise<HostServices>;
}

type Phase = 'locked' | 'unlocking' | 'open' | 'locking' | 'closed';

export async function startLockableHost(options: LockableHostOptions): Promise<LockableHost> {
  const { dataDir, settings } = options;
  const startServices = options.startServices ?? startHostServices;
  const endpoint = options.endpoint ?? resolveEndpoint(dataDir);
  await ensureEndpointDir(endpoint.dir);
  const token = await loadOrCreateToken(endpoint.tokenPath);
  const emitter = new EventEmitter();
  emitter.setMaxListeners(64);
  const emitUiEvent = <E extends UiEvent>(event: E, payload: UiEventPayload<E>) => emitter.emit('ui', event, payload);
  const throttle = createUnlockThrottle();
  const attachments: Array<(services: HostServices) => () => void> = [];
  let detach: Array<() => void> = [];
  let phase: Phase = 'locked';
  let services: HostServices | undefined;
  let lockedServer: EndpointServer | undefined = await startLockedEndpoint();

  function startLockedEndpoint(): Promise<EndpointServer> {
    // Every request, `atRest.key` included, is refused: the key does not exist in this process yet.
    return startEndpointServer({
      endpoint,
      token,
      handle: async () => ({ ok: false, code: ErrorCode.LOCKED, message: `the Baton host for ${dataDir} is locked: unlock it in the app with the store's passphrase` }),
    });
  }

  function lockState(): LockState {
    const retryAfterMs = throttle.retryAfterMs();
    return { state: phase === 'open' ? 'unlocked' : 'locked', dataDir, ...(retryAfterMs > 0 ? { retryAfterMs } : {}) };
  }

  function open(next: HostServices): void {
    services = next;
    phase = 'open';
    detach = [next.onUiEvent((event, payload) => emitUiEvent(event, payload)), ...attachments.map((attach) => attach(next))];
    emitUiEvent('store:lock-changed', { state: 'unlocked' });
  }

  async function closeOpen(closing?: { leaveRunsOnClose?: boolean }): Promise<void> {
    for (const dispose of detach) dispose();
    detach = [];
    const closingServices = services;
    services = undefined;
    await closingServices?.close(closing);
    dropPassphraseKey(dataDir);
  }

  async function unlock(passphrase: Buffer): Promise<LockState> {
    if (phase === 'open') return lockState();
    if (phase !== 'locked') throw Object.assign(new Error(`the store is ${phase === 'unlocking' ? 'being unlocked' : 'locking'}; try again in a moment`), { code: ErrorCode.UNLOCK_THROTTLED });
    const wait = throttle.retryAfterMs();
    if (wait > 0) throw Object.assign(new Error(`Too many wrong passphrases: try again in ${Math.ceil(wait / 1000)} s.`), { code: ErrorCode.UNLOCK_THROTTLED, retryAfterMs: wait });
    if (passphrase.length > MAX_PASSPHRASE_BYTES) throw Object.assign(new Error(`the passphrase is longer than ${MAX_PASSPHRASE_BYTES} bytes`), { code: ErrorCode.BAD_REQUEST });
    phase = 'unlocking';
    try {
      await unlockHostStore(dataDir, settings, passphrase);
    } catch (error) {
      phase = 'locked';
      throttle.failed();
      // unlockWithPassphrase's message names the store and says nothing was written; never the passphrase.
      throw error;
    }
    throttle.succeeded();
    try {
      await lockedServer?.close();
      lockedServer = undefined;
      open(await startServices(options));
    } catch (error) {
      dropPassphraseKey(dataDir);
      phase = 'locked';
      lockedServer ??= await startLockedEndpoint();
      throw error;
    }
    return lockState();
  }

  async function lock(): Promise<LockState> {
    if (phase !== 'open') return lockState();
    phase = 'locking';
    try {
      await closeOpen();
    } finally {
      lockedServer = await startLockedEndpoint();
      phase = 'locked';
    }
    emitUiEvent('store:lock-changed', { state: 'locked' });
    return lockState();
  }

  async function dispatchLock(channel: keyof typeof lockChannels, payload: unknown): Promise<HandlerOutcome> {
    const parsed = lockChannels[channel].request.safeParse(payload ?? {});
    // The zod message for a too-long string names the limit, never the value.
    if (!parsed.success) return { ok: false, error: { code: ErrorCode.BAD_REQUEST, message: `${channel}: ${describeZodError(parsed.error)}` } };
    try {
      if (channel === 'store:lock-state') return { ok: true, value: lockState() };
      if (channel === 'store:lock') return { ok: true, value: await lock() };
      const passphrase = Buffer.from((parsed.data as { passphrase: string }).passphrase.normalize('NFC'), 'utf8');
      try {
        return { ok: true, value: await unlock(passphrase) };
      } finally {
        passphrase.fill(0);
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { ok: false, error: { code: typeof code === 'string' ? code : ErrorCode.INTERNAL, message: (error as Error).message } };
    }
  }

  return {
    dataDir,
    endpoint,
    token,
    async dispatch(channel, payload) {
      if (isLockChannel(channel)) return dispatchLock(channel, payload);
      if (phase !== 'open' || services === undefined) {
        return { ok: false, error: { code: ErrorCode.LOCKED, message: `The Baton store ${dataDir} is locked: enter its passphrase to open it.` } };
      }
      return services.dispatch(channel, payload);
    },
    onUiEvent(listener) {
      emitter.on('ui', listener);
      return () => emitter.off('ui', listener);
    },
    emitUiEvent,
    whileOpen(attach) {
      attachments.push(attach);
      if (services) detach.push(attach(services));
    },
    services: () => services,
    lockState,
    unlock,
    lock,
    async close(closing) {
      if (phase === 'closed') return;
      const wasOpen = phase === 'open';
      phase = 'closed';
      if (wasOpen) await closeOpen(closing);
      await lockedServer?.close();
      lockedServer = undefined;
      emitter.removeAllListeners();
    },
  };
}

/**
 * The desktop's start: a passphrase store's host starts locked (the window asks for the
 * passphrase; Electron has no terminal to ask on), any other store's host opens at once.
 */
export async function startHostForStore(options: HostOptions): Promise<HostServices | LockableHost> {
  const settings = await passphraseSettings(options.dataDir);
  return settings ? startLockableHost({ ...options, settings }) : startHostServices(options);
}
