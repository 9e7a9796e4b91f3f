export { createApprovalService } from './approval-service.js';
export type { ApprovalEvent, ApprovalService, ApprovalServiceOptions } from './approval-service.js';
export { ApprovalError, isApprovalError } from './errors.js';
export { ApprovalLog, APPROVALS_FILE } from './approval-log.js';
export { toClaudeHookOutput, type ClaudeHookOutput } from './claude-hook.js';
