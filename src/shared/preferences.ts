import { z } from 'zod';
import { RiskLevel } from './approvals.js';

/**
 * Client-local preferences (the design's sixth dimension): how this person's window looks and
 * behaves on this machine. Kept by each host shell — electron-store in the desktop app,
 * localStorage in the browser host — and never part of a handoff, an export or the store.
 */
/** `default` matches --sidebar-width in styles/tokens.css. */
export const SIDEBAR_WIDTH = { min: 200, max: 640, default: 360 } as const;
/** A window smaller than the app's minimum size, or absurdly large, is not restored. */
export const WINDOW_LIMITS = { minWidth: 720, minHeight: 480, max: 16_384 } as const;

export const WindowBounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(WINDOW_LIMITS.minWidth).max(WINDOW_LIMITS.max),
  height: z.number().int().min(WINDOW_LIMITS.minHeight).max(WINDOW_LIMITS.max),
  maximized: z.boolean(),
});
export type WindowBounds = z.infer<typeof WindowBounds>;

export const ThemeOverride = z.enum(['system', 'light', 'dark']);

export const NotificationPrefs = z.object({
  /** Show a system notification when an approval request arrives. */
  approvals: z.boolean(),
  /** Only requests at or above this risk level notify. */
  minimumRisk: RiskLevel,
});

export const Preferences = z.object({
  windowBounds: WindowBounds.nullable(),
  theme: ThemeOverride,
  sidebarWidth: z.number().int().min(SIDEBAR_WIDTH.min).max(SIDEBAR_WIDTH.max),
  notifications: NotificationPrefs,
  approvalSound: z.boolean(),
  /**
   * Desktop runs (issue 19) go on when the desktop app closes, marked as orphans at the next
   * start, instead of being stopped. Read by the desktop shell when it closes the host.
   */
  leaveRunsOnClose: z.boolean(),
});
export type Preferences = z.infer<typeof Preferences>;

export const DEFAULT_PREFERENCES: Preferences = {
  windowBounds: null,
  theme: 'system',
  sidebarWidth: SIDEBAR_WIDTH.default,
  notifications: { approvals: true, minimumRisk: 'low' },
  approvalSound: false,
  leaveRunsOnClose: false,
};

/** A change to some preferences; `notifications` may change one of its fields. */
export const PreferencesPatch = Preferences.omit({ notifications: true })
  .partial()
  .extend({ notifications: NotificationPrefs.partial().optional() })
  .strict();
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

export function applyPreferencesPatch(current: Preferences, patch: PreferencesPatch): Preferences {
  const { notifications, ...rest } = patch;
  const next = { ...current, ...rest, notifications: { ...current.notifications, ...notifications } };
  return Preferences.parse(next);
}

/**
 * Reads whatever was stored, field by field: a field that does not match keeps its default, so
 * one bad value (an old build, a hand edit) never costs the others. Unknown keys are dropped.
 */
export function salvagePreferences(raw: unknown): Preferences {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[]) {
    const field = Preferences.shape[key].safeParse(source[key]);
    out[key] = field.success ? field.data : DEFAULT_PREFERENCES[key];
  }
  if (typeof source.notifications === 'object' && source.notifications !== null) {
    const n = source.notifications as Record<string, unknown>;
    out.notifications = {
      approvals: typeof n.approvals === 'boolean' ? n.approvals : DEFAULT_PREFERENCES.notifications.approvals,
      minimumRisk: RiskLevel.safeParse(n.minimumRisk).data ?? DEFAULT_PREFERENCES.notifications.minimumRisk,
    };
  }
  return Preferences.parse(out);
}

/** Whether an approval request of this risk notifies, by these preferences. */
export function notifiesFor(prefs: Preferences, risk: z.infer<typeof RiskLevel>): boolean {
  const order = RiskLevel.options;
  return prefs.notifications.approvals && order.indexOf(risk) >= order.indexOf(prefs.notifications.minimumRisk);
}

/**
 * The two UI-contract channels each host shell answers itself (never the Baton core, which must
 * not store them): the renderer reads and changes preferences the same way on both hosts.
 */
export const preferenceChannels = {
  'prefs:get': { request: z.object({}), response: Preferences },
  'prefs:set': { request: PreferencesPatch, response: Preferences },
} as const;
export type ClientLocalChannel = keyof typeof preferenceChannels;
export const CLIENT_LOCAL_CHANNELS = Object.keys(preferenceChannels) as ClientLocalChannel[];

export function isClientLocalChannel(channel: unknown): channel is ClientLocalChannel {
  return typeof channel === 'string' && Object.hasOwn(preferenceChannels, channel);
}
