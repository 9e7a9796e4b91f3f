export { ApiError, ClientErrorCode, isApiError, toApiError } from './api-error';
export { createApi, createApiFromTransport, describeIssues, type CreateApiOptions } from './create-api';
export { createBridgeTransport } from './bridge-transport';
export { createWsTransport, REQUEST_TIMEOUT_MS, MAX_PENDING_REQUESTS, type WebSocketLike, type WsTransportOptions } from './ws-transport';
export { takeToken, wsUrlFor, TOKEN_STORAGE_KEY } from './token';
export { backoffDelay, RECONNECT_BASE_MS, RECONNECT_MAX_MS } from './backoff';
export type { BatonApi, ConnectionState, Transport } from './types';
export type { BatonBridge, BridgeResult } from './baton-bridge';
