/** spec1 §9 / spec3 §9: adds 's' unless the word already ends in 's'; a count of exactly 1 keeps it singular. */
export const pluralise = (word: string, count?: number) =>
  count === 1 || word.endsWith('s') ? word : `${word}s`;

/** '1 minute', '3 minutes'. */
export const countOf = (count: number, word: string) => `${count} ${pluralise(word, count)}`;
