// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { takeToken, TOKEN_MAX_LENGTH, TOKEN_STORAGE_KEY, wsUrlFor } from './token';

function open(url: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

const env = () => ({ location: window.location, history: window.history, sessionStorage: window.sessionStorage });

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('takeToken', () => {
  it('reads ?token=, stores it and removes it from the address bar, keeping the rest', () => {
    open('http://127.0.0.1:4312/?token=s3cr3t&view=list#section');
    expect(takeToken(env())).toBe('s3cr3t');
    expect(window.location.href).toBe('http://127.0.0.1:4312/?view=list#section');
    expect(window.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('s3cr3t');
  });

  it('reads #token= as well', () => {
    open('http://127.0.0.1:4312/#token=frag%2Btoken');
    expect(takeToken(env())).toBe('frag+token');
    expect(window.location.href).toBe('http://127.0.0.1:4312/');
  });

  it('a reload (no token in the address) uses the stored one', () => {
    open('http://127.0.0.1:4312/?token=first');
    takeToken(env());
    open('http://127.0.0.1:4312/');
    expect(takeToken(env())).toBe('first');
  });

  it('a new token in the address replaces the stored one', () => {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, 'old');
    open('http://127.0.0.1:4312/?token=new');
    expect(takeToken(env())).toBe('new');
    expect(window.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('new');
  });

  it('no token anywhere gives null', () => {
    open('http://127.0.0.1:4312/');
    expect(takeToken(env())).toBeNull();
  });

  it('an empty or oversized token is refused but still removed from the address', () => {
    open('http://127.0.0.1:4312/?token=');
    expect(takeToken(env())).toBeNull();
    expect(window.location.search).toBe('');
    open(`http://127.0.0.1:4312/?token=${'x'.repeat(TOKEN_MAX_LENGTH + 1)}`);
    expect(takeToken(env())).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('works when storage is unavailable (throws)', () => {
    open('http://127.0.0.1:4312/?token=abc');
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(takeToken({ ...env(), sessionStorage: throwing })).toBe('abc');
    open('http://127.0.0.1:4312/');
    expect(takeToken({ ...env(), sessionStorage: throwing })).toBeNull();
  });
});

describe('wsUrlFor', () => {
  it('builds the /ws address on the same host, token encoded', () => {
    expect(wsUrlFor({ protocol: 'http:', host: '127.0.0.1:4312' }, 'a+b/c&d')).toBe('ws://127.0.0.1:4312/ws?token=a%2Bb%2Fc%26d');
    expect(wsUrlFor({ protocol: 'https:', host: 'example.test' }, 't')).toBe('wss://example.test/ws?token=t');
  });
});

describe('takeToken keeps the rest of a fragment', () => {
  it('#token=…&x=1 keeps x=1', () => {
    open('http://127.0.0.1:4312/#token=abc&x=1');
    expect(takeToken(env())).toBe('abc');
    expect(window.location.hash).toBe('#x=1');
  });
});
