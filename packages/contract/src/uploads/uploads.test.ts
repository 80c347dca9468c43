import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultUploadLocation,
  fileExtension,
  isCsvFileName,
  uploadQuerySchema,
  webUploadKindOf,
} from './uploads.ts';

describe('uploads (spec1 §3, §5)', () => {
  it("defaults the location to 'File Uploads/' and the date as yyyy-MM-dd", () => {
    expect(defaultUploadLocation(new Date(2026, 0, 5))).toBe('File Uploads/2026-01-05');
    fc.assert(
      fc.property(
        fc.date({ min: new Date(2000, 0, 1), max: new Date(2099, 11, 31), noInvalidDate: true }),
        (d) => {
          expect(defaultUploadLocation(d)).toMatch(/^File Uploads\/\d{4}-\d{2}-\d{2}$/);
        },
      ),
    );
  });

  it('takes media and documents by extension, in any case, and nothing without one', () => {
    expect(webUploadKindOf('Interview.MOV')).toBe('media');
    expect(webUploadKindOf('script.pdf')).toBe('document');
    expect(webUploadKindOf('setup.exe')).toBeUndefined();
    expect(webUploadKindOf('README')).toBeUndefined();
    expect(webUploadKindOf('.mov')).toBeUndefined();
    expect(fileExtension('a.b.TAR')).toBe('tar');
    expect(isCsvFileName('mapping.CSV')).toBe(true);
    expect(isCsvFileName('mapping.csv.txt')).toBe(false);
  });

  it('requires an upload name and a known aspect', () => {
    expect(uploadQuerySchema.safeParse({ uploadname: ' ' }).success).toBe(false);
    expect(uploadQuerySchema.safeParse({ uploadname: 'clip', aspect: 'square' }).success).toBe(false);
    expect(uploadQuerySchema.parse({ uploadname: ' clip ', aspect: 'wide' })).toEqual({
      uploadname: 'clip',
      aspect: 'wide',
    });
  });
});
