import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxIngestResolutionOf, proxyPlan, resolveIngestFormat, uploadIngestFormat } from './proxy-plan.ts';

describe('resolveIngestFormat', () => {
  it('takes the workflow, then the arrivals folder, then the account, then the default', () => {
    expect(
      resolveIngestFormat({ workflow: 'NTSC_wide_720', arrivalsFolder: 'FILM_normal', account: ['50_wide'] }),
    ).toBe('NTSC_wide_720');
    expect(resolveIngestFormat({ workflow: '', arrivalsFolder: 'FILM_normal', account: ['50_wide'] })).toBe(
      'FILM_normal',
    );
    expect(resolveIngestFormat({ arrivalsFolder: 'nonsense', account: ['bad', '50_wide'] })).toBe('50_wide');
    expect(resolveIngestFormat({ account: [] })).toBe('PAL_wide');
  });

  it('normalises a trailing x or p on the resolution', () => {
    expect(resolveIngestFormat({ account: ['PAL_wide_720p'] })).toBe('PAL_wide_720');
  });
});

describe('maxIngestResolutionOf', () => {
  it('reads the larger number of the account max video, else 640', () => {
    expect(maxIngestResolutionOf('640x360')).toBe(640);
    expect(maxIngestResolutionOf('1920x1080')).toBe(1920);
    expect(maxIngestResolutionOf('')).toBe(640);
    expect(maxIngestResolutionOf(null)).toBe(640);
  });
});

describe('proxyPlan', () => {
  it('makes a 640x360 proxy at 25 fps of a 1080p source in PAL wide', () => {
    expect(proxyPlan({ width: 1920, height: 1080 }, 'PAL_wide', 640)).toEqual({
      width: 640,
      height: 360,
      contentWidth: 640,
      contentHeight: 360,
      fps: 25,
    });
  });

  it('follows a numeric resolution and the frame rate standard', () => {
    expect(proxyPlan({ width: 1920, height: 1080 }, 'NTSC_wide_720', 1920)).toMatchObject({
      width: 1280,
      height: 720,
      fps: 30,
    });
  });

  it('never goes above the max ingest resolution nor upscales the source', () => {
    expect(proxyPlan({ width: 1920, height: 1080 }, 'NTSC_wide_1080', 640)).toMatchObject({ height: 640 });
    const small = proxyPlan({ width: 320, height: 240 }, 'PAL_wide', 640);
    expect(small).toEqual({ width: 426, height: 240, contentWidth: 320, contentHeight: 240, fps: 25 });
  });

  it('puts a landscape picture into a tall frame with bars above and below', () => {
    const plan = proxyPlan({ width: 1280, height: 720 }, 'PAL_tall', 640);
    expect(plan.width).toBeLessThan(plan.height);
    expect(plan.contentWidth).toBe(plan.width);
    expect(plan.contentHeight).toBeLessThan(plan.height);
  });

  it('always answers even sizes, a frame of the format aspect, and a picture that fits', () => {
    const formats = ['PAL_wide', 'NTSC_normal', 'FILM_tall', '50_wide_540', '59.94_wide_1080', '60_tall_640'];
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8192 }),
        fc.integer({ min: 2, max: 8192 }),
        fc.constantFrom(...formats),
        fc.integer({ min: 100, max: 4000 }),
        (w, h, format, max) => {
          const plan = proxyPlan({ width: w, height: h }, format, max);
          for (const n of [plan.width, plan.height, plan.contentWidth, plan.contentHeight]) {
            expect(n % 2).toBe(0);
            expect(n).toBeGreaterThanOrEqual(2);
          }
          expect(plan.height).toBeLessThanOrEqual(Math.max(2, Math.min(max, h)) + 1);
          expect(plan.contentWidth).toBeLessThanOrEqual(plan.width);
          expect(plan.contentHeight).toBeLessThanOrEqual(plan.height);
        },
      ),
    );
  });
});

describe('uploadIngestFormat', () => {
  it("takes the user's format, else the account's first, with the aspect the user chose", () => {
    expect(uploadIngestFormat({ format: 'NTSC_wide_720', account: ['50_normal'] })).toBe('NTSC_wide_720');
    expect(uploadIngestFormat({ format: '', account: ['50_normal'] })).toBe('50_normal');
    expect(uploadIngestFormat({ account: [] })).toBe('PAL_wide');
    expect(uploadIngestFormat({ format: 'NTSC_wide_720', aspect: 'normal', account: [] })).toBe(
      'NTSC_normal_720',
    );
  });

  it('falls back to the standard resolution when the chosen aspect has no such one', () => {
    expect(uploadIngestFormat({ format: 'PAL_wide_1080', aspect: 'tall', account: [] })).toBe('PAL_tall');
    expect(uploadIngestFormat({ format: 'PAL_tall_640', aspect: 'wide', account: [] })).toBe('PAL_wide');
  });
});
