import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../hash.js';
import { redactValue } from '../redact/redact-value.js';
import { claudeModelSettings } from './claude-model.js';
import { importedModel } from './imported-model.js';
import { readAgentSession } from './read-session.js';
import { SETTINGS_MAX_BYTES } from './settings-file.js';

/** Model configuration of imported sessions, from the REAL sample logs (read in place) and real settings files in temp dirs. */
const SAMPLES = join(resolve(import.meta.dirname, '../../..'), '..', 'shared', 'fixtures', 'agent-logs');
let tmp: string;
let configDir: string;
let project: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'baton-imported-model-'));
  configDir = join(tmp, 'claude-config');
  project = join(tmp, 'project');
  await mkdir(configDir);
  await mkdir(join(project, '.claude'), { recursive: true });
});
afterEach(async () => rm(tmp, { recursive: true, force: true }));

describe('Claude Code: transcript model and version, settings model/outputStyle, CLAUDE.md by hash', () => {
  it('takes only model and outputStyle (the most specific file wins), never env values; CLAUDE.md by path and sha256', async () => {
    const secret = 'sk-ant-api03-' + 'A'.repeat(93) + 'AA';
    await writeFile(join(configDir, 'settings.json'), JSON.stringify({ model: 'opus', outputStyle: 'Explanatory', env: { ANTHROPIC_API_KEY: secret }, apiKeyHelper: '/bin/key' }));
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ model: 'sonnet' }));
    const claudeMd = '# Project rules\nAlways run npm test.\n';
    await writeFile(join(project, 'CLAUDE.md'), claudeMd);
    const settings = await claudeModelSettings({ model: 'claude-opus-4-6', cliVersion: '2.1.39', cwd: project, env: { CLAUDE_CONFIG_DIR: configDir } });
    expect(settings).toEqual({
      sourceTool: 'claude',
      model: 'claude-opus-4-6',
      clientVersion: '2.1.39',
      settingsModel: 'sonnet',
      outputStyle: 'Explanatory',
      instructions: [{ ref: join(project, 'CLAUDE.md'), sha256: sha256Hex(claudeMd), bytes: Buffer.byteLength(claudeMd) }],
      sources: [{ path: join(configDir, 'settings.json') }, { path: join(project, '.claude', 'settings.json') }],
    });
    const text = JSON.stringify(settings);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('apiKeyHelper');
    expect(text).not.toContain('Always run npm test');
  });

  it('broken, oversized and non-object settings are named in sources, not fatal; an over-long value is not taken', async () => {
    await writeFile(join(configDir, 'settings.json'), '{"model": "opus"'); // torn
    await writeFile(join(project, '.claude', 'settings.json'), 'x'.repeat(SETTINGS_MAX_BYTES + 1));
    await writeFile(join(project, '.claude', 'settings.local.json'), JSON.stringify({ model: 'm'.repeat(500), outputStyle: 42 }));
    await mkdir(join(project, 'CLAUDE.md')); // a directory, not a file
    const settings = await claudeModelSettings({ model: 'claude-opus-4-6', cliVersion: null, cwd: project, env: { CLAUDE_CONFIG_DIR: configDir } });
    expect(settings.settingsModel).toBeUndefined();
    expect(settings.outputStyle).toBeUndefined();
    expect(settings.clientVersion).toBeUndefined();
    expect(settings.instructions).toEqual([]);
    expect(settings.sources).toEqual([
      { path: join(configDir, 'settings.json'), error: expect.stringMatching(/^not JSON/) },
      { path: join(project, '.claude', 'settings.json'), error: expect.stringContaining('not read') },
      { path: join(project, '.claude', 'settings.local.json') },
      { path: join(project, 'CLAUDE.md'), error: 'not a regular file' },
    ]);
  });

  it('the real sample transcript: the last assistant model and the Claude Code version', async () => {
    const lines = readFileSync(join(SAMPLES, 'claude-code-session.sample.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const lastModel = lines.filter((l) => l.type === 'assistant').map((l) => (l.message as { model?: string }).model).filter((m) => m && m !== '<synthetic>').at(-1);
    const version = lines.map((l) => l.version).filter((v) => typeof v === 'string').at(-1);
    const imported = await readAgentSession('claude', join(SAMPLES, 'claude-code-session.sample.jsonl'));
    const model = await importedModel({ ...imported, cwd: project }, { CLAUDE_CONFIG_DIR: configDir });
    expect(model).toMatchObject({ name: lastModel, settings: { sourceTool: 'claude', model: lastModel, clientVersion: version, instructions: [] } });
  });
});

describe('Codex: session_meta and the last turn_context', () => {
  it('the real sample rollout: model, reasoning effort, cli_version; instructions only as hashes', async () => {
    const path = join(SAMPLES, 'codex-rollout.sample.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
    const meta = lines.find((l) => l.type === 'session_meta')!.payload;
    const turnIndex = lines.map((l) => l.type).lastIndexOf('turn_context');
    const turn = lines[turnIndex]!.payload;
    const imported = await readAgentSession('codex', path);
    const model = await importedModel(imported);
    expect(model?.name).toBe(turn.model);
    expect(model?.settings).toMatchObject({ sourceTool: 'codex', model: turn.model, clientVersion: meta.cli_version, reasoningEffort: turn.effort, personality: turn.personality });
    const baseText = (meta.base_instructions as { text: string }).text;
    expect(model?.settings.instructions).toEqual(
      expect.arrayContaining([
        { ref: `${path}:1#base_instructions`, sha256: sha256Hex(baseText), bytes: Buffer.byteLength(baseText) },
        { ref: `${path}:${turnIndex + 1}#user_instructions`, sha256: sha256Hex(String(turn.user_instructions)), bytes: Buffer.byteLength(String(turn.user_instructions)) },
        { ref: `${path}:${turnIndex + 1}#developer_instructions`, sha256: sha256Hex(String(turn.developer_instructions)), bytes: Buffer.byteLength(String(turn.developer_instructions)) },
      ]),
    );
    const text = JSON.stringify(model);
    expect(text).not.toContain(baseText);
    expect(text).not.toContain(String(turn.user_instructions));
  });

  it('a rollout without turn_context carries no model', async () => {
    const file = join(tmp, 'rollout-2026-01-01T00-00-00-019c8a4c-ed82-79a1-aa28-7738fc5ab61b.jsonl');
    await writeFile(file, `${JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: '019c8a4c-ed82-79a1-aa28-7738fc5ab61b', cwd: project, cli_version: '0.1.0' } })}\n${JSON.stringify({ timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] } })}\n`);
    const imported = await readAgentSession('codex', file);
    expect(imported.codexModel).toBeNull();
    expect(await importedModel(imported)).toBeNull();
  });
});

it('what is kept goes through the redactor: a token in a setting value is removed before it is written', async () => {
  const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
  await writeFile(join(configDir, 'settings.json'), JSON.stringify({ outputStyle: `style-${token}` }));
  const settings = await claudeModelSettings({ model: 'm', cliVersion: null, cwd: null, env: { CLAUDE_CONFIG_DIR: configDir } });
  const { value, found } = await redactValue(settings);
  expect(JSON.stringify(value)).not.toContain(token);
  expect(Object.values(found).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
});
