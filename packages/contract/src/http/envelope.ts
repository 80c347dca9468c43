import { z } from 'zod';
import { idTextSchema } from './input.ts';

export const errorBodySchema = z
  .object({
    error: z.object({
      message: z.string().describe('Text for the user'),
      code: z.string().describe('Stable machine-readable code'),
      fields: z.record(z.string(), z.string()).optional().describe('Per-field messages of a form'),
      data: z.unknown().optional().describe('What the client needs to answer it (notEnoughPublishData)'),
    }),
  })
  .describe('Error answer');
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const resultsOf = <T extends z.ZodType>(payload: T) => z.object({ results: payload });

export const collectionOf = <T extends z.ZodType>(item: T) =>
  z.object({
    results: z.array(item),
    total: z.number().int().describe('Number of items matching, ignoring offset and limit'),
    channel: z.string().describe('Live-update channel that announces changes to this collection'),
  });

/** The most rows one page may hold; the paginator's "All" asks for this many. */
export const MAX_PAGE_LIMIT = 10_000;

/**
 * A list whose filter can match most of a large table (the media search, the user search) counts its
 * matches exactly up to this many and beyond answers this many with `totalCapped: true` (shown as
 * "1,000+"): a broad search then reads this many matches plus one, as fast as a narrow one. Why not
 * 10,000: a name found in one node of eight needs 80,000 rows read to count 10,001, 45 ms or more on two
 * cores whichever plan, against the 20 ms a media search has (DESIGN.md).
 */
export const TOTAL_COUNT_CAP = 1_000;

export const totalCappedSchema = z
  .boolean()
  .describe(
    'true when there may be more matches than total says: total is then a lower bound (the list counts up to its cap)',
  );

export const pageQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(100),
});

export const idParamSchema = z.object({ id: idTextSchema });

export const okSchema = resultsOf(z.object({ ok: z.literal(true) }));

export { ERROR_CODES } from './error-codes.ts';

/** The message of a 503 answer when the database connection was lost (DESIGN "Persistence and faults"). */
export const MSG_DATABASE_UNAVAILABLE = 'The database is not reachable at the moment; please try again.';
