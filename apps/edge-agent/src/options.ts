/** A positive number option (they travel as text), or the fallback when it is missing or not a number. */
export const positive = (value: unknown, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
