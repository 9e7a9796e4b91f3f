/**
 * Read-only importers for Claude Code and Codex CLI sessions (docs/importer-claude-code.md,
 * docs/importer-codex.md). Baton never writes into another tool's directory.
 *
 * - locateAgentDirs(env)                       where each tool keeps its sessions
 * - scanAgentSessions({ env, cacheFile })      resume candidates, incremental, head + tail reads
 * - readAgentSession(source, pathOrId, env)    one whole session converted to Baton messages
 * - findLatestSession(source, env, { cwd })    for `--latest`
 */
export { locateAgentDirs, claudeProjectsDir, codexSessionsDir } from './locate.js';
export { scanAgentSessions, type ScanOptions } from './scan.js';
export { readAgentSession, findLatestSession, resolveSessionPath, type ReadOptions, type LatestOptions } from './read-session.js';
export { sourceFingerprint } from './fingerprint.js';
export { ImporterError, isImporterError, type ImporterErrorCode } from './errors.js';
export { nodeImportReader, countingReader, type ImportReader, type ImportHandle, type ImportStat, type ImportEntry, type CountingReader } from './reader.js';
export {
  AGENT_SOURCES,
  resumeCommandFor,
  type AgentSource,
  type AgentDirs,
  type ImportedCandidate,
  type ImportedSession,
  type ScanResult,
  type ScanStats,
  type ReadStats,
} from './types.js';
export * as importerLimits from './limits.js';
