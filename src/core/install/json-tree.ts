/**
 * Where each value of a JSON text sits (byte offsets), so Baton can insert or cut one entry of a
 * settings file and leave every other byte — indentation, inline arrays, key order — as the person
 * wrote it. Runs only on text JSON.parse has accepted, so it does not re-check the grammar.
 */
export const MAX_JSON_DEPTH = 256;

export interface JsonNode {
  kind: 'object' | 'array' | 'scalar';
  start: number;
  end: number;
  members: { key: string; keyStart: number; value: JsonNode }[];
  items: JsonNode[];
}

export function parseJsonTree(text: string): JsonNode {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_JSON_DEPTH) throw new Error(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    ws();
    const start = i;
    const node: JsonNode = { kind: 'scalar', start, end: start, members: [], items: [] };
    if (text[i] === '{' || text[i] === '[') {
      const object = text[i] === '{';
      node.kind = object ? 'object' : 'array';
      i++;
      ws();
      while (text[i] !== (object ? '}' : ']')) {
        if (object) {
          const keyStart = i;
          const key = string();
          ws();
          i++; // ':'
          node.members.push({ key, keyStart, value: value(depth + 1) });
        } else node.items.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (text[i] === '"') string();
    else while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    node.end = i;
    return node;
  };
  return value(0);
}

export function member(node: JsonNode, key: string): JsonNode | undefined {
  return node.members.find((m) => m.key === key)?.value;
}

export interface TextStyle {
  indent: string;
  eol: string;
  /** A file written on one line gets its insertions on that line too. */
  oneLine: boolean;
}

function render(value: unknown, style: TextStyle, depth: number): string {
  if (style.oneLine) return JSON.stringify(value);
  return JSON.stringify(value, null, style.indent).replace(/\n/g, `${style.eol}${style.indent.repeat(depth)}`);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return `${text.slice(0, start)}${insert}${text.slice(end)}`;
}

/** Appends an entry (`"key": value` in an object, `value` in an array) to the container at `depth`. */
export function appendEntry(text: string, container: JsonNode, depth: number, style: TextStyle, value: unknown, key?: string): string {
  const inner = style.indent.repeat(depth + 1);
  const entry = `${key === undefined ? '' : `${JSON.stringify(key)}: `}${render(value, style, depth + 1)}`;
  const last = container.kind === 'object' ? container.members.at(-1)?.value : container.items.at(-1);
  if (last) return splice(text, last.end, last.end, style.oneLine ? `, ${entry}` : `,${style.eol}${inner}${entry}`);
  const [open, close] = container.kind === 'object' ? ['{', '}'] : ['[', ']'];
  const body = style.oneLine ? `${open}${entry}${close}` : `${open}${style.eol}${inner}${entry}${style.eol}${style.indent.repeat(depth)}${close}`;
  return splice(text, container.start, container.end, body);
}

/** Cuts entry `index` of the container with the separator before it (after it, for the first). */
export function removeEntry(text: string, container: JsonNode, index: number): string {
  const spans = container.kind === 'object' ? container.members.map((m) => ({ start: m.keyStart, end: m.value.end })) : container.items.map((n) => ({ start: n.start, end: n.end }));
  if (spans.length === 1) return splice(text, container.start, container.end, container.kind === 'object' ? '{}' : '[]');
  if (index > 0) return splice(text, spans[index - 1]!.end, spans[index]!.end, '');
  return splice(text, spans[0]!.start, spans[1]!.start, '');
}
