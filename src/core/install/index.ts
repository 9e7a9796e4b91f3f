export { INSTALL_AGENTS, resolveInstallTarget, InstallTargetError, type InstallAgent, type InstallScope, type InstallTarget } from './targets.js';
export { planInstall, planUninstall, planDiff, applyInstall, applyUninstall, InstallConflictError, commandText, type InstallPlan } from './install.js';
export { SettingsError, BATON_HOOK_COMMAND } from './claude-hook-entry.js';
export { CLAUDE_HANDOFF_LINE, CLAUDE_FALLBACK_LINE, CODEX_HANDOFF_LINE } from './command-files.js';
