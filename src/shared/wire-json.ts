import { err, ok, type Result } from './result.js';

/**
 * The local endpoint's constants and the zod-free half of its frame parsing (wire.ts has the
 * protocol's description and the zod schemas): what the CLI's socket client needs, so a
 * `baton list --json` answered by the host does not load and initialize zod (~15–20 ms of its
 * CPU). Pure: no node: imports.
 */
export const PROTOCOL_VERSION = '1.0';
export const SUPPORTED_VERSIONS: readonly string[] = [PROTOCOL_VERSION];

/** Manifests carry references and hashes, never contents: 256 KiB is generous. */
export const MAX_FRAME_BYTES = 256 * 1024;
/** Before authentication only tiny frames are legitimate (an auth frame is ~250 bytes). */
export const MAX_HANDSHAKE_FRAME_BYTES = 1024;
/** The manifest nests about 4 levels; 32 leaves room for params without inviting stack abuse. */
export const MAX_JSON_DEPTH = 32;
/** An authenticated connection with nothing in flight, or a frame still arriving, closes after this. */
export const IDLE_TIMEOUT_MS = 30_000;
/** From accept to a verified proof. */
export const HANDSHAKE_TIMEOUT_MS = 5_000;
export const NONCE_BYTES = 32;
export const SERVER_PROOF_LABEL = 'baton-server-proof-v1\0';

/** Keys that must never reach an object some code might later merge or spread. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The major part of a MAJOR.MINOR version, or NaN when it is not one. */
export function majorOf(version: string): number {
  const match = /^(\d{1,4})\.\d{1,4}$/.exec(version);
  return match ? Number(match[1]) : Number.NaN;
}

/** True when `version` speaks a newer major than ours: the peer must refuse with UPGRADE_REQUIRED. */
export function isNewerMajor(version: string, ours: string = PROTOCOL_VERSION): boolean {
  return majorOf(version) > majorOf(ours);
}

/** The first version both sides speak (same major), or null. */
export function pickVersion(offered: readonly string[], ours: readonly string[] = SUPPORTED_VERSIONS): string | null {
  for (const mine of ours) {
    if (offered.some((theirs) => majorOf(theirs) === majorOf(mine))) return mine;
  }
  return null;
}

export function upgradeRequiredMessage(theirs: string, ours: string = PROTOCOL_VERSION): string {
  return `peer speaks protocol ${theirs}, this Baton speaks ${ours}: upgrade Baton to talk to it`;
}

/**
 * Depth of JSON text, scanned without parsing so a frame of 100,000 '[' never reaches
 * JSON.parse (whose recursion would throw RangeError deep in V8). Returns Infinity past `limit`.
 */
export function jsonDepth(text: string, limit: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) max = depth;
      if (max > limit) return Number.POSITIVE_INFINITY;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return max;
}

/** The first forbidden key found anywhere in a parsed value, or null. Depth is already bounded. */
function findForbiddenKey(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findForbiddenKey(item);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      const found = findForbiddenKey((value as Record<string, unknown>)[key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Strict JSON for untrusted text: bounded depth, no prototype-polluting keys, never throws. */
export function parseJsonStrict(text: string, maxDepth: number = MAX_JSON_DEPTH): Result<unknown> {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    return err('BAD_FRAME', `frame nests deeper than ${maxDepth} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err('BAD_FRAME', `frame is not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : 'parse error'})`);
  }
  const forbidden = findForbiddenKey(value);
  if (forbidden !== null) return err('BAD_FRAME', `frame contains the forbidden key "${forbidden}"`);
  return ok(value);
}

/** One frame, one line. JSON.stringify escapes every newline inside strings, so the line is whole. */
export function encodeFrame(frame: Record<string, unknown>): string {
  return `${JSON.stringify(frame)}\n`;
}
