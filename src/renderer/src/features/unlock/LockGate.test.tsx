// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiFromTransport, createWsTransport, type BatonApi } from '../../api';
import { WsHost } from '../../test-support/ws-host';
import { LockGate } from './LockGate';

/** The gate over a real WebSocket (the contract's validation included); the host's answers are scripted. */
const PASSPHRASE = 'gate test passphrase 5150';
let host: WsHost;
let api: BatonApi;

beforeEach(async () => {
  host = await WsHost.start();
  api = createApiFromTransport(createWsTransport({ url: host.url }));
});

afterEach(async () => {
  cleanup();
  api.close();
  await host.close();
});

function app() {
  return render(
    <LockGate api={api}>
      <p data-testid="the-app">app</p>
    </LockGate>,
  );
}

describe('LockGate', () => {
  it('an open store shows the app and no Lock button', async () => {
    host.answer = (channel) => (channel === 'store:lock-state' ? { ok: true, value: { state: 'open' } } : { ok: false, error: { code: 'UNKNOWN_METHOD', message: 'x' } });
    app();
    await waitFor(() => expect(host.requests.some((r) => r.channel === 'store:lock-state')).toBe(true));
    expect(screen.getByTestId('the-app')).toBeTruthy();
    expect(screen.queryByTestId('lock-store')).toBeNull();
  });

  it('locked: the unlock screen; a wrong passphrase clears the field and waits; the right one shows the app; Lock returns', async () => {
    let state: 'locked' | 'unlocked' = 'locked';
    let retryAfterMs = 0;
    host.answer = (channel, payload) => {
      if (channel === 'store:lock-state') return { ok: true, value: { state, dataDir: '/data', ...(retryAfterMs ? { retryAfterMs } : {}) } };
      if (channel === 'store:lock') {
        state = 'locked';
        return { ok: true, value: { state, dataDir: '/data' } };
      }
      if (channel === 'store:unlock') {
        if ((payload as { passphrase: string }).passphrase !== PASSPHRASE) {
          retryAfterMs = 300;
          return { ok: false, error: { code: 'KEY_UNAVAILABLE', message: 'Wrong passphrase for the encrypted store /data: refused, nothing was written.' } };
        }
        state = 'unlocked';
        return { ok: true, value: { state, dataDir: '/data' } };
      }
      return { ok: false, error: { code: 'LOCKED', message: 'locked' } };
    };
    app();
    const field = (await screen.findByTestId('unlock-passphrase')) as HTMLInputElement;
    expect(screen.queryByTestId('the-app')).toBeNull();
    expect(field.type).toBe('password');

    field.value = 'wrong one';
    fireEvent.submit(field.form!);
    expect(field.value).toBe('');
    expect((await screen.findByTestId('unlock-error')).textContent).toMatch(/Wrong passphrase/);
    await waitFor(() => expect(screen.getByTestId('unlock-submit').textContent).toMatch(/Try again in/));
    expect(document.body.innerHTML).not.toContain('wrong one');
    await waitFor(() => expect(screen.getByTestId('unlock-submit').textContent).toBe('Unlock'), { timeout: 3_000 });

    retryAfterMs = 0;
    field.value = PASSPHRASE;
    fireEvent.submit(field.form!);
    expect(field.value).toBe('');
    await screen.findByTestId('the-app');
    expect(document.body.innerHTML).not.toContain(PASSPHRASE);

    fireEvent.click(screen.getByTestId('lock-store'));
    await screen.findByTestId('unlock-screen');
    expect(host.requests.filter((r) => r.channel === 'store:unlock')).toHaveLength(2);
  });

  it('another window\'s unlock (store:lock-changed) switches this one too', async () => {
    let state: 'locked' | 'unlocked' = 'locked';
    host.answer = (channel) => (channel === 'store:lock-state' ? { ok: true, value: { state, dataDir: '/data' } } : { ok: false, error: { code: 'LOCKED', message: 'locked' } });
    app();
    await screen.findByTestId('unlock-screen');
    state = 'unlocked';
    host.emit('store:lock-changed', { state: 'unlocked' });
    await screen.findByTestId('the-app');
  });
});
