// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../api';
import { ConnectionBanner } from './ConnectionBanner';

afterEach(cleanup);

describe('ConnectionBanner', () => {
  it('is absent while connected or making the first connection', () => {
    for (const state of [{ status: 'connected' }, { status: 'connecting' }] satisfies ConnectionState[]) {
      const view = render(<ConnectionBanner state={state} />);
      expect(screen.queryByTestId('connection-banner')).toBeNull();
      view.unmount();
    }
  });

  const cases: Array<[string, ConnectionState, RegExp]> = [
    ['a dropped connection', { status: 'reconnecting', attempt: 2, retryInMs: 1_000, connectedBefore: true }, /Connection to Baton lost\. Reconnecting \(attempt 2, next try in 1 s\)/],
    ['a host that never answered', { status: 'reconnecting', attempt: 1, retryInMs: 250, connectedBefore: false }, /Cannot reach Baton at this address\. Is `baton serve` still running\?/],
    ['no token', { status: 'no-token' }, /No access token\. Open the address that `baton serve` printed/],
    ['closed', { status: 'closed' }, /Reload the page/],
  ];
  for (const [name, state, text] of cases) {
    it(`says what is wrong: ${name}`, () => {
      render(<ConnectionBanner state={state} />);
      const banner = screen.getByTestId('connection-banner');
      expect(banner.textContent).toMatch(text);
      expect(banner.getAttribute('role')).toBe('status');
      expect(banner.getAttribute('data-status')).toBe(state.status);
    });
  }
});
