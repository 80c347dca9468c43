import { ActionIcon, Group, NativeSelect, Text } from '@mantine/core';
import {
  PAGE_SIZE_ALL,
  PAGE_SIZES,
  type PageWindow,
  pageInfo,
  windowForPageSize,
  windowOfPage,
} from '@media/contract';

type PaginatorProps = {
  total: number;
  window: PageWindow;
  /** Emits the new startIndex and pageSize. */
  onChange: (window: PageWindow) => void;
  /** Hide the "All" page size. */
  hideAll?: boolean;
  label?: string;
};

/** Items per page, range text, first / previous / page select / next / last (spec1 §2). */
export const Paginator = ({ total, window, onChange, hideAll, label = 'Items per page' }: PaginatorProps) => {
  const info = pageInfo(window, total);
  const sizes = [...PAGE_SIZES.map(String), ...(hideAll ? [] : ['All'])];
  const go = (page: number) => onChange(windowOfPage(page, window.pageSize, total));
  const atStart = info.page <= 1;
  const atEnd = info.page >= info.pageCount;
  return (
    <Group gap="sm" justify="flex-end" wrap="wrap" role="navigation" aria-label="Pagination">
      <NativeSelect
        aria-label={label}
        size="xs"
        data={sizes}
        value={window.pageSize === PAGE_SIZE_ALL ? 'All' : String(window.pageSize)}
        onChange={(e) => {
          const value = e.currentTarget.value;
          onChange(windowForPageSize(window, value === 'All' ? PAGE_SIZE_ALL : Number(value)));
        }}
      />
      <Text size="sm" data-testid="paginator-range">
        {info.text}
      </Text>
      <Group gap={4}>
        <ActionIcon
          variant="default"
          size="sm"
          aria-label="First page"
          disabled={atStart}
          onClick={() => go(1)}
        >
          «
        </ActionIcon>
        <ActionIcon
          variant="default"
          size="sm"
          aria-label="Previous page"
          disabled={atStart}
          onClick={() => go(info.page - 1)}
        >
          ‹
        </ActionIcon>
        <NativeSelect
          aria-label="Page"
          size="xs"
          data={Array.from({ length: info.pageCount }, (_, i) => String(i + 1))}
          value={String(info.page)}
          onChange={(e) => go(Number(e.currentTarget.value))}
        />
        <ActionIcon
          variant="default"
          size="sm"
          aria-label="Next page"
          disabled={atEnd}
          onClick={() => go(info.page + 1)}
        >
          ›
        </ActionIcon>
        <ActionIcon
          variant="default"
          size="sm"
          aria-label="Last page"
          disabled={atEnd}
          onClick={() => go(info.pageCount)}
        >
          »
        </ActionIcon>
      </Group>
    </Group>
  );
};
