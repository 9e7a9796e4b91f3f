import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { BATON_SCHEME, BATON_URL_MARKER } from '../shared/baton-url.js';

/**
 * The freedesktop.org entry that makes baton:// open Baton on Linux. One template
 * (assets/baton.desktop.template) serves both writers: the packaging step (fields from
 * electron-builder.yml) and `baton doctor --fix` (an unpacked or development build).
 */
export const DESKTOP_FILE_NAME = 'baton.desktop';
export const BATON_MIME_TYPE = `x-scheme-handler/${BATON_SCHEME}`;
/** Two levels below the repo root, from src/core and from the CLI bundle in dist/cli alike. */
export const DESKTOP_TEMPLATE_URL = new URL('../../assets/baton.desktop.template', import.meta.url);

export interface DesktopEntryFields {
  name: string;
  comment: string;
  /** Semicolon-terminated list, e.g. "Development;". */
  categories: string;
  /** The program and its fixed arguments, before the %u the launcher fills in. */
  exec: readonly string[];
  mimeTypes: readonly string[];
}

export type DesktopEntryResult = { ok: true; text: string } | { ok: false; error: string };

/** Quotes one Exec argument as the Desktop Entry spec asks (reserved characters inside double quotes). */
export function quoteExecArg(arg: string): string {
  if (arg.length > 0 && !/[\s"'\\><~|&;$*?#()`=%]/.test(arg)) return arg;
  // Inside quotes, ", `, $ and \ are escaped with a backslash; the key's value escaping doubles the backslash.
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/**
 * Fills the template. Refuses an entry that would not do its job: no baton:// MIME type, or no
 * URL marker right before %u (main accepts argv links only behind it).
 */
export function renderDesktopEntry(template: string, fields: DesktopEntryFields): DesktopEntryResult {
  if (!fields.mimeTypes.includes(BATON_MIME_TYPE)) return { ok: false, error: `the entry must declare MimeType ${BATON_MIME_TYPE} (found: ${fields.mimeTypes.join(', ') || 'none'})` };
  if (fields.exec.at(-1) !== BATON_URL_MARKER) return { ok: false, error: `the Exec line must end with ${BATON_URL_MARKER} before %u (found: ${fields.exec.join(' ')})` };
  if (fields.exec.length < 2 || !fields.exec[0]) return { ok: false, error: 'the Exec line needs a program' };
  const values: Record<string, string> = {
    '@NAME@': oneLine(fields.name),
    '@COMMENT@': oneLine(fields.comment),
    '@CATEGORIES@': oneLine(fields.categories),
    '@EXEC@': fields.exec.map(quoteExecArg).join(' '),
    '@MIMETYPE@': `${fields.mimeTypes.join(';')};`,
  };
  let text = template;
  for (const [key, value] of Object.entries(values)) {
    if (!text.includes(key)) return { ok: false, error: `the template has no ${key}` };
    text = text.split(key).join(value);
  }
  const left = /@[A-Z]+@/.exec(text);
  if (left) return { ok: false, error: `the template has an unknown placeholder ${left[0]}` };
  return { ok: true, text };
}

export async function readDesktopTemplate(url: URL = DESKTOP_TEMPLATE_URL): Promise<string> {
  return readFile(fileURLToPath(url), 'utf8');
}
