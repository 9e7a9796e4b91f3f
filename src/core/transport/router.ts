import type { Answer, ConnectionContext, IncomingRequest, RequestHandler } from './types.js';

export type MethodHandler = (params: unknown, request: IncomingRequest, connection: ConnectionContext) => Promise<Answer>;

/**
 * A RequestHandler from a table of methods; a method not in the table answers UNKNOWN_METHOD
 * naming it and the methods this host offers. Own properties only: a method named
 * "constructor" or "toString" must not reach Object.prototype.
 */
export function createRouter(routes: Readonly<Record<string, MethodHandler>>): RequestHandler {
  const table = new Map(Object.entries(routes));
  return async (request, connection) => {
    const handler = table.get(request.method);
    if (!handler) {
      return {
        ok: false,
        code: 'UNKNOWN_METHOD',
        message: `unknown method "${request.method}"; this host offers: ${[...table.keys()].join(', ') || '(none)'}`,
      };
    }
    return handler(request.params, request, connection);
  };
}
