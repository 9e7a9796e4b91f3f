import type { RiskLevel, RiskReason } from '../../shared/approvals.js';

/** The reasons found for one call, without duplicates. */
export class Findings {
  readonly reasons: RiskReason[] = [];
  add(level: RiskLevel, rule: string, message: string): void {
    if (!this.reasons.some((r) => r.rule === rule && r.message === message)) this.reasons.push({ rule, level, message });
  }
}

export const LEVEL_ORDER: Readonly<Record<RiskLevel, number>> = { low: 0, medium: 1, high: 2 };

export function maxLevel(reasons: readonly RiskReason[]): RiskLevel {
  return reasons.reduce<RiskLevel>((acc, r) => (LEVEL_ORDER[r.level] > LEVEL_ORDER[acc] ? r.level : acc), 'low');
}
