import type { DisplayType } from '@media/contract';

/** Outline icons drawn inline: the page must not depend on an emoji font being installed. */
const PATHS: Record<DisplayType, string> = {
  folder:
    'M3 6.5A1.5 1.5 0 0 1 4.5 5h4l2 2h9A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z',
  source: 'M4 5h16v14H4zM4 9h16M4 15h16M8 5v4M8 15v4M16 5v4M16 15v4',
  sequence: 'M4 8h12v11H4zM7 5h13v11M10 12l3 2-3 2z',
};

export const NodeIcon = ({ type, size = 16 }: { type: DisplayType; size?: number }) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.6}
    strokeLinejoin="round"
    aria-hidden
    style={{ flexShrink: 0, verticalAlign: 'middle' }}
  >
    <path d={PATHS[type]} />
  </svg>
);
