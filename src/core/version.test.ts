import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BATON_VERSION } from './version.js';

describe('BATON_VERSION', () => {
  it('matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(BATON_VERSION).toBe(pkg.version);
  });
});
