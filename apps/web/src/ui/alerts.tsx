import { notifications } from '@mantine/notifications';
import {
  ALERT_TOAST_MS,
  type Alert,
  type AlertType,
  addAlert,
  type NewAlert,
  removeAlert,
} from '@media/contract';
import { createStore, useStore } from './store.ts';

export const ALERT_COLORS: Record<AlertType, string> = {
  danger: 'red',
  warning: 'yellow',
  info: 'blue',
  success: 'teal',
};

const alertsStore = createStore<readonly Alert[]>([]);
const visibleToasts = new Set<string>();
let sequence = 0;

const toastMessage = (alert: Alert) => (alert.count > 1 ? `${alert.text} (×${alert.count})` : alert.text);

/**
 * Raises an alert (spec1 §4): a top-right toast for 10 s; a duplicate with the same text, type and source
 * raises the count of the one toast instead of adding another.
 */
export const showAlert = (incoming: NewAlert & { permanent?: boolean }) => {
  const { permanent: _permanent, ...fields } = incoming;
  const { alerts, alert } = addAlert(alertsStore.get(), fields, Date.now(), () => `alert-${++sequence}`);
  alertsStore.set(alerts);
  const toast = {
    id: alert.id,
    message: toastMessage(alert),
    color: ALERT_COLORS[alert.type],
    autoClose: incoming.permanent ? false : ALERT_TOAST_MS,
    withBorder: true,
    'data-alert-type': alert.type,
    onClose: () => visibleToasts.delete(alert.id),
  };
  if (visibleToasts.has(alert.id)) notifications.update(toast);
  else {
    visibleToasts.add(alert.id);
    notifications.show(toast);
  }
  return alert;
};

export const dismissAlert = (id: string) => {
  alertsStore.set(removeAlert(alertsStore.get(), id));
  notifications.hide(id);
};

export const useAlerts = () => useStore(alertsStore);
