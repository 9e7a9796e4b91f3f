import type { SessionDoc } from '../../../../shared/session';

/** A short string setting of the carried model configuration (settings are untyped in session.json). */
function text(settings: Record<string, unknown>, key: string): string | null {
  const value = settings[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

interface InstructionRef {
  ref: string;
  sha256: string;
}

function instructionsOf(settings: Record<string, unknown>): InstructionRef[] {
  const list = settings.instructions;
  if (!Array.isArray(list)) return [];
  return list.filter((i): i is InstructionRef => typeof i === 'object' && i !== null && typeof (i as InstructionRef).ref === 'string' && typeof (i as InstructionRef).sha256 === 'string');
}

const FIELDS = [
  ['clientVersion', 'Client version'],
  ['settingsModel', 'Settings model'],
  ['outputStyle', 'Output style'],
  ['reasoningEffort', 'Reasoning effort'],
  ['reasoningSummary', 'Reasoning summary'],
  ['personality', 'Personality'],
] as const;

/**
 * The model and configuration the session carried (ARCHITECTURE.md §1 "model & config"): the
 * model, the listed settings, and the instruction files in force by path and hash (never content).
 */
export function CarriedModel({ model }: { model: SessionDoc['model'] }) {
  if (model === null) return null;
  const settings = model.settings ?? {};
  const fields = FIELDS.map(([key, label]) => [label, text(settings, key)] as const).filter(([, value]) => value !== null);
  const instructions = instructionsOf(settings);
  return (
    <section className="carried-model" aria-labelledby="carried-model-title" data-testid="carried-model">
      <h2 id="carried-model-title" className="section-title">
        Model
      </h2>
      <p>
        <code data-testid="carried-model-name">{model.name}</code>
        {text(settings, 'sourceTool') !== null && <span className="muted"> (from {text(settings, 'sourceTool')})</span>}
      </p>
      {fields.length > 0 && (
        <dl className="facts">
          {fields.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {instructions.length > 0 && (
        <ul className="rule-list" data-testid="carried-instructions">
          {instructions.map((i) => (
            <li key={i.ref}>
              Instructions <code>{i.ref}</code> <code title={i.sha256}>{i.sha256.slice(0, 12)}</code>
            </li>
          ))}
        </ul>
      )}
      {model.settingsSha256 !== undefined && (
        <p className="muted">
          Settings artifact <code title={model.settingsSha256}>{model.settingsSha256.slice(0, 12)}</code>
        </p>
      )}
    </section>
  );
}
