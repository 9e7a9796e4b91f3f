import type { HighlighterCore, ThemedToken } from 'shiki/core';

/**
 * Code-block highlighting with Shiki's core and its JavaScript regex engine (no WebAssembly, so
 * the CSP needs no 'wasm-unsafe-eval'), loaded on the first code block so the first screen does
 * not pay for it. Chosen over Monaco's colorizer by size and speed: docs/code-highlighting.md.
 * Tokens come back as data and are rendered as React spans: no HTML string is ever injected.
 */

/** Blocks longer than this are shown plain: highlighting them would stall scrolling. */
export const HIGHLIGHT_MAX_CHARS = 20_000;

const LANGS = {
  typescript: () => import('@shikijs/langs/typescript'),
  tsx: () => import('@shikijs/langs/tsx'),
  javascript: () => import('@shikijs/langs/javascript'),
  json: () => import('@shikijs/langs/json'),
  shellscript: () => import('@shikijs/langs/shellscript'),
  python: () => import('@shikijs/langs/python'),
  diff: () => import('@shikijs/langs/diff'),
  rust: () => import('@shikijs/langs/rust'),
  go: () => import('@shikijs/langs/go'),
  yaml: () => import('@shikijs/langs/yaml'),
  css: () => import('@shikijs/langs/css'),
  html: () => import('@shikijs/langs/html'),
  markdown: () => import('@shikijs/langs/markdown'),
  sql: () => import('@shikijs/langs/sql'),
} as const;
export type HighlightLang = keyof typeof LANGS;

const ALIASES: Record<string, HighlightLang> = {
  ts: 'typescript', typescript: 'typescript', tsx: 'tsx', js: 'javascript', jsx: 'javascript', javascript: 'javascript',
  mjs: 'javascript', cjs: 'javascript', json: 'json', jsonc: 'json', sh: 'shellscript', bash: 'shellscript', shell: 'shellscript',
  zsh: 'shellscript', console: 'shellscript', shellscript: 'shellscript', py: 'python', python: 'python', diff: 'diff', patch: 'diff',
  rs: 'rust', rust: 'rust', go: 'go', golang: 'go', yml: 'yaml', yaml: 'yaml', css: 'css', html: 'html', md: 'markdown',
  markdown: 'markdown', sql: 'sql',
};

/** The language a fence names (```ts), or null when Baton does not highlight it. */
export function langOf(fence: string | undefined): HighlightLang | null {
  if (fence === undefined) return null;
  return ALIASES[fence.toLowerCase()] ?? null;
}

export interface HighlightToken {
  content: string;
  /** Colour in the light theme, and in the dark theme (applied through --shiki-dark by CSS). */
  light?: string;
  dark?: string;
}

/** Highlighted blocks kept, so a block scrolled out of and back into the virtual list costs nothing. */
export const HIGHLIGHT_CACHE_ENTRIES = 500;
const cache = new Map<string, HighlightToken[][]>();

let highlighter: Promise<HighlighterCore> | null = null;
const loadedLangs = new Set<HighlightLang>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, light, dark] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
      import('@shikijs/themes/github-light'),
      import('@shikijs/themes/github-dark'),
    ]);
    return createHighlighterCore({ themes: [light.default, dark.default], langs: [], engine: createJavaScriptRegexEngine() });
  })();
  return highlighter;
}

/** Lines of tokens for `code` in `lang`; null when the block is too long to highlight. */
export async function highlight(code: string, lang: HighlightLang): Promise<HighlightToken[][] | null> {
  if (code.length > HIGHLIGHT_MAX_CHARS) return null;
  const key = `${lang}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const core = await getHighlighter();
  if (!loadedLangs.has(lang)) {
    const mod = await LANGS[lang]();
    await core.loadLanguage(...mod.default);
    loadedLangs.add(lang);
  }
  const { tokens } = core.codeToTokens(code, { lang, themes: { light: 'github-light', dark: 'github-dark' }, defaultColor: false });
  const lines = tokens.map((line) => line.map(toToken));
  cache.set(key, lines);
  if (cache.size > HIGHLIGHT_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return lines;
}

function toToken(token: ThemedToken): HighlightToken {
  const style = token.htmlStyle ?? {};
  return { content: token.content, light: style['--shiki-light'], dark: style['--shiki-dark'] };
}
