// Types of launcher-copy.js for the TypeScript tests that install a launcher copy (src/cli/serve-bundle.test.ts).
export declare function installLauncherCopy(parent: string, name: string, alter: (cliDir: string) => void): string;
