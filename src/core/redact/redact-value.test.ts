import { describe, expect, it } from 'vitest';
import { redactValue } from './redact-value.js';

const TOKEN = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';

describe('redactValue', () => {
  it('redacts every string at any depth: values, array items, unknown fields and keys', async () => {
    const input = {
      role: 'user',
      content: `push with ${TOKEN}`,
      extraField: { note: [`again ${TOKEN}`, 42, null, true] },
      [`key ${TOKEN}`]: 'v',
    };
    const { value, found } = await redactValue(input);
    expect(JSON.stringify(value)).not.toContain(TOKEN);
    expect(value.content).toBe('push with [REDACTED:github]');
    expect(value.extraField.note).toEqual(['again [REDACTED:github]', 42, null, true]);
    expect(Object.keys(value)).toContain('key [REDACTED:github]');
    expect(found.github).toBeGreaterThanOrEqual(2);
    expect(input.content).toContain(TOKEN); // the input is not mutated
  });

  it('walks 5,000 levels of nesting without a stack overflow, down to the innermost string', async () => {
    let deep: unknown = { secret: `PASSWORD=${'hunter2'.repeat(3)}` };
    for (let i = 0; i < 5_000; i++) deep = i % 2 ? { next: deep } : [deep];
    const { value } = await redactValue(deep);
    let node = value as unknown;
    for (let i = 0; i < 5_000; i++) node = Array.isArray(node) ? node[0] : (node as { next: unknown }).next;
    expect(node).toEqual({ secret: 'PASSWORD=[REDACTED:env-secret]' });
  });

  it('keeps a "__proto__" key as a key, never as the prototype', async () => {
    const input = JSON.parse(`{"__proto__": {"polluted": "yes"}, "t": "use ${TOKEN}"}`) as Record<string, unknown>;
    const { value } = await redactValue(input);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 't']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('returns the same object, uncopied, when there is nothing to redact', async () => {
    const input = { a: ['plain text of some length', { b: 'more ordinary words here' }] };
    const result = await redactValue(input);
    expect(result.value).toBe(input);
    expect(result.found).toEqual({});
  });

  it('keeps text around a secret and names the detector', async () => {
    expect(await redactValue(`title: deploy with ${TOKEN} today`)).toEqual({ value: 'title: deploy with [REDACTED:github] today', found: { github: 1 } });
  });

  it('ignores secretlint-disable comments: anyone can type one into a conversation', async () => {
    const { value } = await redactValue(`// secretlint-disable\n${TOKEN}\n// secretlint-enable`);
    expect(value).not.toContain(TOKEN);
  });
});

describe('a long-lived host', () => {
  it('keeps no secretlint profile between scans (it would grow without bound in the desktop and baton serve)', async () => {
    const { performance } = await import('node:perf_hooks');
    const { secretLintProfiler } = await import('@secretlint/profiler');
    for (let i = 0; i < 50; i++) await redactValue(`scan ${i} of ordinary text`);
    await new Promise((resolve) => setImmediate(resolve)); // the profiler's observer runs late
    await redactValue('one more scan of ordinary text');
    expect(performance.getEntriesByType('mark').length).toBeLessThan(100);
    expect((secretLintProfiler as unknown as { entries: unknown[] }).entries.length).toBeLessThan(100);
  });
});

describe('scan windows', () => {
  it('finds tokens and a key block that straddle a window boundary, at every offset around it', async () => {
    const { SCAN_CHUNK_CHARS } = await import('./detect-secrets.js');
    const aws = 'AKIA' + 'QWERTYUIOPASDFGH';
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA'.padEnd(64, 'x')}\n${'y'.repeat(64)}\n-----END RSA PRIVATE KEY-----`;
    for (const secret of [TOKEN, aws, pem]) {
      for (let shift = -secret.length; shift <= 2; shift += Math.max(1, Math.floor(secret.length / 7))) {
        const text = `${'z '.repeat((SCAN_CHUNK_CHARS + shift) >> 1)}${secret} tail`;
        const { value } = await redactValue(text);
        expect(value.includes(secret.slice(4, 20)), `${secret.slice(0, 8)} at ${shift}`).toBe(false);
      }
    }
  });

  it('keeps ranges exact when a string starts with a byte-order mark (secretlint strips one)', async () => {
    expect((await redactValue(`\uFEFF${TOKEN} end`)).value).toBe('\uFEFF[REDACTED:github] end');
  });

  it('redacts a megabyte of AWS key ids (a CloudTrail dump) completely and in bounded time', async () => {
    const line = 'AKIA' + 'QWERTYUIOPASDFGH\n';
    const text = line.repeat((1 << 20) / line.length);
    const started = performance.now();
    const { value, found } = await redactValue(text);
    // One secretlint call over the whole text took minutes (quadratic in findings); windows keep it linear.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(value).not.toContain('QWERTYUIOPASDFGH');
    expect(Object.values(found).reduce((a, b) => a + b, 0)).toBe(text.length / line.length);
  }, 60_000);
});

describe('structured key/value secrets', () => {
  it('redacts a literal under a secret-named key, which no text pattern can see across two strings', async () => {
    const input = {
      env: { DB_PASSWORD: 'hunter2hunter2', apiKey: 'k-123456', id_token: 'abcd.efgh', max_tokens: '4096', secretName: 'prod-db', PASSWORD_REF: '${DB_PASSWORD}', token: 'true' },
    };
    const { value, found } = await redactValue(input);
    expect(value.env).toEqual({
      DB_PASSWORD: '[REDACTED:keyed-secret]',
      apiKey: '[REDACTED:keyed-secret]',
      id_token: '[REDACTED:keyed-secret]',
      max_tokens: '4096',
      secretName: 'prod-db',
      PASSWORD_REF: '${DB_PASSWORD}',
      token: 'true',
    });
    expect(found['keyed-secret']).toBe(3);
  });
});
