import { PIE_RING_STROKE, ringArcPath, ringProportion } from '@media/contract';

/** The pie ring gauge: a ring filled to a proportion (capped at 0.9999), stroke 6 by default. */
export const PieRing = ({
  proportion,
  size = 32,
  stroke = PIE_RING_STROKE,
  color = 'var(--mantine-primary-color-filled)',
  label,
}: {
  proportion: number;
  size?: number;
  stroke?: number;
  color?: string;
  label: string;
}) => {
  const radius = size / 2 - stroke / 2;
  const centre = size / 2;
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={`${label}: ${Math.round(ringProportion(proportion) * 100)}%`}
    >
      <circle
        cx={centre}
        cy={centre}
        r={radius}
        fill="none"
        stroke="var(--mantine-color-default-border)"
        strokeWidth={stroke}
      />
      {ringProportion(proportion) > 0 && (
        <path
          d={ringArcPath(proportion, radius, stroke)}
          fill="none"
          stroke={color}
          strokeWidth={stroke}
          strokeLinecap="butt"
        />
      )}
    </svg>
  );
};
