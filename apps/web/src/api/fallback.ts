import { type AlertType, errorWhile } from '@media/contract';
import { showAlert } from '../ui/alerts.tsx';

type RaiseAlert = (alert: { text: string; type: AlertType }) => unknown;

/**
 * spec1 §8: a failed account or user-access load raises a danger alert with a message from the error, and
 * the page goes on with the empty fallback.
 */
export const loadOrEmpty = async <T>(
  load: () => Promise<T>,
  empty: T,
  activity: string,
  raise: RaiseAlert = showAlert,
): Promise<T> => {
  try {
    return await load();
  } catch (error) {
    raise({ text: errorWhile(error, activity), type: 'danger' });
    return empty;
  }
};

export const emptyCollection = <T>() => ({ results: [] as T[], total: 0, channel: '' });
