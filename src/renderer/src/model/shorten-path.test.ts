import { describe, expect, it } from 'vitest';
import { shortenPath } from './shorten-path';

describe('shortenPath', () => {
  const cases: Array<[string, string]> = [
    ['/home/dev/api', '~/api'],
    ['/home/dev', '~'],
    ['/Users/ana/src/web', '~/src/web'],
    ['/root/work', '~/work'],
    ['C:\\Users\\ana\\src\\web', '~\\src\\web'],
    ['/srv/app', '/srv/app'],
    ['/homework/x', '/homework/x'],
    ['/home/dev/src/github.com/acme-corporation/payments-service', '…/acme-corporation/payments-service'],
    ['/opt/a-very-long-directory-name/another-long-directory/leaf', '…/another-long-directory/leaf'],
    ['D:\\builds\\nightly-release-candidates\\2026\\payments', '…\\2026\\payments'],
    ['/one-single-directory-with-a-very-long-name-indeed', '/one-single-directory-with-a-very-long-name-indeed'],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => expect(shortenPath(input)).toBe(expected));
  }

  it('respects a smaller limit', () => {
    expect(shortenPath('/srv/team/app', 8)).toBe('…/team/app');
  });
});
