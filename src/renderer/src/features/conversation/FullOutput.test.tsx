// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { detail, message } from '../../test-support/fixtures';
import { renderWithApi } from '../workspace/test-kit';
import { errResult, MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { SessionView } from '../../components/SessionView';

afterEach(cleanup);

const SHA = 'a'.repeat(64);
const REF = `artifacts/${SHA}.txt`;
const full = Array.from({ length: 900 }, (_, i) => `building module ${i}`).join('\n');
const trimmed = `[trimmed by Baton: 900 lines, ${full.length} bytes, exit code 1; full output ${REF}]\nbuilding module 0\n… 880 lines omitted …\nbuilding module 899`;
const fullOutput = { ref: REF, sha256: SHA, bytes: full.length, lines: 900 };

function view(bridge: MemoryBridge) {
  const messages = [
    message(0, { role: 'user', content: 'build it' }),
    message(1, { role: 'assistant', content: 'Building.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'make' }, exitCode: 1, output: trimmed, fullOutput }] }),
    message(2, { role: 'tool', content: trimmed, toolCallId: 'c1', exitCode: 1, fullOutput }),
  ];
  renderWithApi(<SessionView detail={detail('s-big', messages)} now={Date.now()} />, bridge);
}

describe('trimmed tool output with "show full output"', () => {
  it('shows the trimmed form first, then the full text fetched through artifact:text', async () => {
    const asked: unknown[] = [];
    const bridge = new MemoryBridge().handle('artifact:text', (payload) => {
      asked.push(payload);
      return okResult({ text: full, bytes: full.length, shownBytes: full.length });
    });
    view(bridge);
    // The tool message answering c1 is folded into the call's card: the output shows once.
    expect(screen.getAllByTestId('full-output')).toHaveLength(1);
    expect(screen.queryAllByTestId('message').filter((m) => m.getAttribute('data-role') === 'tool')).toHaveLength(0);
    const [call] = screen.getAllByTestId('full-output');
    const tool = call;
    expect(call!.textContent).toContain('[trimmed by Baton: 900 lines');
    expect(call!.textContent).not.toContain('building module 450');
    expect(call!.textContent).toContain('building module 899');
    expect(within(call!).queryByText(/Show all/)).toBeNull();
    expect(screen.getByText(/trimmed from 900 lines/)).toBeTruthy();
    fireEvent.click(within(tool!).getByTestId('show-full-output'));
    expect(await within(tool!).findByText('Show trimmed output')).toBeTruthy();
    expect(asked).toEqual([{ sessionId: 's-big', ref: REF }]);
    expect(tool!.textContent).not.toContain('[trimmed by Baton');
    expect(within(tool!).queryByTestId('full-output-cut')).toBeNull();
    expect(within(tool!).getByText(/Show all \(900 lines/)).toBeTruthy();
    fireEvent.click(within(tool!).getByText('Show trimmed output'));
    expect(tool!.textContent).toContain('[trimmed by Baton');
  });

  it('says why when the full output cannot be read, and keeps the trimmed form', async () => {
    view(new MemoryBridge().handle('artifact:text', () => errResult('IO_ERROR', 'Artifact does not match its hash; it was changed on disk.')));
    const [call] = screen.getAllByTestId('full-output');
    fireEvent.click(within(call!).getByTestId('show-full-output'));
    expect((await within(call!).findByTestId('full-output-error')).textContent).toContain('does not match its hash');
    expect(call!.textContent).toContain('[trimmed by Baton');
  });

  it('an output too large for one window says where the rest is', async () => {
    view(new MemoryBridge().handle('artifact:text', () => okResult({ text: full.slice(0, 100), bytes: full.length, shownBytes: 100 })));
    const [call] = screen.getAllByTestId('full-output');
    fireEvent.click(within(call!).getByTestId('show-full-output'));
    expect((await within(call!).findByTestId('full-output-cut')).textContent).toContain(REF);
  });
});
