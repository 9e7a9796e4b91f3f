import type { z } from 'zod';

/**
 * Parses of a schema that run zod's interpreter before it compiles the schema's parser. zod
 * compiles a parser (`new Function`) for each object schema on its first parse: for SessionDoc
 * ~15–20 ms at load, against ~4–8 ms for the interpreted first parse; compiled, a parse takes
 * ~35 µs against ~65–85 µs interpreted, so the compile pays back after some 300 parses. A CLI
 * parses a session document twice; a host that reads thousands compiles after these few.
 */
export const INTERPRETED_PARSES = 64;

/** `schema.safeParse`, interpreted for its first INTERPRETED_PARSES calls and compiled after. */
export function tieredSafeParse<S extends z.ZodType>(schema: S): (value: unknown) => z.ZodSafeParseResult<z.output<S>> {
  let parses = 0;
  return (value) => schema.safeParse(value, parses++ < INTERPRETED_PARSES ? { jitless: true } : undefined);
}
