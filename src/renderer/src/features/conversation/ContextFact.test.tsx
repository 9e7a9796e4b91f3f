// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { detail, message } from '../../test-support/fixtures';
import { renderWithApi } from '../workspace/test-kit';
import { MemoryBridge } from '../../test-support/memory-bridge';
import { SessionView } from '../../components/SessionView';
import { formatTokens } from './ContextFact';

afterEach(cleanup);

describe('the context the last handoff carried, in the session view', () => {
  it('shows the token estimate, the anchors and the summary, and marks anchor messages', () => {
    const messages = [message(0, { role: 'user', content: 'Refactor auth', id: 'goal' }), message(1, { role: 'assistant', content: 'ok', id: 'reply' }), message(2, { role: 'user', content: 'must keep API', id: 'rule' })];
    const context = { tokenEstimate: 12_345, tokenEstimateMethod: 'baton-runs-v1/claude', anchorMessageIds: ['goal', 'rule'], compactedSummaryRef: 'artifacts/summary-02.md' };
    renderWithApi(<SessionView detail={detail('s1', messages, { context })} now={Date.now()} />, new MemoryBridge());
    const fact = screen.getByTestId('context-fact');
    expect(fact.textContent).toContain('≈ 12.3 k tokens');
    expect(fact.textContent).toContain('2 anchors');
    expect(fact.textContent).toContain('summary-02.md');
    expect(fact.querySelector('dd')!.getAttribute('title')).toContain('baton-runs-v1/claude');
    const anchored = screen.getAllByTestId('message').filter((m) => m.getAttribute('data-anchor') === 'true');
    expect(anchored.map((m) => m.getAttribute('data-message-id'))).toEqual(['goal', 'rule']);
  });

  it('says nothing before a handoff computed it', () => {
    renderWithApi(<SessionView detail={detail('s1', [message(0)])} now={Date.now()} />, new MemoryBridge());
    expect(screen.queryByTestId('context-fact')).toBeNull();
  });

  it('formats token counts', () => {
    expect([0, 950, 12_345, 8_337_779].map(formatTokens)).toEqual(['0', '950', '12.3 k', '8.3 M']);
  });
});
