// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../../api';
import { App } from '../../components/App';
import { SessionView } from '../../components/SessionView';
import { detail, message } from '../../test-support/fixtures';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi } from '../workspace/test-kit';
import { relayLabel } from './relay-label';

const apis: BatonApi[] = [];
afterEach(() => {
  cleanup();
  for (const api of apis.splice(0)) api.close();
});

const ONLINE = {
  configured: true,
  state: 'online' as const,
  url: 'nats://127.0.0.1:4222',
  error: null,
  device: { deviceId: 'd0000000000000000000a', name: 'laptop', fingerprint: 'aaaa bbbb cccc dddd eeee ffff 0000 1111' },
  received: { accepted: 3, duplicate: 1, rejected: 0, dropped: { UNKNOWN_SENDER: 2 } },
};
const DEVICES = [
  { deviceId: 'd0000000000000000000b', name: 'devbox', fingerprint: '1234 5678 9abc def0 1234 5678 9abc def0', pairedAt: '2026-11-30T10:00:00.000Z', online: true },
  { deviceId: 'd0000000000000000000c', name: 'tablet', fingerprint: '0000 0000 0000 0000 0000 0000 0000 0001', pairedAt: '2026-11-30T10:05:00.000Z', online: false },
];

function bridge() {
  return new MemoryBridge()
    .handle('sessions:list', () => okResult([]))
    .handle('agents:list', () => okResult({ candidates: [], stats: { files: 0, ms: 0 } }))
    .handle('approvals:pending', () => okResult([]))
    .handle('tasks:list', () => okResult([]))
    .handle('relay:status', () => okResult(ONLINE))
    .handle('devices:list', () => okResult(DEVICES));
}

describe('devices (issue 13)', () => {
  it('shows the relay state in the footer and the paired devices with presence in the Devices panel', async () => {
    const api = createApiFromTransport(createBridgeTransport(bridge()));
    apis.push(api);
    render(<App api={api} />);
    const footer = await screen.findByTestId('open-devices');
    await expect.poll(() => footer.textContent).toBe('Relay online · laptop');
    fireEvent.click(footer);
    const panel = await screen.findByTestId('devices-panel');
    const list = await within(panel).findByTestId('device-list');
    expect([...list.querySelectorAll('li')].map((li) => [li.getAttribute('data-device'), li.getAttribute('data-online')])).toEqual([
      ['devbox', 'true'],
      ['tablet', 'false'],
    ]);
    expect(within(panel).getByTestId('this-device').textContent).toContain(ONLINE.device.fingerprint);
    expect(within(panel).getByTestId('relay-received').textContent).toContain('dropped 2 UNKNOWN_SENDER');
  });

  it('labels every relay state', () => {
    expect(relayLabel({ ...ONLINE, configured: false, state: 'off' })).toBe('Relay off');
    expect(relayLabel({ ...ONLINE, state: 'error' })).toBe('Relay unreachable');
    expect(relayLabel({ ...ONLINE, state: 'connecting' })).toBe('Relay connecting…');
  });

  it('"Send to device" hands the open session to the chosen device and shows the answer; a relayed session names its sender', async () => {
    const sent: unknown[] = [];
    const b = bridge().handle('devices:send', (params: unknown) => {
      sent.push(params);
      return okResult({ category: 'accepted', message: 'devbox has the session.', handoffId: 'h-1' });
    });
    renderWithApi(<SessionView detail={detail('s1', [message(0)], { relayedFrom: { deviceId: 'd0000000000000000000b', name: 'devbox' } } as never)} now={Date.now()} />, b);
    expect(screen.getByTestId('relayed-from').textContent).toBe('from devbox');
    fireEvent.click(await screen.findByTestId('send-to-device'));
    fireEvent.click(screen.getByRole('button', { name: /devbox/ }));
    expect((await screen.findByTestId('send-result')).textContent).toBe('devbox has the session.');
    expect(sent).toEqual([{ sessionId: 's1', to: 'd0000000000000000000b' }]);
  });

  it('shows no "Send to device" without paired devices', async () => {
    const b = new MemoryBridge().handle('devices:list', () => okResult([]));
    renderWithApi(<SessionView detail={detail('s2', [message(0)])} now={Date.now()} />, b);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('send-to-device')).toBeNull();
    expect(screen.queryByTestId('relayed-from')).toBeNull();
  });
});

describe('pairing from the Devices panel', () => {
  it('shows a one-time code, and joins with a typed code showing the other fingerprint', async () => {
    const joined: unknown[] = [];
    const b = bridge()
      .handle('devices:pair', () => okResult({ code: 'ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567', link: 'baton://pair?code=ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', expiresAt: '2026-11-30T12:10:00.000Z' }))
      .handle('devices:join', (params: unknown) => {
        joined.push(params);
        return okResult({ ...DEVICES[0]!, online: null });
      });
    const api = createApiFromTransport(createBridgeTransport(b));
    apis.push(api);
    render(<App api={api} />);
    fireEvent.click(await screen.findByTestId('open-devices'));
    fireEvent.click(await screen.findByTestId('pair-start'));
    expect((await screen.findByTestId('pair-code')).textContent).toContain('baton device join ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567');
    fireEvent.change(screen.getByTestId('pair-code-input'), { target: { value: 'abcd efgh' } });
    fireEvent.click(screen.getByTestId('pair-join'));
    expect((await screen.findByTestId('pair-joined')).textContent).toContain(DEVICES[0]!.fingerprint);
    expect(joined).toEqual([{ code: 'abcd efgh' }]);
  });
});

describe('baton://pair links', () => {
  it('open the Devices panel with the code filled in, ready to join', async () => {
    const b = bridge();
    const api = createApiFromTransport(createBridgeTransport(b));
    apis.push(api);
    render(<App api={api} />);
    await screen.findByTestId('open-devices');
    b.emit('devices:pair-link', { code: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567' });
    const input = (await screen.findByTestId('pair-code-input')) as HTMLInputElement;
    expect(input.value).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
    expect(screen.getByTestId('devices-panel')).toBeTruthy();
  });
});
