import { ICON_MESSAGES, iconBankGraphics, iconBankUrl, isIconBankName } from '@media/contract';

/** A bank as the page knows it: still loading, its graphics, or why it could not be loaded. */
export type IconBankState =
  | { status: 'loading' }
  | { status: 'ready'; graphics: ReadonlySet<string> }
  | { status: 'failed'; error: string };

type Fetch = (url: string) => Promise<{ ok: boolean; status: number; text: () => Promise<string> }>;

const LOADING: IconBankState = { status: 'loading' };
const states = new Map<string, IconBankState>();
const loads = new Map<string, Promise<IconBankState>>();
const listeners = new Set<() => void>();

const settle = (bank: string, state: IconBankState) => {
  states.set(bank, state);
  for (const listener of listeners) listener();
  return state;
};

const readBank = async (bank: string, fetchFile: Fetch): Promise<string[]> => {
  if (!isIconBankName(bank)) throw new Error(ICON_MESSAGES.bankNotLoaded(bank, 'not a bank name'));
  const response = await fetchFile(iconBankUrl(bank));
  if (!response.ok) throw new Error(ICON_MESSAGES.bankNotLoaded(bank, `HTTP ${response.status}`));
  return iconBankGraphics(await response.text());
};

/**
 * Loads a bank's sprite file once per page: every icon of the bank shares the one request and its answer
 * (the `<use>` elements then take the file from the browser's cache).
 */
export const loadIconBank = (
  bank: string,
  fetchFile: Fetch = (url) => fetch(url),
): Promise<IconBankState> => {
  const started = loads.get(bank);
  if (started) return started;
  const load = readBank(bank, fetchFile).then(
    (graphics) => settle(bank, { status: 'ready', graphics: new Set(graphics) }),
    (error: unknown) => settle(bank, { status: 'failed', error: ICON_MESSAGES.error(error) }),
  );
  loads.set(bank, load);
  return load;
};

export const iconBankState = (bank: string): IconBankState => states.get(bank) ?? LOADING;

export const subscribeIconBanks = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** What an icon draws: its graphic, nothing yet, or the fallback with the reason shown once. */
export type IconView =
  | { kind: 'loading' }
  | { kind: 'graphic' }
  | { kind: 'missing'; alert: string }
  | { kind: 'failed'; alert: string };

export const iconView = (state: IconBankState, bank: string, graphic: string): IconView => {
  if (state.status === 'loading') return { kind: 'loading' };
  if (state.status === 'failed') return { kind: 'failed', alert: state.error };
  return state.graphics.has(graphic)
    ? { kind: 'graphic' }
    : { kind: 'missing', alert: ICON_MESSAGES.notFound(graphic, bank) };
};

const reported = new Set<string>();

/**
 * spec3 §8: a missing graphic or a bank that did not load raises its danger alert, never removed, and an
 * unknown graphic is logged; each once per bank and graphic (or per bank for a load failure), however
 * many icons draw it.
 */
export const reportIconProblem = (
  view: IconView,
  bank: string,
  graphic: string,
  raise: (text: string) => void,
  log: (text: string) => void = (text) => console.warn(text),
) => {
  if (view.kind !== 'missing' && view.kind !== 'failed') return;
  const key = view.kind === 'missing' ? `${bank}#${graphic}` : bank;
  if (reported.has(key)) return;
  reported.add(key);
  if (view.kind === 'missing') log(ICON_MESSAGES.unknownLogged(graphic, bank));
  raise(view.alert);
};

/** Forgets every bank and every report (tests only). */
export const resetIconBanks = () => {
  states.clear();
  loads.clear();
  reported.clear();
};
