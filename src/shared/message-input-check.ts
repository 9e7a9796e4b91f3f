import { codePointsWithin } from './code-points.js';
import { ARTIFACT_TEXT_REF, MESSAGE_CONTENT_MAX_CHARS, MESSAGE_ID_MAX_CHARS, MESSAGE_ROLES, SHA256_HEX, type MessageInput } from './message.js';

/**
 * message.ts's MessageInput checked by hand, for the JSON values of `baton handoff`'s input lines.
 * zod compiles a parser for each object schema on its first parse and a CLI parses with each once,
 * so the compile was most of the cost (~15 ms of a 150-message handoff's CPU at load). This check
 * only admits: a value it refuses goes to the zod schema, which stays the source of truth and
 * words the error (message-input-check.test.ts holds the two to the same verdict and the same
 * output over generated inputs). The output is built as zod builds it: the schema's keys first,
 * in the schema's order, then the unknown keys in the input's order (kept, as looseObject does;
 * an unknown "__proto__" dropped), so the stored records are byte for byte the same.
 */

/** Marks a value the check does not admit (any JSON value, null included, may be admitted). */
const REFUSED: unique symbol = Symbol('refused');
type Check = (value: unknown) => unknown;

const isString: Check = (v) => (typeof v === 'string' ? v : REFUSED);
const nonEmptyString: Check = (v) => (typeof v === 'string' && v.length > 0 ? v : REFUSED);
const matching = (re: RegExp): Check => (v) => (typeof v === 'string' && re.test(v) ? v : REFUSED);
/** z.number().int(): finite and a safe integer. */
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const nullableInt: Check = (v) => (v === null || isInt(v) ? v : REFUSED);
const nonNegativeInt: Check = (v) => (isInt(v) && v >= 0 ? v : REFUSED);
const anything: Check = (v) => v;

interface Field {
  check: Check;
  optional?: true;
}

/** z.looseObject of `fields`: every field as its check outputs it, in the fields' order, then the input's unknown keys. */
function looseObject(fields: Record<string, Field>): Check {
  const entries = Object.entries(fields);
  const known = new Set(Object.keys(fields));
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return REFUSED;
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, field] of entries) {
      // `in`, as zod asks whether a key is present (inherited keys included).
      if (!(key in input)) {
        if (field.optional) continue;
        return REFUSED;
      }
      const checked = field.check(input[key]);
      if (checked === REFUSED) return REFUSED;
      out[key] = checked;
    }
    // An own "__proto__" (JSON.parse makes one) would replace the output's prototype: zod skips it.
    for (const key in input) if (!known.has(key) && key !== '__proto__') out[key] = input[key];
    return out;
  };
}

function arrayOf(element: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return REFUSED;
    const out: unknown[] = [];
    for (const item of value) {
      const checked = element(item);
      if (checked === REFUSED) return REFUSED;
      out.push(checked);
    }
    return out;
  };
}

const fullOutput = looseObject({
  ref: { check: matching(ARTIFACT_TEXT_REF) },
  sha256: { check: matching(SHA256_HEX) },
  bytes: { check: nonNegativeInt },
  lines: { check: nonNegativeInt },
});

const toolCall = looseObject({
  id: { check: nonEmptyString },
  name: { check: nonEmptyString },
  input: { check: anything, optional: true },
  exitCode: { check: nullableInt, optional: true },
  output: { check: isString, optional: true },
  fullOutput: { check: fullOutput, optional: true },
});

const roles: ReadonlySet<unknown> = new Set(MESSAGE_ROLES);

const messageInput = looseObject({
  role: { check: (v) => (roles.has(v) ? v : REFUSED) },
  content: { check: (v) => (typeof v === 'string' && codePointsWithin(v, MESSAGE_CONTENT_MAX_CHARS) ? v : REFUSED) },
  id: { check: (v) => (typeof v === 'string' && v.length > 0 && codePointsWithin(v, MESSAGE_ID_MAX_CHARS) ? v : REFUSED), optional: true },
  createdAt: { check: isString, optional: true },
  model: { check: isString, optional: true },
  toolCalls: { check: arrayOf(toolCall), optional: true },
  toolCallId: { check: isString, optional: true },
  exitCode: { check: nullableInt, optional: true },
  fullOutput: { check: fullOutput, optional: true },
});

/** The message as MessageInput.parse would give it, or null when the hand check does not admit it (ask the zod schema then). */
export function admitMessageInput(value: unknown): MessageInput | null {
  const checked = messageInput(value);
  return checked === REFUSED ? null : (checked as MessageInput);
}
