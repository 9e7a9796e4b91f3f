/** Kept in step with package.json by a test (version.test.ts). */
export const BATON_VERSION = '0.1.0';
