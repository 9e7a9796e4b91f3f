import type { Configuration } from 'electron-builder';

type FuseOptionsV1 = NonNullable<Configuration['electronFuses']>;

/**
 * The fuses every packed Baton must carry (the Electron security checklist, as VS Code ships):
 * no ELECTRON_RUN_AS_NODE, no NODE_OPTIONS, no --inspect, only the integrity-checked app.asar,
 * cookies encrypted at rest, no extra privileges for file://.
 */
export const REQUIRED_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
} as const satisfies FuseOptionsV1;

export type FuseProblem = { fuse: keyof typeof REQUIRED_FUSES; expected: boolean; found: unknown };

/** Every required fuse that is missing or set the other way; empty when the config is right. */
export function fuseProblems(fuses: FuseOptionsV1 | null | undefined): FuseProblem[] {
  return (Object.keys(REQUIRED_FUSES) as (keyof typeof REQUIRED_FUSES)[])
    .filter((fuse) => fuses?.[fuse] !== REQUIRED_FUSES[fuse])
    .map((fuse) => ({ fuse, expected: REQUIRED_FUSES[fuse], found: fuses?.[fuse] }));
}
