// Plain constants, apart from the zod schemas, so the web shell can import them without zod.

/** Carries the API version ingest and node calls ask for. */
export const API_VERSION_HEADER = 'X-Api-Version';

/** Every successful answer is `{ results }`; the web client unwraps it unless it sends this header. */
export const RAW_RESPONSE_HEADER = 'X-Raw-Response';
