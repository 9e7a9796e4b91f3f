/**
 * A small POSIX-shell reader for the risk rules. It does not run or expand anything: it splits a
 * command line into simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines), removes quotes the
 * way the shell would, keeps redirections apart, and hands back the text of every command
 * substitution (`$(…)`, backticks, `<(…)`) so the rules can look inside those too. A word that
 * still holds an unexpanded `$VAR` is marked `dynamic`: its real value is unknown to us.
 */
export interface Word {
  value: string;
  /** Contains an unquoted or double-quoted `$…`, a substitution, or a leading `~`. */
  dynamic: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** The operator that ends this command ('' at the end). `|` means its output feeds the next. */
  next: string;
  /** Command and process substitutions found in this command's words. */
  substitutions: string[];
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** A quote or substitution was left open: the rules treat the line as suspicious. */
  unterminated: boolean;
}

const OPERATORS = ['&&', '||', '|&', ';;', '|', ';', '&', '\n'];
const REDIRECT = /^(\d*|&)(>>|>\||>&|>|<<<|<<-|<<|<&|<>|<)/;

/** Reads a balanced `( … )` starting after the opening paren; returns the inner text and the end. */
function readBalanced(text: string, start: number): { inner: string; end: number; closed: boolean } {
  let depth = 1;
  let i = start;
  let quote: string | null = null;
  while (i < text.length) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '\\') i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return { inner: text.slice(start, i), end: i + 1, closed: true };
    i++;
  }
  return { inner: text.slice(start), end: text.length, closed: false };
}

export function parseShell(text: string): ParsedShell {
  const commands: SimpleCommand[] = [];
  let unterminated = false;
  let current: SimpleCommand = { words: [], redirects: [], next: '', substitutions: [] };
  let word: Word | null = null;
  let pendingRedirect: string | null = null;

  const flushWord = (): void => {
    if (word === null) return;
    if (pendingRedirect !== null) {
      current.redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = null;
    } else current.words.push(word);
    word = null;
  };
  const flushCommand = (op: string): void => {
    flushWord();
    pendingRedirect = null; // a redirection without a target ends with its command
    current.next = op;
    if (current.words.length > 0 || current.redirects.length > 0 || current.substitutions.length > 0) commands.push(current);
    current = { words: [], redirects: [], next: '', substitutions: [] };
  };
  const append = (s: string, dynamic = false): void => {
    word ??= { value: '', dynamic: false };
    word.value += s;
    if (dynamic) word.dynamic = true;
  };
  const substitution = (i: number, openLength: number, marker: string): number => {
    const { inner, end, closed } = readBalanced(text, i + openLength);
    if (!closed) unterminated = true;
    current.substitutions.push(inner);
    append(marker, true);
    return end;
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const rest = text.slice(i);
    if (c === '\\') {
      if (text[i + 1] === '\n') i += 2;
      else {
        append(text[i + 1] ?? '');
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) {
        unterminated = true;
        append(text.slice(i + 1));
        break;
      }
      append(text.slice(i + 1, close));
      i = close + 1;
      continue;
    }
    if (c === '$' && text[i + 1] === "'") {
      const close = text.indexOf("'", i + 2);
      if (close < 0) unterminated = true;
      append(text.slice(i + 2, close < 0 ? undefined : close).replace(/\\(.)/g, '$1'));
      i = close < 0 ? text.length : close + 1;
      continue;
    }
    if (c === '"') {
      i++;
      append('');
      let closed = false;
      while (i < text.length) {
        const d = text[i]!;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) {
          append(text[i + 1]!);
          i += 2;
        } else if (d === '$' && text[i + 1] === '(') i = substitution(i, 2, '$(…)');
        else if (d === '`') {
          const close = text.indexOf('`', i + 1);
          if (close < 0) unterminated = true;
          current.substitutions.push(text.slice(i + 1, close < 0 ? undefined : close));
          append('`…`', true);
          i = close < 0 ? text.length : close + 1;
        } else {
          append(d, d === '$');
          i++;
        }
      }
      if (!closed) unterminated = true;
      continue;
    }
    if (c === '$' && text[i + 1] === '(') {
      i = substitution(i, 2, '$(…)');
      continue;
    }
    if ((c === '<' || c === '>') && text[i + 1] === '(' && word === null) {
      i = substitution(i, 2, '<(…)');
      continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      if (close < 0) unterminated = true;
      current.substitutions.push(text.slice(i + 1, close < 0 ? undefined : close));
      append('`…`', true);
      i = close < 0 ? text.length : close + 1;
      continue;
    }
    if (c === '#' && word === null) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    // Before the operators, so `&>` and `>&` are read as redirections, not as `&`.
    const pending = word as Word | null; // assigned inside closures: TS narrows it to null here
    const fdOnly = pending !== null && /^\d+$/.test(pending.value) && !pending.dynamic;
    const redirect = pending === null || fdOnly ? REDIRECT.exec(rest) : null;
    if (redirect && (pending === null || redirect[1] === '')) {
      word = null; // an fd number written before the operator belongs to the redirection
      flushWord();
      pendingRedirect = redirect[0];
      i += redirect[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (op) {
      flushCommand(op);
      i += op.length;
      continue;
    }
    if (c === '(' || c === ')' || c === '{' || c === '}') {
      // Subshells and groups: their inner commands are ordinary commands for our purposes.
      if (word === null && (c === '(' || c === ')')) {
        flushCommand(';');
        i++;
        continue;
      }
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      flushWord();
      i++;
      continue;
    }
    append(c, c === '$' || (c === '~' && word === null));
    i++;
  }
  flushCommand('');
  return { commands, unterminated };
}

/** Joins words back into a command line, quoting where the shell would need it. */
export function quoteWords(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
