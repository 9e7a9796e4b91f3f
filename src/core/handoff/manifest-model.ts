import type { Manifest } from '../../shared/manifest.js';
import type { SessionDoc } from '../../shared/session.js';
import { canonicalJson, sha256Hex } from '../hash.js';
import type { ModelSettings } from '../importers/model-settings.js';
import { redactValue } from '../redact/redact-value.js';
import { ARTIFACTS_DIR, artifactName } from '../store/layout.js';
import type { NewArtifact, SessionStore } from '../store/types.js';
import type { FieldMismatch } from './verify-offer.js';

/** The artifact that carries a session's model configuration (artifacts/<sha256>.json). */
export const MODEL_ARTIFACT_EXTENSION = 'json';
export const MODEL_ARTIFACT_KIND = 'baton.model-settings';

export interface CarriedModel {
  kind: typeof MODEL_ARTIFACT_KIND;
  version: 1;
  sessionId: string;
  name: string;
  /** The listed keys only (model-settings.ts), redacted; instructions by path and hash. */
  settings: Record<string, unknown>;
}

/**
 * The model snapshot of a Baton session handed off with a messages file: `name` is the `model` of
 * its last assistant message (README: message format), found by the landing's scan. The CLI takes
 * no other model setting.
 */
export function batonModelNamed(name: string | null): { name: string; settings: ModelSettings & Record<string, unknown> } | null {
  return name ? { name, settings: { sourceTool: 'baton', model: name, instructions: [], sources: [] } } : null;
}

/**
 * Stores the session's model configuration as an artifact by hash (run through the redactor once
 * more: a session.json written by an older Baton may hold what this one would not keep), so the
 * manifest's `model.settings_ref` names bytes the target can read and check. Null without a model.
 */
export async function storeCarriedModel(store: SessionStore, session: SessionDoc): Promise<{ name: string; settings_ref: string; settings_sha256: string } | null> {
  if (!session.model) return null;
  const { sha256, ref } = await store.putArtifact(session.id, await carriedModelBytes(session.id, session.model), MODEL_ARTIFACT_EXTENSION);
  if (session.model.settingsSha256 !== sha256) {
    await store.mutate(session.id, (doc) => (doc.model ? { ...doc, model: { ...doc.model, settingsRef: ref, settingsSha256: sha256 } } : undefined));
  }
  return { name: session.model.name, settings_ref: ref, settings_sha256: sha256 };
}

/**
 * A session about to land: its model already naming its settings artifact, and that artifact, for
 * the landing to write in its staging directory (as the permission rules): the handoff's
 * storeCarriedModel then finds the same bytes in place and does not rewrite session.json (issue 20).
 */
export async function landingModel(sessionId: string, model: NonNullable<SessionDoc['model']>): Promise<{ model: NonNullable<SessionDoc['model']>; artifact: NewArtifact }> {
  const bytes = await carriedModelBytes(sessionId, model);
  const sha256 = sha256Hex(bytes);
  return { model: { ...model, settingsRef: `${ARTIFACTS_DIR}/${artifactName(sha256, MODEL_ARTIFACT_EXTENSION)}`, settingsSha256: sha256 }, artifact: { bytes, extension: MODEL_ARTIFACT_EXTENSION } };
}

/** The model artifact's bytes: the settings run through the redactor once more, canonical JSON. */
async function carriedModelBytes(sessionId: string, model: NonNullable<SessionDoc['model']>): Promise<Uint8Array> {
  const { value: settings } = await redactValue(model.settings ?? { model: model.name });
  const carried: CarriedModel = { kind: MODEL_ARTIFACT_KIND, version: 1, sessionId, name: model.name, settings };
  return new TextEncoder().encode(canonicalJson(carried));
}

/** Reads and checks the model artifact a manifest names; throws with the ref when the bytes do not match. */
export async function readCarriedModel(store: SessionStore, sessionId: string, ref: string, sha256: string): Promise<CarriedModel> {
  const bytes = await store.readArtifact(sessionId, ref);
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw Object.assign(new Error(`The model settings ${ref} of session ${sessionId} hash to ${actual}, not ${sha256}.`), { code: 'VERIFY_MISMATCH' });
  const parsed = JSON.parse(new TextDecoder().decode(bytes)) as CarriedModel;
  if (parsed.kind !== MODEL_ARTIFACT_KIND || typeof parsed.name !== 'string' || typeof parsed.settings !== 'object' || parsed.settings === null) {
    throw Object.assign(new Error(`${ref} of session ${sessionId} is not a model settings artifact.`), { code: 'INVALID_MANIFEST' });
  }
  return parsed;
}

/** The target's check of `model`: the artifact named by settings_ref reads back with settings_sha256 and names the same model. */
export async function verifyModel(store: SessionStore, manifest: Manifest): Promise<FieldMismatch[]> {
  const model = manifest.model;
  if (!model || model.settings_ref === null) return [];
  const expected = model.settings_sha256 ?? null;
  if (expected === null) return [{ field: 'model.settings_sha256', expected: 'a sha256 for the model settings', actual: null }];
  try {
    const carried = await readCarriedModel(store, manifest.session_id, model.settings_ref, expected);
    return carried.name === model.name ? [] : [{ field: 'model.name', expected: model.name, actual: carried.name }];
  } catch (error) {
    return [{ field: 'model.settings_sha256', expected, actual: (error as Error).message }];
  }
}
