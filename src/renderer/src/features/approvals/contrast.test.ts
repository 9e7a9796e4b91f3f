import { describe, expect, it } from 'vitest';
import { contrastRatio, resolveColour, rules, tokens, type Scheme } from './test-support/css-colours';

/**
 * Issue #10: in dark mode Approve and Deny text had 1.87:1 and 2.28:1. Every text/background pair
 * of the approvals pane is computed here from the stylesheets themselves, in both schemes, against
 * WCAG's 4.5:1 for normal text.
 */
export const MIN_TEXT_CONTRAST = 4.5;
const STYLESHEETS = ['base.css', 'states.css', 'conversation.css', 'history.css', 'panels.css'];

/** A colour from a rule ([selector, property]) or a token ('--name'). */
type Source = [selector: string, property: 'color' | 'background'] | `--${string}`;

const PANE: Array<{ what: string; fg: Source; bg: Source }> = [
  { what: 'Approve button', fg: ['.button-approve', 'color'], bg: ['.button-approve', 'background'] },
  { what: 'Deny button', fg: ['.button-deny', 'color'], bg: ['.button-deny', 'background'] },
  { what: 'confirm high-risk button', fg: ['.button-danger', 'color'], bg: ['.button-danger', 'background'] },
  { what: 'Allow for this session button', fg: ['.button-secondary', 'color'], bg: ['.button-secondary', 'background'] },
  { what: 'high-risk badge', fg: ['.badge-risk-high', 'color'], bg: ['.badge-risk-high', 'background'] },
  { what: 'medium-risk badge', fg: ['.badge-risk-medium', 'color'], bg: ['.badge-risk-medium', 'background'] },
  { what: 'low-risk badge', fg: ['.badge-risk-low', 'color'], bg: ['.badge-risk-low', 'background'] },
  { what: 'high-risk reason row', fg: ['.risk-high', 'color'], bg: ['.risk-high', 'background'] },
  { what: 'medium-risk reason row', fg: ['.risk-medium', 'color'], bg: ['.risk-medium', 'background'] },
  { what: 'countdown', fg: ['.countdown', 'color'], bg: ['.approval-detail', 'background'] },
  { what: 'urgent countdown', fg: ['.countdown-urgent', 'color'], bg: ['.approval-detail', 'background'] },
  { what: 'detail text', fg: '--text', bg: ['.approval-detail', 'background'] },
  { what: 'muted detail text', fg: '--muted', bg: ['.approval-detail', 'background'] },
  { what: 'session link', fg: ['.button-link', 'color'], bg: ['.approval-detail', 'background'] },
  { what: 'command', fg: ['.approval-command', 'color'], bg: ['.approval-command', 'background'] },
  { what: 'prompt sign', fg: ['.prompt-sign', 'color'], bg: ['.approval-command', 'background'] },
  { what: 'queue item subject', fg: ['.approval-item-subject', 'color'], bg: ['.approval-queue', 'background'] },
  { what: 'chosen queue item subject', fg: ['.approval-item-subject', 'color'], bg: [".approval-item[aria-selected='true']", 'background'] },
  { what: 'chosen queue item text', fg: '--text', bg: [".approval-item[aria-selected='true']", 'background'] },
  { what: 'grant preview', fg: ['.grant-preview', 'color'], bg: ['.grant-preview', 'background'] },
  { what: 'grant preview note', fg: '--muted', bg: ['.grant-preview', 'background'] },
  { what: 'grant refused', fg: ['.grant-refused', 'color'], bg: ['.grant-refused', 'background'] },
  { what: 'Revoke', fg: ['.button-link-danger', 'color'], bg: ['.grant', 'background'] },
  { what: 'approved notice', fg: ['.notice-ok', 'color'], bg: ['.notice-ok', 'background'] },
  { what: 'workspace warning', fg: ['.notice-warn', 'color'], bg: ['.notice-warn', 'background'] },
  { what: 'reason field', fg: ['.reason-field input', 'color'], bg: ['.reason-field input', 'background'] },
  { what: 'high-risk dialog title', fg: ['.dialog-title', 'color'], bg: ['.dialog', 'background'] },
  { what: 'toast subject', fg: ['.toast-text code', 'color'], bg: ['.toast', 'background'] },
  { what: 'diff added line', fg: '--text', bg: ['.diff-add', 'background'] },
  { what: 'diff removed line', fg: '--text', bg: ['.diff-del', 'background'] },
];

function colourOf(source: Source, scheme: Scheme, sheet: ReturnType<typeof rules>): string {
  const vars = tokens(scheme);
  if (typeof source === 'string') return resolveColour(`var(${source})`, vars);
  const [selector, property] = source;
  const decl = sheet.get(selector);
  const value = property === 'background' ? (decl?.get('background') ?? decl?.get('background-color')) : decl?.get('color');
  if (value === undefined) throw new Error(`no ${property} for ${selector}`);
  return resolveColour(value, vars);
}

describe('approvals pane contrast (computed from the CSS)', () => {
  const sheet = rules(STYLESHEETS);
  for (const scheme of ['light', 'dark'] as const) {
    for (const pair of PANE) {
      it(`contrast ${scheme}: ${pair.what} ≥ ${MIN_TEXT_CONTRAST}:1`, () => {
        const ratio = contrastRatio(colourOf(pair.fg, scheme, sheet), colourOf(pair.bg, scheme, sheet));
        expect(ratio, `${pair.what} in ${scheme}: ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      });
    }
  }

  it('the measure itself: known pairs give WCAG figures, and the old dark Approve/Deny text fails', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    expect(contrastRatio('#ffffff', '#5fd38a')).toBeCloseTo(1.87, 1);
    expect(contrastRatio('#ffffff', '#ff8a80')).toBeCloseTo(2.28, 1);
    expect(() => resolveColour('rgb(1 2 3 / 50%)', new Map())).toThrow(/not a solid colour/);
  });
});
