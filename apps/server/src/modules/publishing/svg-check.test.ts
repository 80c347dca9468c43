import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSvg, SVG_MAX_DEPTH } from './svg-check.ts';

const SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg">';

describe('the SVG check before rendering', () => {
  it('answers every input, however odd, quickly and without throwing', () => {
    const piece = fc.constantFrom(
      '<svg>',
      '</svg>',
      '<g id="a">',
      '</g>',
      '<use href="#a"/>',
      '<rect style="marker-mid:url(#a)" d="M0 0 L1 1"/>',
      '<style>.x{mask:url(#a)}</style>',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '<?xml?>',
      '"',
      '<',
      '>',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 60 }), (pieces) => {
        const started = Date.now();
        expect(() => checkSvg(pieces.join(''))).not.toThrow();
        expect(Date.now() - started).toBeLessThan(200);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses deep nesting and long reference chains without overflowing the stack', () => {
    expect(checkSvg(`${SVG_OPEN}${'<g>'.repeat(100_000)}${'</g>'.repeat(100_000)}</svg>`)).toEqual({
      ok: false,
      malformed: false,
      reason: `its elements are nested more than ${SVG_MAX_DEPTH} deep`,
    });
    // Written last link first, so that following the first element walks the whole chain.
    let chain = '<rect id="u0" width="1" height="1"/>';
    for (let i = 1; i < 5000; i++) chain = `<use id="u${i}" href="#u${i - 1}"/>${chain}`;
    const deep = checkSvg(`${SVG_OPEN}<defs>${chain}</defs></svg>`);
    expect(deep).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/references are nested more than/),
    });
  });

  it('counts a marker once per vertex of its path', () => {
    const marker = `<marker id="m">${'<circle r="1"/>'.repeat(100)}</marker>`;
    const path = (vertices: number) =>
      `<path marker-mid="url(#m)" d="M0 0 ${Array.from({ length: vertices }, (_, i) => `L${i} ${i}`).join(' ')}"/>`;
    expect(checkSvg(`${SVG_OPEN}<defs>${marker}</defs>${path(10)}</svg>`)).toEqual({ ok: true });
    expect(checkSvg(`${SVG_OPEN}<defs>${marker}</defs>${path(200)}</svg>`)).toMatchObject({ ok: false });
  });
});
