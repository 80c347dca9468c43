/**
 * spec3 §7, §8: icon sprites are static files under /furniture/img/ whose names end in -svgIcons.svg. A
 * bank is one such file; each graphic of it is a `<symbol id="…">`, drawn with `<use href="…#id">`.
 */
export const ICON_SPRITE_DIR = '/furniture/img/';
export const ICON_BANK_SUFFIX = '-svgIcons.svg';

/** The bank of the media tree's node types (folder, source, sequence, media, edl). */
export const MEDIA_ICON_BANK = 'media';
/** The bank of the product's own interface glyphs. */
export const UI_ICON_BANK = 'ui';

/** A bank's name as it may appear in a file name: letters, digits, dash and underscore. */
const BANK_NAME = /^[A-Za-z0-9_-]+$/;

export const isIconBankName = (bank: string) => BANK_NAME.test(bank);

/** '/furniture/img/{bank}-svgIcons.svg'. */
export const iconBankUrl = (bank: string) => `${ICON_SPRITE_DIR}${bank}${ICON_BANK_SUFFIX}`;

/** The reference `<use href>` draws: the bank's file and the graphic's symbol id. */
export const iconHref = (bank: string, graphic: string) => `${iconBankUrl(bank)}#${graphic}`;

/** spec1 §8, spec3 §8: both danger alerts that are never removed. */
export const ICON_MESSAGES = {
  notFound: (graphic: string, bank: string) => `Could not find icon '${graphic}' from icon bank '${bank}'`,
  error: (e: unknown) => `Error: ${e instanceof Error ? e.message : String(e)}`,
  /** The reason a bank could not be loaded, shown after 'Error: '. */
  bankNotLoaded: (bank: string, status: number | string) =>
    `Icon bank '${bank}' could not be loaded (${status})`,
  /** What the console shows, once, for a graphic a bank does not have. */
  unknownLogged: (graphic: string, bank: string) => `Unknown icon '${graphic}' in icon bank '${bank}'`,
} as const;

/** The graphics of a bank: the ids of its `<symbol>` elements, in the order they appear. */
export const iconBankGraphics = (svg: string): string[] => {
  const ids: string[] = [];
  for (const match of svg.matchAll(/<symbol\b[^>]*?\sid\s*=\s*(["'])([^"']+)\1/g)) {
    const id = match[2];
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
};
