import {
  INGEST_FILTER_KINDS,
  INGEST_QUEUE_MODES,
  INGEST_STATUSES,
  type IngestQueueMode,
  type IngestStatus,
} from '@media/contract';

/** The mode of a queue page address; none shows files and streams together. */
export const readMode = (value: string | null): IngestQueueMode | undefined =>
  (INGEST_QUEUE_MODES as readonly string[]).includes(value ?? '') ? (value as IngestQueueMode) : undefined;

/** `thumbsize` scales the thumbnails: 1.0 by default, kept between a quarter and four times. */
export const readThumbSize = (value: string | null) => {
  const size = Number(value ?? '1');
  return Number.isFinite(size) && size > 0 ? Math.min(4, Math.max(0.25, size)) : 1;
};

/** The `filter` query of an edge queue link ('failed|streams'): its statuses and its kinds. */
export const readFilter = (value: string | null) => {
  const tokens = (value ?? '').split('|').filter(Boolean);
  return {
    statuses: tokens.filter((t): t is IngestStatus => (INGEST_STATUSES as readonly string[]).includes(t)),
    kinds: tokens.filter((t) => (INGEST_FILTER_KINDS as readonly string[]).includes(t)),
  };
};

/** What a mode shows of the queue: files, or streams with their schedules. */
export const kindsOfMode = (mode: IngestQueueMode | undefined, fallback: string[]) =>
  mode === 'files' ? ['files'] : mode === 'streams' ? ['streams', 'schedules'] : fallback;

/** The `filters` value of a queue request: statuses OR-ed, kinds OR-ed, the two groups AND-ed. */
export const filtersValue = (statuses: readonly string[], kinds: readonly string[]) =>
  [...statuses, ...kinds].join('|');

/** Thumbnails are 16:9; streams show larger ones. */
export const thumbnailBox = (mode: IngestQueueMode | undefined, thumbSize: number) => {
  const width = Math.round((mode === 'streams' ? 128 : 64) * thumbSize);
  return { width, height: Math.round((width * 9) / 16) };
};
