import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileUploadStorage } from './upload.ts';

describe('FileUploadStorage', () => {
  it('keeps every upload when several uploads of one agent write their state at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-state-'));
    try {
      // One storage per upload, as each upload makes its own: their writes must not race.
      const keys = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          new FileUploadStorage(dir).addUpload(`print-${i}`, {
            size: i,
            metadata: {},
            creationTime: new Date().toISOString(),
            urlStorageKey: '',
            uploadUrl: `http://cloud/api/agent/uploads/${i}`,
            parallelUploadUrls: null,
          }),
        ),
      );
      const storage = new FileUploadStorage(dir);
      expect(await storage.findAllUploads()).toHaveLength(20);
      expect(await storage.findUploadsByFingerprint('print-7')).toMatchObject([
        { uploadUrl: 'http://cloud/api/agent/uploads/7' },
      ]);
      await Promise.all(keys.map((key) => new FileUploadStorage(dir).removeUpload(key)));
      expect(await storage.findAllUploads()).toEqual([]);
      expect(fs.readdirSync(dir)).toEqual(['uploads.json']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
