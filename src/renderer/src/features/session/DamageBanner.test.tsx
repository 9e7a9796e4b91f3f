// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { detail, message } from '../../test-support/fixtures';
import { renderWithApi } from '../workspace/test-kit';
import { MemoryBridge } from '../../test-support/memory-bridge';
import { SessionView } from '../../components/SessionView';
import { DamageBanner } from './DamageBanner';

afterEach(cleanup);

const damage = (start: number, end: number) => ({
  reason: `bytes ${start}..${end} of messages.jsonl are damaged`,
  sideFile: `messages.damaged-${start}-${end}.bin`,
  file: 'messages.jsonl',
  start,
  end,
  detectedAt: '2026-11-30T10:00:00.000Z',
});

describe('DamageBanner', () => {
  it('names the side file and byte range of each damaged part', () => {
    render(<DamageBanner damaged={[damage(120, 245), damage(900, 1000)]} />);
    const banner = screen.getByTestId('damage-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('damaged in 2 places and skipped. Nothing was cut');
    const items = within(banner).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual(['messages.jsonl bytes 120–245: kept in messages.damaged-120-245.bin', 'messages.jsonl bytes 900–1000: kept in messages.damaged-900-1000.bin']);
  });

  it('shows nothing for a session without damage', () => {
    const { container } = render(<DamageBanner damaged={undefined} />);
    expect(container.innerHTML).toBe('');
    render(<DamageBanner damaged={[]} />);
    expect(screen.queryByTestId('damage-banner')).toBeNull();
  });

  it('appears in the session view of a damaged session, and not in a clean one', () => {
    const damaged = detail('s-d', [message(0, { role: 'user', content: 'hello' })], { damaged: [damage(10, 20)] });
    renderWithApi(<SessionView detail={damaged} now={Date.parse('2026-11-30T12:00:00.000Z')} />, new MemoryBridge());
    expect(screen.getByTestId('damage-banner').textContent).toContain('messages.damaged-10-20.bin');
    cleanup();
    renderWithApi(<SessionView detail={detail('s-c', [message(0, { role: 'user', content: 'hello' })])} now={Date.parse('2026-11-30T12:00:00.000Z')} />, new MemoryBridge());
    expect(screen.queryByTestId('damage-banner')).toBeNull();
  });
});
