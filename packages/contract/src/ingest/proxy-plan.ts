import {
  ASPECTS,
  type Aspect,
  DEFAULT_MAX_INGEST_RESOLUTION,
  FRAME_RATE_STANDARDS,
  NEW_INGEST_FORMAT,
  packIngestFormat,
  resolutionsFor,
  unpackIngestFormat,
} from '../config/ingest-formats.ts';

/**
 * How a proxy is made from a source (DESIGN "Media"; spec1 §5 ingest formats): which ingest format applies,
 * and the proxy's size, frame rate and padding. Pure rules, shared by the edge agent and the cloud's jobs.
 */

/**
 * The proxy's geometry: `width`x`height` frames at `fps`, the picture scaled into `contentWidth`x`contentHeight`
 * and centred (padding fills the rest, keeping the format's aspect). All sizes even.
 */
export type ProxyPlan = {
  width: number;
  height: number;
  contentWidth: number;
  contentHeight: number;
  fps: number;
};

/** Lines of a 'standard' proxy: 360 for landscape frames, 640 for tall ones (spec1 §5 portrait resolution). */
export const STANDARD_PROXY_LINES = { landscape: 360, tall: 640 } as const;

const usable = (stored: string | null | undefined) =>
  stored != null && stored.trim() !== '' && unpackIngestFormat(stored).exact;

/**
 * The ingest format that applies (a stored string such as 'PAL_wide_720'): the endpoint workflow's, else the
 * arrivals folder's ingestFormat option, else the account's first ingest format, else a new row's default
 * (PAL, wide, standard). Empty or unknown entries are skipped.
 */
export const resolveIngestFormat = (chain: {
  workflow?: string | null;
  arrivalsFolder?: string | null;
  account: readonly string[];
}): string => {
  const found = [chain.workflow, chain.arrivalsFolder, ...chain.account].find(usable);
  return packIngestFormat(found ? unpackIngestFormat(found).format : NEW_INGEST_FORMAT);
};

/**
 * The ingest format of a web upload's proxy (spec1 upload options): the format the user chose, else the
 * account's first; the aspect the user chose replaces the format's own.
 */
export const uploadIngestFormat = (choice: {
  format?: string | null;
  aspect?: Aspect | null;
  account: readonly string[];
}): string => {
  const { format } = unpackIngestFormat(
    resolveIngestFormat({ workflow: choice.format, account: choice.account }),
  );
  if (!choice.aspect || choice.aspect === format.aspect) return packIngestFormat(format);
  // A resolution of landscape frames means nothing for tall ones (and back): the standard one then.
  const resolution = resolutionsFor(choice.aspect).includes(format.resolution)
    ? format.resolution
    : 'standard';
  return packIngestFormat({ ...format, aspect: choice.aspect, resolution });
};

/** The account's max ingest resolution from its max video ('640x360' -> 640); spec1 §5's default 640 otherwise. */
export const maxIngestResolutionOf = (maxVideo: string | null | undefined): number => {
  const numbers = (maxVideo ?? '').match(/\d+/g)?.map(Number) ?? [];
  const largest = Math.max(0, ...numbers);
  return largest > 0 ? largest : DEFAULT_MAX_INGEST_RESOLUTION;
};

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
const ratioOf = (aspect: Aspect) => {
  const [w, h] = ASPECTS[aspect].split(':').map(Number) as [number, number];
  return w / h;
};

/**
 * The proxy of a source of `source` size (null: audio only) in `format`: 'standard' resolution is 360 lines
 * (landscape) or 640 (tall); a numeric one is that many lines; never taller than the source nor than
 * `maxResolution`; the frame has the format's aspect and the picture keeps its own (padded).
 */
export const proxyPlan = (
  source: { width: number; height: number } | null,
  format: string,
  maxResolution: number,
): ProxyPlan => {
  const { format: unpacked } = unpackIngestFormat(format);
  const fps = FRAME_RATE_STANDARDS[unpacked.standard];
  const tall = unpacked.aspect === 'tall';
  const wanted =
    unpacked.resolution === 'standard'
      ? STANDARD_PROXY_LINES[tall ? 'tall' : 'landscape']
      : Number(unpacked.resolution);
  const lines = Math.min(wanted, Math.max(2, maxResolution), source ? Math.max(2, source.height) : wanted);
  const height = even(lines);
  const width = even(height * ratioOf(unpacked.aspect));
  if (!source || source.width <= 0 || source.height <= 0)
    return { width, height, contentWidth: width, contentHeight: height, fps };
  // The picture keeps its own aspect inside the frame: as wide as fits, or as tall as fits.
  const pictureRatio = source.width / source.height;
  const fitsByWidth = pictureRatio >= width / height;
  const contentWidth = fitsByWidth ? width : Math.min(width, even(height * pictureRatio));
  const contentHeight = fitsByWidth ? Math.min(height, even(width / pictureRatio)) : height;
  return { width, height, contentWidth, contentHeight, fps };
};
