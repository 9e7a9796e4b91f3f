import { styleText as nodeStyleText } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { colouredFor } from './style-text.js';

/** Stand-ins for a stream as Node's colour check sees it (util.styleText accepts anything with write and on). */
const streams = {
  'a 256-colour terminal': { isTTY: true, getColorDepth: () => 8 },
  'a 16-colour terminal': { isTTY: true, getColorDepth: () => 4 },
  'a monochrome terminal (TERM=dumb, NO_COLOR)': { isTTY: true, getColorDepth: () => 1 },
  'a terminal without getColorDepth': { isTTY: true },
  'a pipe': { isTTY: false },
};

const saved = process.env.FORCE_COLOR;
afterEach(() => {
  if (saved === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = saved;
});

describe('colouredFor (clack\'s styleText without node:util\'s colour module)', () => {
  // Node's own answer: util.styleText colours `text` exactly when its shouldColorize(stream) holds.
  for (const force of [undefined, '', '0', '1', '2', '3', 'true', 'false']) {
    for (const [name, stream] of Object.entries(streams)) {
      it(`colours as util.styleText does for ${name}, FORCE_COLOR ${force === undefined ? 'unset' : JSON.stringify(force)}`, () => {
        if (force === undefined) delete process.env.FORCE_COLOR;
        else process.env.FORCE_COLOR = force;
        const node = nodeStyleText('red', 'x', { stream: { ...stream, write() {}, on() {} } as unknown as NodeJS.WritableStream }) !== 'x';
        expect(colouredFor(stream)).toBe(node);
      });
    }
  }
});
