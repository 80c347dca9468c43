import { iconHref } from '@media/contract';
import { type CSSProperties, useEffect, useSyncExternalStore } from 'react';
import { showAlert } from './alerts.tsx';
import {
  iconBankState,
  iconView,
  loadIconBank,
  reportIconProblem,
  subscribeIconBanks,
} from './icon-banks.ts';

type Props = {
  /** The bank: the sprite file /furniture/img/{bank}-svgIcons.svg. */
  bank: string;
  /** The graphic: a `<symbol id>` of the bank. */
  graphic: string;
  size?: number;
};

const style: CSSProperties = { flexShrink: 0, verticalAlign: 'middle' };

/** Drawn when the graphic or its bank cannot be: a question mark in a square, inline so it needs no file. */
const FALLBACK_PATH = 'M4 4h16v16H4zM9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 16.5v.5';

const raiseNeverRemoved = (text: string) => {
  showAlert({ type: 'danger', text, source: 'icons', permanent: true });
};

/**
 * An icon from a sprite bank (spec3 §7, §8): the bank is loaded once per page and the graphic drawn with
 * `<use>`; a graphic the bank does not have, or a bank that does not load, draws a fallback and raises its
 * danger alert (never removed) once. Icons are drawn beside the text that names them, so assistive tech
 * skips them.
 */
export const SpriteIcon = ({ bank, graphic, size = 16 }: Props) => {
  const state = useSyncExternalStore(
    subscribeIconBanks,
    () => iconBankState(bank),
    () => iconBankState(bank),
  );
  const view = iconView(state, bank, graphic);
  useEffect(() => {
    void loadIconBank(bank);
  }, [bank]);
  useEffect(() => {
    reportIconProblem(iconView(state, bank, graphic), bank, graphic, raiseNeverRemoved);
  }, [state, bank, graphic]);

  if (view.kind === 'missing' || view.kind === 'failed')
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.6}
        strokeLinecap="round"
        strokeLinejoin="round"
        style={style}
        data-icon-fallback={`${bank}#${graphic}`}
        aria-hidden
      >
        <path d={FALLBACK_PATH} />
      </svg>
    );
  return (
    <svg width={size} height={size} style={style} data-icon={`${bank}#${graphic}`} aria-hidden>
      {view.kind === 'graphic' && <use href={iconHref(bank, graphic)} />}
    </svg>
  );
};
