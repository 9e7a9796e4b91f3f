// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isPlainKey, isTypingTarget } from './keyboard';

describe('isTypingTarget', () => {
  const make = (html: string): Element => {
    const host = document.createElement('div');
    host.innerHTML = html;
    return host.querySelector('[data-t]')!;
  };
  const cases: Array<[string, string, boolean]> = [
    ['input', '<input data-t>', true],
    ['textarea', '<textarea data-t></textarea>', true],
    ['select', '<select data-t></select>', true],
    ['button', '<button data-t>x</button>', false],
    ['div', '<div data-t tabindex="0"></div>', false],
    ['inside a contenteditable', '<div contenteditable="true"><span data-t>x</span></div>', true],
    ['inside role=textbox', '<div role="textbox"><span data-t>x</span></div>', true],
  ];
  for (const [name, html, expected] of cases) it(name, () => expect(isTypingTarget(make(html))).toBe(expected));

  it('null and non-elements', () => {
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget(window)).toBe(false);
  });

  it('isPlainKey', () => {
    expect(isPlainKey({ ctrlKey: false, metaKey: false, altKey: false })).toBe(true);
    expect(isPlainKey({ ctrlKey: true, metaKey: false, altKey: false })).toBe(false);
    expect(isPlainKey({ ctrlKey: false, metaKey: true, altKey: false })).toBe(false);
  });
});
