// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownText } from './MarkdownText';

afterEach(cleanup);

describe('MarkdownText', () => {
  it('renders headings, emphasis, GFM tables and a fenced block as pre > code, highlighted', async () => {
    const text = '## Root cause\n\nThe **zone** was wrong.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst zone: string = "UTC";\n```\n';
    const { container } = render(<MarkdownText text={text} />);
    expect(container.querySelector('h2')?.textContent).toBe('Root cause');
    expect(container.querySelector('strong')?.textContent).toBe('zone');
    expect(container.querySelectorAll('table td')).toHaveLength(2);
    const code = container.querySelector('pre > code');
    expect(code?.textContent).toBe('const zone: string = "UTC";');
    await waitFor(() => expect(code?.getAttribute('data-highlighted')).toBe('true'), { timeout: 10_000 });
    const coloured = [...code!.querySelectorAll('span[style]')].map((s) => (s as HTMLElement).style.getPropertyValue('--shiki-light'));
    expect(coloured.filter((c) => c.length > 0).length).toBeGreaterThan(2);
    expect(code?.textContent).toBe('const zone: string = "UTC";');
  });

  it('drops raw HTML instead of rendering it', () => {
    const { container } = render(<MarkdownText text={'before <img src=x onerror="alert(1)"> <script>alert(2)</script> after'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('before');
  });

  it('folds a long message with "Show more" and unfolds it', () => {
    const text = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n\n');
    const { container } = render(<MarkdownText text={text} />);
    expect(container.textContent).not.toContain('line 59');
    fireEvent.click(screen.getByTestId('show-more'));
    expect(container.textContent).toContain('line 59');
    expect(screen.getByTestId('show-more').textContent).toBe('Show less');
  });

  it('has a copy button on each code block that copies the code alone', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void written.push(t) }, configurable: true });
    render(<MarkdownText text={'Run:\n\n```sh\nnpm test -- --run\n```'} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(written).toEqual(['npm test -- --run']));
  });
});
