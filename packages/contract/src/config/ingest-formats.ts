import { z } from 'zod';

/** spec1 §5: frame-rate standards with their rates; the key is what the stored string holds. */
export const FRAME_RATE_STANDARDS = {
  PAL: 25,
  NTSC: 30,
  FILM: 24,
  '29.97': 29.97,
  '23.976': 23.976,
  '50': 50,
  '59.94': 59.94,
  '60': 60,
} as const;
export type FrameRateStandard = keyof typeof FRAME_RATE_STANDARDS;
/** The order the choices are offered in (object keys that look like integers would sort first). */
export const FRAME_RATE_STANDARD_ORDER: readonly FrameRateStandard[] = [
  'PAL',
  'NTSC',
  'FILM',
  '29.97',
  '23.976',
  '50',
  '59.94',
  '60',
];

export const ASPECTS = { wide: '16:9', normal: '4:3', tall: '9:16' } as const;
export type Aspect = keyof typeof ASPECTS;

export const LANDSCAPE_RESOLUTIONS = ['standard', '360', '540', '720', '1080'] as const;
export const PORTRAIT_RESOLUTIONS = ['standard', '640'] as const;
export type ProxyResolution = (typeof LANDSCAPE_RESOLUTIONS)[number] | (typeof PORTRAIT_RESOLUTIONS)[number];

/** spec1 §5: the max ingest resolution input defaults to 640; higher resolutions are not offered. */
export const DEFAULT_MAX_INGEST_RESOLUTION = 640;
export const INGEST_FORMATS_MAX = 50;

export type IngestFormat = { standard: FrameRateStandard; aspect: Aspect; resolution: ProxyResolution };
export const NEW_INGEST_FORMAT: IngestFormat = { standard: 'PAL', aspect: 'wide', resolution: 'standard' };

export const MSG_INGEST_FORMATS_SAVED = 'Ingest Formats data has been saved successfully';
export const MSG_INGEST_FORMAT_UNKNOWN = (format: string) => `Unknown ingest format: ${format}`;
export const MSG_INGEST_FORMAT_REPEATED = (format: string) => `Ingest format repeated: ${format}`;

export const resolutionsFor = (aspect: Aspect): readonly ProxyResolution[] =>
  aspect === 'tall' ? PORTRAIT_RESOLUTIONS : LANDSCAPE_RESOLUTIONS;

/** The resolutions offered for an aspect under the max ingest resolution ('standard' always is). */
export const offeredResolutions = (aspect: Aspect, maxResolution = DEFAULT_MAX_INGEST_RESOLUTION) =>
  resolutionsFor(aspect).filter((r) => r === 'standard' || Number(r) <= maxResolution);

const isStandard = (value: string): value is FrameRateStandard => Object.hasOwn(FRAME_RATE_STANDARDS, value);
const isAspect = (value: string): value is Aspect => Object.hasOwn(ASPECTS, value);

/** `standard_aspect`, with `_resolution` only when the resolution is not standard. */
export const packIngestFormat = ({ standard, aspect, resolution }: IngestFormat) =>
  resolution === 'standard' ? `${standard}_${aspect}` : `${standard}_${aspect}_${resolution}`;

/**
 * Reads a stored string; a trailing x or p on the resolution is tolerated. `exact` says whether every
 * part was known: unknown parts fall back to the defaults of a new row.
 */
export const unpackIngestFormat = (stored: string): { format: IngestFormat; exact: boolean } => {
  const [standard = '', aspect = '', resolution = 'standard', ...rest] = stored.trim().split('_');
  const knownStandard = isStandard(standard);
  const knownAspect = isAspect(aspect);
  const format: IngestFormat = {
    standard: knownStandard ? standard : NEW_INGEST_FORMAT.standard,
    aspect: knownAspect ? aspect : NEW_INGEST_FORMAT.aspect,
    resolution: 'standard',
  };
  const bare = resolution.replace(/[xp]$/i, '');
  const knownResolution = (resolutionsFor(format.aspect) as readonly string[]).includes(bare);
  if (knownResolution) format.resolution = bare as ProxyResolution;
  return { format, exact: knownStandard && knownAspect && knownResolution && rest.length === 0 };
};

export const ingestFormatLabel = ({ standard, aspect, resolution }: IngestFormat) =>
  `${standard} (${FRAME_RATE_STANDARDS[standard]} fps), ${aspect} (${ASPECTS[aspect]}), ${resolution === 'standard' ? 'standard' : `${resolution}p`}`;

/** GET answers and POST sends the stored strings; POST answers them normalised (trailing x or p dropped). */
export const ingestFormatsSchema = z.array(z.string().trim().min(1).max(40)).max(INGEST_FORMATS_MAX, {
  error: `At most ${INGEST_FORMATS_MAX} ingest formats`,
});

/** Why a list cannot be saved: an unknown or repeated entry (spec strings, normalised). */
export const ingestFormatsProblem = (formats: readonly string[]): string | undefined => {
  const seen = new Set<string>();
  for (const stored of formats) {
    const { format, exact } = unpackIngestFormat(stored);
    if (!exact) return MSG_INGEST_FORMAT_UNKNOWN(stored);
    const packed = packIngestFormat(format);
    if (seen.has(packed)) return MSG_INGEST_FORMAT_REPEATED(packed);
    seen.add(packed);
  }
  return undefined;
};
