import { describe, expect, it } from 'vitest';
import { publishModule, WATERMARK_ICON_FIELD } from './catalogue.ts';
import { watermarkIconIdOf, watermarkImageOf, withIconChoices } from './watermark.ts';

describe('watermark options', () => {
  it('reads the image asked for, none when the options name none or an unknown one', () => {
    expect(watermarkImageOf({ image: 'button-icon' })).toBe('button-icon');
    expect(watermarkImageOf({ image: 'uploaded' })).toBe('uploaded');
    expect(watermarkImageOf({})).toBe('none');
    expect(watermarkImageOf({ image: 'logo.png' })).toBe('none');
    expect(watermarkIconIdOf({ iconId: '12' })).toBe(12);
    expect(watermarkIconIdOf({ iconId: 7 })).toBe(7);
    expect(watermarkIconIdOf({ iconId: '' })).toBeUndefined();
    expect(watermarkIconIdOf({ iconId: '1.5' })).toBeUndefined();
  });

  it("offers a context's icons as the choices of the icon field, and leaves other modules alone", () => {
    const watermark = publishModule('watermark');
    const transcode = publishModule('transcode');
    if (!watermark || !transcode) throw new Error('modules missing');
    const offered = withIconChoices(watermark, [
      { id: 3, name: 'Logo' },
      { id: 9, name: 'Bug' },
    ]);
    const field = offered.schema.find((item) => item.name === WATERMARK_ICON_FIELD);
    expect(field).toMatchObject({
      type: 'select-combo',
      selectOnly: true,
      allowedValues: ['3', '9'],
      valueLabels: { '3': 'Logo', '9': 'Bug' },
      showWhen: "image == 'uploaded'",
    });
    // The catalogue itself is not changed.
    expect(watermark.schema.find((item) => item.name === WATERMARK_ICON_FIELD)?.allowedValues).toEqual([]);
    expect(withIconChoices(transcode, [{ id: 3, name: 'Logo' }])).toBe(transcode);
  });
});
