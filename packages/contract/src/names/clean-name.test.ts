import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeCreateSchema, nodeRenameSchema } from '../nodes/nodes.ts';
import { uploadQuerySchema } from '../uploads/uploads.ts';
import { cleanName } from './clean-name.ts';

/** Every character the rule drops or turns into a space. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
].map((code) => String.fromCharCode(code));
const BIDI = ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E'].concat([
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
]);
const REFUSED = [...CONTROLS, ...BIDI, '\u2028', '\u2029'];
const isRefused = (text: string) =>
  [...text].some((char) => REFUSED.includes(char) || /^[\uD800-\uDFFF]$/.test(char));

/** Text mixing ordinary characters of any script with the refused ones and halves of surrogate pairs. */
const mixedText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      fc.constantFrom(...REFUSED),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    ),
    { maxLength: 20 },
  )
  .map((parts) => parts.join(''));

describe('cleanName (names that deceive)', () => {
  it('drops the right-to-left override and control characters, and breaks lines into a space', () => {
    expect(cleanName('ünï©ødé \u202Efdp.exe.pdf')).toBe('ünï©ødé fdp.exe.pdf');
    expect(cleanName('Evening\r\nNews\tA')).toBe('Evening News A');
    expect(cleanName('a\u0000b\u0007c\u007Fd\u0085e\u009Bf')).toBe('abcd ef');
    expect(cleanName('\u2067\u0645\u0631\u062D\u0628\u0627\u2069 \u200Fx\u200E\u061C')).toBe('مرحبا x');
    expect(cleanName('\uD800half\uDC00')).toBe('half');
  });

  it('keeps ordinary Unicode: accents, symbols, emoji with joiners, CJK and Arabic letters', () => {
    for (const name of [
      'ünï©ødé',
      'Ålesund – 2026 №1',
      '👩‍👩‍👧 🇳🇴 family',
      '新闻 ニュース 뉴스',
      'مرحبا بالعالم',
    ])
      expect(cleanName(name)).toBe(name);
  });

  it('leaves none of the refused characters, and cleaning twice changes nothing (property)', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const clean = cleanName(text);
        expect(isRefused(clean)).toBe(false);
        expect(cleanName(clean)).toBe(clean);
      }),
    );
  });

  it('keeps text without refused characters as it is (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !isRefused(text)),
        (text) => {
          expect(cleanName(text)).toBe(text);
        },
      ),
    );
  });

  it('cleans the names a node and an upload take, and refuses one empty once cleaned', () => {
    const rename = nodeRenameSchema.parse({ path: '/acme/a', name: ' \u202Efdp.exe\r\n' });
    expect(rename.name).toBe('fdp.exe');
    expect(nodeRenameSchema.safeParse({ path: '/acme/a', name: '\u202E\r\n\u0000' }).success).toBe(false);
    expect(
      nodeCreateSchema.safeParse({ parentPath: '/acme', type: 'folder', name: '\u2066\u2069' }).success,
    ).toBe(false);
    const upload = uploadQuerySchema.parse({
      uploadname: 'a\u202Eb\nc',
      location: 'File\u0000 Uploads/x\ty',
    });
    expect(upload).toMatchObject({ uploadname: 'ab c', location: 'File Uploads/x y' });
    expect(uploadQuerySchema.safeParse({ uploadname: '\u202E' }).success).toBe(false);
  });
});
