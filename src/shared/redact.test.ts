import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';

describe('redactSecrets', () => {
  it.each([
    ['aws key AKIAIOSFODNN7EXAMPLE here', 'aws key [REDACTED:aws-access-key] here', 'aws-access-key'],
    ['token ghp_' + 'a'.repeat(36), 'token [REDACTED:github-token]', 'github-token'],
    ['export ANTHROPIC_API_KEY=sk-ant-api03-' + 'x'.repeat(40), 'export ANTHROPIC_API_KEY=[REDACTED:anthropic-key]', 'anthropic-key'],
    ['OPENAI=sk-proj-' + 'b'.repeat(40), 'OPENAI=[REDACTED:openai-key]', 'openai-key'],
    ['curl -H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz123"', 'curl -H "Authorization: Bearer [REDACTED:bearer-token]"', 'bearer-token'],
    ['git clone https://user:hunter2@github.com/x/y', 'git clone https://[REDACTED:url-credentials]github.com/x/y', 'url-credentials'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', '[REDACTED:private-key]', 'private-key'],
    ['xoxb-1234567890-abcdef', '[REDACTED:slack-token]', 'slack-token'],
  ])('redacts %s', (input, expected, kind) => {
    const result = redactSecrets(input);
    expect(result.text).toBe(expected);
    expect(result.found[kind]).toBe(1);
  });

  it.each([
    'Run npm test and fix the failing snapshot',
    'The task-id is sk-12 and the key is short',
    'https://github.com/x/y without credentials',
    'Bearer of bad news',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactSecrets(text)).toEqual({ text, found: {} });
  });
});
