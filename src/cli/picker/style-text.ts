import { WriteStream } from 'node:tty';
import { styleText as nodeStyleText, stripVTControlCharacters } from 'node:util';

/**
 * util.styleText for clack (scripts/build-cli.js `clackStyleText` gives clack's modules this
 * instead of node:util's): the same colours on the same terms, without Node's colour module.
 * util.styleText checks process.stdout with internal/util/colors, whose load reads
 * process.stderr's colour depth and so builds the stderr stream (a whole tty.WriteStream on a
 * terminal): clack calls styleText at its modules' top level, so every picker built it before its
 * first frame (bench/README.md, "Fifteenth sitting"). The check below is Node 20's
 * `shouldColorize(process.stdout)`, decided once: a process's terminal and environment do not
 * change under the picker.
 */
export { stripVTControlCharacters };

type StyleFormat = Parameters<typeof nodeStyleText>[0];

/** Whether util.styleText colours for `stream` (Node's shouldColorize): FORCE_COLOR first, else a terminal of more than 2-bit colour. */
export function colouredFor(stream: { isTTY?: boolean; getColorDepth?: () => number } | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined) return WriteStream.prototype.getColorDepth(env) > 2;
  return stream?.isTTY === true && (typeof stream.getColorDepth === 'function' ? stream.getColorDepth() > 2 : true);
}

let coloured: boolean | undefined;

export function styleText(format: StyleFormat, text: string): string {
  coloured ??= colouredFor(process.stdout);
  // validateStream: false is Node's own way to skip its check (decided above); Node 20 releases
  // without the option always colour, as util.styleText did there.
  return coloured ? nodeStyleText(format, text, { validateStream: false }) : text;
}
