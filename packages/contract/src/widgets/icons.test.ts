import { describe, expect, it } from 'vitest';
import { ICON_MESSAGES, iconBankGraphics, iconBankUrl, iconHref, isIconBankName } from './icons.ts';

describe('icon sprites (spec3 §7, §8)', () => {
  it('are static files under /furniture/img/ whose names end in -svgIcons.svg', () => {
    expect(iconBankUrl('media')).toBe('/furniture/img/media-svgIcons.svg');
    expect(iconHref('media', 'folder')).toBe('/furniture/img/media-svgIcons.svg#folder');
    expect(isIconBankName('media')).toBe(true);
    expect(isIconBankName('../secrets')).toBe(false);
  });

  it("says 'Could not find icon …' and 'Error: …' in the spec's words", () => {
    expect(ICON_MESSAGES.notFound('gear', 'ui')).toBe("Could not find icon 'gear' from icon bank 'ui'");
    expect(ICON_MESSAGES.error(new Error('boom'))).toBe('Error: boom');
    expect(ICON_MESSAGES.error('offline')).toBe('Error: offline');
  });

  it('reads the graphics of a bank from its symbol ids, once each', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">
      <symbol id="folder" viewBox="0 0 24 24"><path d="M0 0"/></symbol>
      <symbol viewBox="0 0 24 24" id='edl'></symbol>
      <g id="not-a-symbol"/><symbol id="folder"/></svg>`;
    expect(iconBankGraphics(svg)).toEqual(['folder', 'edl']);
    expect(iconBankGraphics('<html>not found</html>')).toEqual([]);
  });
});
