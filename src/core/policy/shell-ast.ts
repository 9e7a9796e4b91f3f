import type { Node } from 'web-tree-sitter';
import { parseBash } from './parser.js';
import type { Word } from './words.js';

/**
 * Reads tree-sitter-bash's syntax tree into the flat list of commands the risk rules check. Nothing
 * runs or expands: quotes are removed the way bash would, a word holding `$…` or a substitution is
 * `dynamic`, and every command inside a substitution, subshell, function, loop or heredoc pipeline
 * is listed too, so a rule never misses a command because of where it sits.
 */
export interface Redirect {
  op: string;
  target: Word;
}

export interface StdinText {
  kind: 'heredoc' | 'herestring';
  text: string;
  dynamic: boolean;
}

export interface Command {
  words: Word[];
  /** The command word holds an expansion, a substitution or ANSI-C quoting. */
  nameDynamic: boolean;
  redirects: Redirect[];
  /** Text given on stdin by a heredoc or herestring. */
  stdin: StdinText | null;
  /** Commands earlier in the same pipeline: their output feeds this one. */
  pipedFrom: Command[];
  /** Commands inside this command's substitutions (`$(…)`, backticks, `<(…)`). */
  inner: Command[];
  /** The command's own source text, for messages. */
  text: string;
}

export interface ShellScript {
  commands: Command[];
  /** tree-sitter had to recover from a syntax error somewhere in the line. */
  hasError: boolean;
  /** More than MAX_SHELL_COMMANDS commands: the rest were not read. */
  truncated: boolean;
}

/** Commands read from one line; an agent's command has a handful, a longer line is not checked in full. */
export const MAX_SHELL_COMMANDS = 256;

const ANSI_C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** `$'…'` as bash decodes it: \xHH, \uHHHH, \NNN (octal), \cX and the letter escapes. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs, (_, e: string) => {
    if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    if (e.startsWith('c')) return String.fromCharCode(e.charCodeAt(1) & 31);
    return ANSI_C_ESCAPES[e] ?? `\\${e}`;
  });
}

/** Nodes that hold whole commands, even where a word was expected. */
const STATEMENTS = new Set(['subshell', 'compound_statement', 'command', 'pipeline', 'list', 'redirected_statement', 'if_statement', 'for_statement', 'while_statement', 'case_statement', 'function_definition']);

class Reader {
  readonly all: Command[] = [];
  hasError = false;
  truncated = false;

  /** Commands of a substitution: listed globally, and returned for the enclosing command. */
  private substitution(node: Node): Command[] {
    const before = this.all.length;
    for (const c of node.namedChildren) if (c) this.statement(c);
    return this.all.slice(before);
  }

  word(node: Node, inner: Command[]): Word {
    switch (node.type) {
      case 'word':
        return { value: node.text.replace(/\\(.)/gs, '$1').replace(/\\$/, ''), dynamic: false };
      case 'number':
        return { value: node.text, dynamic: false };
      case 'raw_string':
        return { value: node.text.slice(1, -1), dynamic: false };
      case 'ansi_c_string':
        return { value: decodeAnsiC(node.text.slice(2, -1)), dynamic: false, ansiC: true };
      case 'simple_expansion':
      case 'expansion':
      case 'arithmetic_expansion':
        for (const c of node.namedChildren) if (c) this.scan(c, inner);
        return { value: node.text, dynamic: true };
      case 'command_substitution':
        inner.push(...this.substitution(node));
        return { value: '$(…)', dynamic: true };
      case 'process_substitution':
        inner.push(...this.substitution(node));
        return { value: '<(…)', dynamic: true };
      case 'string': {
        let value = '';
        let dynamic = false;
        let pos = node.startIndex;
        const unescape = (s: string): string => s.replace(/\\([$`"\\\n])/g, '$1');
        for (const c of node.children) {
          if (!c) continue;
          if (this.truncated) break;
          // tree-sitter leaves some characters (a newline between two runs of text) in no child.
          if (c.startIndex > pos) value += unescape(node.text.slice(pos - node.startIndex, c.startIndex - node.startIndex));
          pos = c.endIndex;
          if (c.type === '"') continue;
          if (c.type === 'string_content') value += unescape(c.text);
          else {
            const w = this.word(c, inner);
            value += w.value;
            dynamic ||= w.dynamic;
          }
        }
        return { value, dynamic };
      }
      case 'concatenation': {
        let value = '';
        let dynamic = false;
        let ansiC = false;
        for (const c of node.children) {
          if (!c) continue;
          if (this.truncated) break;
          const w = c.isNamed ? this.word(c, inner) : { value: c.text, dynamic: false };
          value += w.value;
          dynamic ||= w.dynamic;
          ansiC ||= w.ansiC === true;
        }
        return ansiC ? { value, dynamic, ansiC } : { value, dynamic };
      }
      default:
        this.scan(node, inner);
        return { value: node.text, dynamic: node.text.includes('$') || node.text.includes('`') };
    }
  }

  /** Finds substitutions anywhere below a node that is not itself a command. */
  private scan(node: Node, inner: Command[]): void {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') {
      inner.push(...this.substitution(node));
      return;
    }
    if (node.type === 'ERROR') this.hasError = true;
    for (const c of node.namedChildren) if (c) this.scan(c, inner);
  }

  private redirect(node: Node, cmd: Command): void {
    if (node.type === 'file_redirect') {
      const op = node.children.filter((c) => c && !c.isNamed).map((c) => c!.text).join('');
      const dest = node.childForFieldName('destination') ?? node.namedChildren.filter((c) => c && c.type !== 'file_descriptor').at(-1) ?? null;
      if (dest) cmd.redirects.push({ op: op || '>', target: this.word(dest, cmd.inner) });
    } else if (node.type === 'herestring_redirect') {
      const arg = node.namedChildren.at(-1);
      if (arg) {
        const w = this.word(arg, cmd.inner);
        cmd.stdin = { kind: 'herestring', text: w.value, dynamic: w.dynamic };
      }
    } else if (node.type === 'heredoc_redirect') {
      const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
      const start = node.namedChildren.find((c) => c?.type === 'heredoc_start')?.text ?? '';
      const quoted = /['"\\]/.test(start); // <<'EOF' keeps $ literal
      if (body) {
        const inner: Command[] = [];
        if (!quoted) for (const c of body.namedChildren) if (c) this.scan(c, inner);
        cmd.inner.push(...inner);
        cmd.stdin = { kind: 'heredoc', text: body.text, dynamic: !quoted && /\$|`/.test(body.text) };
      }
      for (const c of node.namedChildren) {
        if (!c) continue;
        if (c.type === 'file_redirect') this.redirect(c, cmd);
        else if (c.type === 'pipeline' || c.type === 'command' || c.type === 'list' || c.type === 'redirected_statement') {
          // `cat <<EOF | sh`: the rest of the pipeline is written inside the heredoc's node.
          const made = this.statement(c);
          const first = made[0];
          if (first) first.pipedFrom.unshift(cmd);
        }
      }
    } else this.scan(node, cmd.inner);
  }

  private command(node: Node): Command {
    const cmd: Command = { words: [], nameDynamic: false, redirects: [], stdin: null, pipedFrom: [], inner: [], text: node.text };
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'command_name') {
        const inner = c.namedChildren[0];
        if (inner) {
          const w = this.word(inner, cmd.inner);
          cmd.nameDynamic = w.dynamic || w.ansiC === true || inner.type === 'command_substitution';
          cmd.words.push(w);
        }
      } else if (c.type === 'variable_assignment' || c.type === 'variable_assignments') this.scan(c, cmd.inner);
      else if (c.type.endsWith('_redirect')) this.redirect(c, cmd);
      else if (STATEMENTS.has(c.type)) cmd.inner.push(...this.statement(c)); // `sudo (rm -rf ~)`
      else cmd.words.push(this.word(c, cmd.inner));
    }
    return cmd;
  }

  /** Reads a statement; returns the commands it runs at its own level (not those in substitutions). */
  statement(node: Node): Command[] {
    if (this.all.length >= MAX_SHELL_COMMANDS) {
      this.truncated = true;
      return [];
    }
    if (node.type === 'ERROR' || node.hasError) this.hasError ||= node.type === 'ERROR' || node.hasError;
    switch (node.type) {
      case 'command': {
        const cmd = this.command(node);
        this.all.push(cmd);
        return [cmd];
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const made = body ? this.statement(body) : [];
        let target = made.at(-1);
        if (!target) {
          target = { words: [], nameDynamic: false, redirects: [], stdin: null, pipedFrom: [], inner: [], text: node.text };
          this.all.push(target);
          made.push(target);
        }
        for (const c of node.namedChildren) {
          if (!c || c === body || c.id === body?.id) continue;
          // `a && b <<EOF`, `a | b > f`: the redirection belongs to the last command.
          this.redirect(c, target);
        }
        return made;
      }
      case 'pipeline': {
        const made: Command[] = [];
        let before: Command[] = [];
        for (const c of node.namedChildren) {
          if (!c) continue;
          if (this.truncated) break;
          const part = this.statement(c);
          for (const p of part) p.pipedFrom.push(...before);
          before = [...before, ...part];
          made.push(...part);
        }
        return made;
      }
      case 'command_substitution':
      case 'process_substitution':
        return this.substitution(node);
      default: {
        const made: Command[] = [];
        for (const c of node.namedChildren) {
          if (!c) continue;
          if (this.truncated) break;
          if (c.type === 'command_substitution' || c.type === 'process_substitution') made.push(...this.substitution(c));
          else if (c.type === 'variable_assignment' || c.type === 'word' || c.type === 'string' || c.type === 'concatenation' || c.type === 'expansion' || c.type === 'simple_expansion') this.scan(c, made);
          else made.push(...this.statement(c));
        }
        return made;
      }
    }
  }
}

/** The commands of a shell line, or null before the parser is loaded. */
export function readShell(text: string): ShellScript | null {
  const tree = parseBash(text);
  if (!tree) return null;
  try {
    const reader = new Reader();
    reader.statement(tree.rootNode);
    return { commands: reader.all, hasError: reader.hasError || tree.rootNode.hasError, truncated: reader.truncated };
  } finally {
    tree.delete();
  }
}
