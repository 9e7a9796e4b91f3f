export type ParsedJsonObject = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** A JSON object, or why not: the parser's own message (it names the position) or the wrong type. */
export function parseJsonObject(text: string): ParsedJsonObject {
  // An empty file is a file with no settings yet, which is how some tools leave it.
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `it is not valid JSON (${(error as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: `its top level is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not an object` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
