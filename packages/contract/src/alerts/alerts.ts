export const ALERT_TYPES = ['danger', 'warning', 'info', 'success'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** spec1 §3: an alert; duplicates (same text, type and source) are merged into one with a count. */
export type Alert = {
  id: string;
  text: string;
  type: AlertType;
  count: number;
  source?: string;
  link?: string;
  created: number;
  /** When the last duplicate arrived. */
  refreshed: number;
};

/** spec1 §9 / spec3 §9: toasts last 10 s. */
export const ALERT_TOAST_MS = 10_000;
/** spec2 §9: notifications dismiss themselves after 15 s unless they carry an undo id or neverRemove. */
export const NOTIFICATION_AUTO_DISMISS_MS = 15_000;

export type NewAlert = { text: string; type: AlertType; source?: string; link?: string };

const sameAlert = (a: Alert, b: NewAlert) =>
  a.text === b.text && a.type === b.type && (a.source ?? '') === (b.source ?? '');

/** Adds an alert, or raises the count and refreshed time of its duplicate; answers the list and the alert. */
export const addAlert = (alerts: readonly Alert[], incoming: NewAlert, now: number, newId: () => string) => {
  const existing = alerts.find((a) => sameAlert(a, incoming));
  if (existing) {
    const merged: Alert = {
      ...existing,
      count: existing.count + 1,
      refreshed: now,
      link: incoming.link ?? existing.link,
    };
    return { alerts: alerts.map((a) => (a === existing ? merged : a)), alert: merged };
  }
  const alert: Alert = { ...incoming, id: newId(), count: 1, created: now, refreshed: now };
  return { alerts: [...alerts, alert], alert };
};

export const removeAlert = (alerts: readonly Alert[], id: string) => alerts.filter((a) => a.id !== id);

/** Alerts are counted by type (each merged duplicate counts). */
export const countAlertsByType = (alerts: readonly Alert[]): Record<AlertType, number> => {
  const counts: Record<AlertType, number> = { danger: 0, warning: 0, info: 0, success: 0 };
  for (const alert of alerts) counts[alert.type] += alert.count;
  return counts;
};

export type NotificationLike = { undoId?: string; neverRemove?: boolean };

/** How long a notification stays, or false when it stays until removed. */
export const notificationLifetime = (notification: NotificationLike): number | false =>
  notification.undoId || notification.neverRemove ? false : NOTIFICATION_AUTO_DISMISS_MS;
