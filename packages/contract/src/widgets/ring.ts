/** spec3 §9: the pie ring's proportion is capped at 0.9999 (a full circle would not draw), stroke 6. */
export const PIE_RING_MAX_PROPORTION = 0.9999;
export const PIE_RING_STROKE = 6;

export const ringProportion = (value: number) =>
  Number.isFinite(value) ? Math.min(PIE_RING_MAX_PROPORTION, Math.max(0, value)) : 0;

/** The SVG arc of a ring of the given radius centred in a square of 2 × (radius + stroke / 2). */
export const ringArcPath = (proportion: number, radius: number, stroke = PIE_RING_STROKE) => {
  const p = ringProportion(proportion);
  const centre = radius + stroke / 2;
  const angle = p * 2 * Math.PI;
  const x = centre + radius * Math.sin(angle);
  const y = centre - radius * Math.cos(angle);
  const largeArc = p > 0.5 ? 1 : 0;
  return `M ${centre} ${centre - radius} A ${radius} ${radius} 0 ${largeArc} 1 ${x.toFixed(3)} ${y.toFixed(3)}`;
};
