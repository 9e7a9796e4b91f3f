import type { UiChannel, UiEvent, UiEventPayload, UiRequest, UiResponse } from '../../../shared/ui-contract';

/** How the renderer is connected to its host; the connection banner shows anything but "connected". */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'connected' }
  /** `connectedBefore` false: the host never answered on this address (not running, or a wrong address). */
  | { status: 'reconnecting'; attempt: number; retryInMs: number; connectedBefore: boolean }
  | { status: 'no-token' }
  | { status: 'closed' };

/**
 * What a host transport must do: carry raw requests and events. It does not validate: the API
 * layer above it checks every answer against the contract, whatever the transport.
 */
export interface Transport {
  readonly kind: 'electron' | 'browser';
  /** Resolves with the host's raw answer (expected: {ok, value} | {ok: false, error}); rejects with ApiError. */
  request(channel: string, payload: unknown): Promise<unknown>;
  /** Listens to one host event by name; returns the function that stops listening. */
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
  connection(): ConnectionState;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

/** The renderer's only way to talk to a host. */
export interface BatonApi {
  readonly kind: 'electron' | 'browser';
  /** Resolves with the validated answer; throws ApiError (host code, or a ClientErrorCode). */
  invoke<C extends UiChannel>(channel: C, payload: UiRequest<C>): Promise<UiResponse<C>>;
  /** Listens to a host event; payloads that do not match the contract are dropped with a warning. */
  on<E extends UiEvent>(event: E, listener: (payload: UiEventPayload<E>) => void): () => void;
  connection(): ConnectionState;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}
