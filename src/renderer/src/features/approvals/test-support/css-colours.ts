import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads the renderer's stylesheets the way a contrast check needs them: the colour tokens of the
 * light and dark schemes, and each rule's declarations, with `var(--x)` resolved to a hex colour.
 * Only what the stylesheets use is understood (hex colours and custom properties); anything else
 * is an error, so a new colour syntax cannot slip past the check unmeasured.
 */
export const STYLES_DIR = join(import.meta.dirname, '..', '..', '..', 'styles');

export type Scheme = 'light' | 'dark';

function declarations(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of body.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    out.set(part.slice(0, colon).trim(), part.slice(colon + 1).trim());
  }
  return out;
}

/** Custom properties of `:root`, and of the dark-scheme `:root` layered over them. */
export function tokens(scheme: Scheme): Map<string, string> {
  const css = readFileSync(join(STYLES_DIR, 'tokens.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const light = /^:root\s*\{([^}]*)\}/m.exec(css);
  const dark = /@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(css);
  if (!light || !dark) throw new Error('tokens.css: expected a :root block and a dark-scheme :root block');
  const vars = declarations(light[1]!);
  if (scheme === 'dark') for (const [k, v] of declarations(dark[1]!)) vars.set(k, v);
  return vars;
}

/** Every rule of the given stylesheets: selector → declarations (later rules override earlier ones). */
export function rules(files: readonly string[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const file of files) {
    const css = readFileSync(join(STYLES_DIR, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of css.matchAll(/([^{}@]+)\{([^{}]*)\}/g)) {
      const body = declarations(match[2]!);
      for (const selector of match[1]!.split(',').map((s) => s.trim()).filter(Boolean)) {
        const merged = out.get(selector) ?? new Map<string, string>();
        for (const [k, v] of body) merged.set(k, v);
        out.set(selector, merged);
      }
    }
  }
  return out;
}

/** A colour value as #rrggbb, following var(--x) through the scheme's tokens. */
export function resolveColour(value: string, vars: Map<string, string>, depth = 0): string {
  const v = value.trim();
  const ref = /^var\((--[\w-]+)\)$/.exec(v);
  if (ref) {
    const next = vars.get(ref[1]!);
    if (next === undefined || depth > 8) throw new Error(`unknown colour token ${ref[1]}`);
    return resolveColour(next, vars, depth + 1);
  }
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(v);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  if (/^#[0-9a-f]{6}$/i.test(v)) return v.toLowerCase();
  throw new Error(`not a solid colour: ${value}`);
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
