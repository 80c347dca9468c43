/**
 * How a proxy is made from a source (DESIGN "Media"; spec1 §5 ingest formats): which ingest format applies,
 * and the proxy's size, frame rate and padding. Pure rules, shared by the edge agent and the cloud's jobs.
 */

/** The proxy's geometry: `width`x`height` frames at `fps`, the picture scaled into `contentWidth`x`contentHeight` and centred (padding fills the rest, keeping the format's aspect). All even. */
export type ProxyPlan = {
  width: number;
  height: number;
  contentWidth: number;
  contentHeight: number;
  fps: number;
};

/**
 * The ingest format that applies (a stored string such as 'PAL_wide_720'): the endpoint workflow's, else the
 * arrivals folder's ingestFormat option, else the account's first ingest format, else a new row's default
 * (PAL, wide, standard). Empty or unknown entries are skipped.
 */
export declare const resolveIngestFormat: (chain: {
  workflow?: string | null;
  arrivalsFolder?: string | null;
  account: readonly string[];
}) => string;

/** The account's max ingest resolution from its max video ('640x360' -> 640); spec1 §5's default 640 otherwise. */
export declare const maxIngestResolutionOf: (maxVideo: string | null | undefined) => number;

/**
 * The proxy of a source of `source` size (null: audio only) in `format`: 'standard' resolution is 360 lines
 * (landscape) or 640 (tall); a numeric one is that many lines; never taller than the source nor than
 * `maxResolution`; the frame has the format's aspect and the picture keeps its own (padded).
 */
export declare const proxyPlan: (
  source: { width: number; height: number } | null,
  format: string,
  maxResolution: number,
) => ProxyPlan;
