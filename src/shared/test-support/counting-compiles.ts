/**
 * Runs `run` counting the parsers zod compiles meanwhile: zod compiles one with `new Function`,
 * counted by standing a proxy in for the global.
 */
export async function countingCompiles<T>(run: () => Promise<T>): Promise<{ result: T; compiles: number }> {
  const original = globalThis.Function;
  let compiles = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      compiles++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    return { result: await run(), compiles };
  } finally {
    globalThis.Function = original;
  }
}
