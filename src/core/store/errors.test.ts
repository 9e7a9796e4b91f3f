import { describe, expect, it } from 'vitest';
import { fromFsError } from './errors.js';

/** Only an errno speaks about the disk: every other failure is named by its cause. */
describe('fromFsError maps by cause', () => {
  it.each([
    ['ENOSPC', 'NO_SPACE', /No space left/],
    ['EACCES', 'ACCESS_DENIED', /Permission denied/],
    ['EROFS', 'READ_ONLY', /read-only/],
    ['EIO', 'IO_ERROR', /I\/O error \(EIO\).*disk may be failing/],
  ])('%s → %s', (errno, code, message) => {
    const error = fromFsError(Object.assign(new Error(errno), { code: errno }), '/d/x', 'writing x');
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('a stack overflow (input nested 5,000 levels) is a data problem, not a failing disk', () => {
    let deep: unknown = {};
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const thrown = (() => {
      try {
        JSON.stringify(deep);
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(RangeError);
    const error = fromFsError(thrown, '/d/s', 'creating the session');
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/nested too deeply/);
    expect(error.message).not.toMatch(/disk/);
  });

  it('a bug or a non-system error says so, with its name and message, never "disk may be failing"', () => {
    for (const thrown of [new TypeError('x is not a function'), new Error('odd'), 'a string', Object.assign(new Error('zod'), { code: 'invalid_type' })]) {
      const error = fromFsError(thrown, '/d/s', 'creating the session');
      expect(error.code).toBe('INTERNAL');
      expect(error.message).toMatch(/not a disk problem/);
      expect(error.message).not.toMatch(/disk may be failing/);
    }
  });
});
