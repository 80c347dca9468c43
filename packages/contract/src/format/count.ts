/** A count as the tables show it: '1,234'; a capped count (a lower bound) gets a '+': '10,000+'. */
export const formatCount = (count: number, capped = false) =>
  `${count.toLocaleString('en-GB')}${capped ? '+' : ''}`;
