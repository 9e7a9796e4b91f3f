import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackOrigin } from './loopback-host.js';

describe('isLoopbackHost (browser host through an ssh -L tunnel)', () => {
  it.each(['127.0.0.1:41234', 'localhost:9000', '[::1]:9000', 'localhost:1', '127.0.0.1:65535'])('accepts %s', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['empty', ''],
    ['a loopback name without a port', 'localhost'],
    ['127.0.0.1 without a port', '127.0.0.1'],
    ['[::1] without a port', '[::1]'],
    ['a DNS-rebinding name', 'rebind.attacker.example:9000'],
    ['a name ending in localhost', 'evil-localhost:9000'],
    ['a subdomain of localhost', 'a.localhost:9000'],
    ['localhost with a trailing dot', 'localhost.:9000'],
    ['upper case', 'LOCALHOST:9000'],
    ['0.0.0.0', '0.0.0.0:9000'],
    ['another loopback address', '127.0.0.2:9000'],
    ['port 0', 'localhost:0'],
    ['a port past 65535', 'localhost:65536'],
    ['a leading zero', 'localhost:09000'],
    ['a signed port', 'localhost:+9000'],
    ['an empty port', 'localhost:'],
    ['userinfo', 'user@localhost:9000'],
    ['two ports', 'localhost:9000:9000'],
    ['whitespace', 'localhost: 9000'],
    ['a bare IPv6 without brackets', '::1:9000'],
  ])('refuses %s', (_what, host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses every port spelling that is not plain digits 1..65535 (exhaustive over a corpus)', () => {
    const bad = ['-1', '1e3', '0x10', '9000 ', ' 9000', '9000/', '9000?', '9000#', '９０００', '100000', '99999'];
    for (const port of bad) for (const name of ['127.0.0.1', 'localhost', '[::1]']) expect(isLoopbackHost(`${name}:${port}`), `${name}:${port}`).toBe(false);
  });
});

describe('isLoopbackOrigin', () => {
  it.each(['http://localhost:9000', 'http://127.0.0.1:41234', 'http://[::1]:8080'])('accepts %s', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(true);
  });

  it.each([undefined, 'null', 'https://localhost:9000', 'http://localhost:9000/', 'http://evil.example:9000', 'http://localhost', 'file://', 'http://localhost.:9000'])('refuses %s', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(false);
  });
});
