/** The results envelope of DESIGN.md; handlers return these so the shape lives in one place. */
export const results = <T>(payload: T) => ({ results: payload });

export const collection = <T>(items: T[], total: number, channel: string) => ({
  results: items,
  total,
  channel,
});
