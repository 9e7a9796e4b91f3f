import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the page’s zod', () => {
  it('parses the host’s answers without probing for eval, which the page’s CSP refuses (a securitypolicyviolation at every load)', async () => {
    const made: string[] = [];
    // What zod's probe calls; the page's CSP makes it throw.
    vi.stubGlobal('Function', function refused(...body: string[]) {
      made.push(body.join());
      throw new EvalError('refused by the CSP');
    });
    const { createApiFromTransport } = await import('./create-api');
    const api = createApiFromTransport({
      kind: 'browser',
      request: async () => ({ ok: true, value: [] }),
      subscribe: () => () => undefined,
      connection: () => ({ status: 'connected' }),
      onConnection: () => () => undefined,
      close: () => undefined,
    });
    expect(await api.invoke('sessions:list', {})).toEqual([]);
    // Before: [''] — zod's `new Function("")` probe at the first object parse.
    expect(made).toEqual([]);
  });
});
