/**
 * `build()`'s value, built the first time anything reads it. Baton's zod schemas are made with
 * this: a process that never parses (a warm `baton list`, the picker's first screen) neither builds
 * them nor, in the CLI bundles, initialises zod itself (scripts/build-cli.js loads zod on first
 * use), ~25 ms of CPU at every start (bench/README.md, "Tenth sitting", issue 15). The stand-in
 * answers every read, write and `instanceof` as the built value does, so callers, schemas composed
 * of others and `z.infer` types stay as they were.
 */
export function builtOnFirstUse<T extends object>(build: () => T): T {
  let built: T | undefined;
  const value = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(value(), key),
    set: (_, key, v) => Reflect.set(value(), key, v),
    has: (_, key) => Reflect.has(value(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(value(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(value(), key, descriptor),
    ownKeys: () => Reflect.ownKeys(value()),
    // A proxy may not report a property its (empty) stand-in lacks as non-configurable: zod's `_zod` is.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(value(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(value()),
  });
}
