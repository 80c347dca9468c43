/**
 * The total of a paged list without counting when the page itself tells it: a page shorter than its
 * limit is the last one, so the total is its offset plus its rows (unless it is empty past the start,
 * where the rows may have moved). Only a full page, or an empty one after offset 0, needs `count()`.
 */
export const pageTotal = async (
  page: { rows: number; offset: number; limit: number },
  count: () => Promise<number>,
) => (page.rows < page.limit && (page.rows > 0 || page.offset === 0) ? page.offset + page.rows : count());
