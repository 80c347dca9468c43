import {
  type AlertType,
  errorText,
  type FormValues,
  PUBLISH_MESSAGES,
  type ServerFormAction,
  serverFormActionSchema,
} from '@media/contract';
import { centredPopupFeatures, formValuesOf, type ScreenBox } from './form-state.ts';

export type ServerActionDependencies = {
  /** The shared alert (removed automatically after the toast time). */
  alert: (alert: { text: string; type: AlertType }) => void;
  openWindow: (url: string, target: string, features: string) => unknown;
  screen: ScreenBox;
  /** set-options: the new values of the form. */
  setValues: (values: FormValues) => void;
};

/** The screen the browser window is on, for centring popups. */
export const screenBox = (): ScreenBox => ({
  width: window.screen.availWidth || window.innerWidth,
  height: window.screen.availHeight || window.innerHeight,
  left: (window.screen as Screen & { availLeft?: number }).availLeft ?? 0,
  top: (window.screen as Screen & { availTop?: number }).availTop ?? 0,
});

/** spec3 §4 Server form actions: open-url, set-options, display-message (danger unless told), none. */
export const applyServerAction = (answer: unknown, values: FormValues, deps: ServerActionDependencies) => {
  const parsed = serverFormActionSchema.safeParse(answer);
  if (!parsed.success) {
    const name = (answer as { action?: unknown } | null)?.action;
    deps.alert({ text: PUBLISH_MESSAGES.unexpectedAction(String(name ?? '')), type: 'danger' });
    return;
  }
  const result: ServerFormAction = parsed.data;
  if (result.action === 'open-url') deps.openWindow(result.url, '_blank', centredPopupFeatures(deps.screen));
  else if (result.action === 'set-options') deps.setValues({ ...values, ...formValuesOf(result.options) });
  else if (result.action === 'display-message') deps.alert({ text: result.message, type: result.type });
};

/** An Error's message (the API client's already reads 'message (code)'), else the error text rule. */
export const reasonOf = (error: unknown) =>
  error instanceof Error && error.message !== '' ? error.message : errorText(error);

/** Runs a button field's action; a failure reads 'Unable to perform action "{action}" - {reason}'. */
export const runServerAction = async (
  action: string,
  values: FormValues,
  perform: (action: string, values: FormValues) => Promise<unknown>,
  deps: ServerActionDependencies,
) => {
  let answer: unknown;
  try {
    answer = await perform(action, values);
  } catch (error) {
    deps.alert({ text: PUBLISH_MESSAGES.actionFailed(action, reasonOf(error)), type: 'danger' });
    return;
  }
  applyServerAction(answer, values, deps);
};
