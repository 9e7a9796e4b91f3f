// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../../api';
import { App } from '../../components/App';
import { MemoryBridge, okResult, errResult } from '../../test-support/memory-bridge';
import { formatMs, formatRate, sortedCategories } from './format-stats';

const RESUMED = {
  count: 12,
  p50: 42 * 60_000,
  p95: 5 * 3_600_000,
  max: 9 * 3_600_000,
  byEnd: { handoff: 7, resume: 3, 'last-activity': 2 },
  buckets: [
    { label: '< 1 min', count: 1 },
    { label: '1–10 min', count: 2 },
    { label: '10–60 min', count: 5 },
    { label: '1–8 h', count: 3 },
    { label: '≥ 8 h', count: 1 },
  ],
};

const apis: BatonApi[] = [];
afterEach(() => {
  cleanup();
  for (const api of apis.splice(0)) api.close();
});

function host(stats: () => ReturnType<typeof okResult>) {
  const bridge = new MemoryBridge()
    .handle('sessions:list', () => okResult([]))
    .handle('agents:list', () => okResult({ candidates: [], stats: { files: 0, ms: 0 } }))
    .handle('approvals:pending', () => okResult([]))
    .handle('tasks:list', () => okResult([]))
    .handle('stats:get', stats);
  const api = createApiFromTransport(createBridgeTransport(bridge));
  apis.push(api);
  render(<App api={api} />);
  return bridge;
}

describe('stats panel', () => {
  it('shows success rate, p50/p95 and counts by category, reached from the sidebar footer', async () => {
    host(() => okResult({ total: 40, succeeded: 39, successRate: 39 / 40, byCategory: { accepted: 37, duplicate: 2, 'no-target': 1 }, totalMs: { p50: 84, p95: 1_930 }, afterResumption: RESUMED, verifyMismatches: 2 }));
    fireEvent.click(screen.getByTestId('open-stats'));
    const panel = await screen.findByTestId('stats-panel');
    await within(panel).findByTestId('stat-success');
    expect(within(panel).getByTestId('stat-success').textContent).toContain('97.5 %');
    expect(within(panel).getByTestId('stat-success').textContent).toContain('39 of 40 handoffs');
    expect(within(panel).getByTestId('stat-p50').textContent).toContain('84 ms');
    expect(within(panel).getByTestId('stat-p95').textContent).toContain('1.9 s');
    const bars = within(panel).getByTestId('stat-categories').querySelectorAll('[data-category]');
    expect([...bars].map((el) => [el.getAttribute('data-category'), el.querySelector('.stat-bar-count')?.textContent])).toEqual([
      ['accepted', '37'],
      ['duplicate', '2'],
      ['no-target', '1'],
    ]);
    expect(within(panel).getByTestId('stat-mismatches').textContent).toContain('2 offers were refused here');
    // Durations after resumption: median, p95, what ended the spans, the histogram.
    expect(within(panel).getByTestId('resumed-p50').textContent).toContain('42.0 min');
    expect(within(panel).getByTestId('resumed-p50').textContent).toContain('over 12 accepted handoffs');
    expect(within(panel).getByTestId('resumed-p95').textContent).toContain('5.0 h');
    expect(within(panel).getByTestId('resumed-ends').textContent).toContain('7 ended by a handoff, 3 by a resume');
    const buckets = within(panel).getByTestId('resumed-buckets').querySelectorAll('[data-bucket]');
    expect([...buckets].map((el) => el.querySelector('.stat-bar-count')?.textContent)).toEqual(['1', '2', '5', '3', '1']);
    // Esc returns to the session view.
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByTestId('stats-panel')).toBeNull();
  });

  it('no handoffs yet: dashes, and what to run', async () => {
    host(() => okResult({ total: 0, succeeded: 0, successRate: null, byCategory: {}, totalMs: { p50: null, p95: null }, afterResumption: { count: 0, p50: null, p95: null, max: null, byEnd: {}, buckets: [] }, verifyMismatches: 0 }));
    fireEvent.click(screen.getByTestId('open-stats'));
    expect((await screen.findByTestId('stat-none')).textContent).toContain('baton handoff');
    expect(screen.getByTestId('stat-success').textContent).toContain('—');
    expect(screen.getByTestId('resumed-none').textContent).toContain('No accepted handoff yet.');
    expect(screen.queryByTestId('stat-mismatches')).toBeNull();
  });

  it('an error offers Retry', async () => {
    host(() => errResult('IO_ERROR', 'events.jsonl unreadable'));
    fireEvent.click(screen.getByTestId('open-stats'));
    expect((await screen.findByTestId('error-state')).textContent).toContain('events.jsonl unreadable');
  });

  it('formatters', () => {
    expect([null, 0, 1, 0.5, 0.975].map(formatRate)).toEqual(['—', '0 %', '100 %', '50.0 %', '97.5 %']);
    expect([null, 12.4, 999, 1_000, 59_000, 90_000].map(formatMs)).toEqual(['—', '12 ms', '999 ms', '1.0 s', '59.0 s', '1.5 min']);
    expect(sortedCategories({ b: 1, a: 1, c: 3 })).toEqual([
      ['c', 3],
      ['a', 1],
      ['b', 1],
    ]);
  });
});
