/**
 * Runs `run` counting the parsers zod compiles meanwhile: zod compiles one with `new Function`,
 * counted by standing a proxy in for the global. Its once-a-process probe of whether eval is
 * allowed (`new Function("")`, made when the first schema is built: schemas are built on first
 * use, src/shared/built-on-first-use.ts) compiles no parser and is not counted.
 */
export async function countingCompiles<T>(run: () => Promise<T>): Promise<{ result: T; compiles: number }> {
  const original = globalThis.Function;
  let compiles = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args: unknown[]) {
      if (args.some((arg) => arg !== '')) compiles++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    return { result: await run(), compiles };
  } finally {
    globalThis.Function = original;
  }
}
