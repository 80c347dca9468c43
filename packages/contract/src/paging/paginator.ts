/** spec1 §9 / spec3 §9: page sizes offered, plus All (unless hidden). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
/** The "All" choice: one page holding every item. */
export const PAGE_SIZE_ALL = 0;

export type PageWindow = { startIndex: number; pageSize: number };

export type PageInfo = {
  /** 1-based page number and count; at least 1 page even when empty. */
  page: number;
  pageCount: number;
  /** 1-based first and last item shown; 0 and 0 when there are none. */
  from: number;
  to: number;
  text: string;
};

const effectiveSize = (pageSize: number, total: number) =>
  pageSize === PAGE_SIZE_ALL ? Math.max(total, 1) : pageSize;

export const pageInfo = ({ startIndex, pageSize }: PageWindow, total: number): PageInfo => {
  const size = effectiveSize(pageSize, total);
  const pageCount = Math.max(1, Math.ceil(total / size));
  const page = Math.min(pageCount, Math.floor(Math.max(0, startIndex) / size) + 1);
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  const to = Math.min(total, page * size);
  return { page, pageCount, from, to, text: total === 0 ? '0 of 0' : `${from}–${to} of ${total}` };
};

/** The window of a 1-based page, clamped to the pages that exist. */
export const windowOfPage = (page: number, pageSize: number, total: number): PageWindow => {
  const size = effectiveSize(pageSize, total);
  const pageCount = Math.max(1, Math.ceil(total / size));
  const clamped = Math.min(Math.max(1, Math.trunc(page)), pageCount);
  return { startIndex: (clamped - 1) * size, pageSize };
};

/** Changing the page size keeps the first item shown on the new page. */
export const windowForPageSize = (current: PageWindow, pageSize: number): PageWindow => {
  if (pageSize === PAGE_SIZE_ALL) return { startIndex: 0, pageSize };
  const first = Math.max(0, current.startIndex);
  return { startIndex: Math.floor(first / pageSize) * pageSize, pageSize: Math.max(1, pageSize) };
};
