import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fileMaskMatcher, isInsideRoots, listFiles, queueIdOf, SettleTracker } from './scanner.ts';

describe('isInsideRoots', () => {
  it('keeps a path to its roots, whatever `..` it carries', () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', 'media', 'x y');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const target = path.join('/srv/edge', ...segments);
        const inside = path.resolve(target) === '/srv/edge' || path.resolve(target).startsWith('/srv/edge/');
        expect(isInsideRoots(target, ['/srv/edge'])).toBe(inside);
      }),
    );
  });

  it('does not take a sibling with the same prefix for the root', () => {
    expect(isInsideRoots('/srv/edge-other/file', ['/srv/edge'])).toBe(false);
    expect(isInsideRoots('/srv/edge/../edge/file', ['/srv/edge'])).toBe(true);
  });

  it('allows anything when no roots are set', () => {
    expect(isInsideRoots('/etc/passwd', [])).toBe(true);
  });
});

describe('SettleTracker', () => {
  const file = { relativePath: 'a.mov', absolutePath: '/in/a.mov', size: 10, mtimeMs: 1 };

  it('settles a file only once it stayed the same for the settle time', () => {
    const tracker = new SettleTracker();
    expect(tracker.settled(file, 0, 1000)).toBe(false);
    expect(tracker.settled(file, 500, 1000)).toBe(false);
    expect(tracker.settled(file, 1000, 1000)).toBe(true);
  });

  it('starts again when the file grows', () => {
    const tracker = new SettleTracker();
    tracker.settled(file, 0, 1000);
    expect(tracker.settled({ ...file, size: 20 }, 1500, 1000)).toBe(false);
    expect(tracker.settled({ ...file, size: 20 }, 2600, 1000)).toBe(true);
  });
});

describe('queueIdOf', () => {
  it('is stable, differs per endpoint and path, and fits the cloud’s queue id rule', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.string(), (endpointId, relativePath) => {
        const id = queueIdOf(endpointId, relativePath);
        expect(id).toBe(queueIdOf(endpointId, relativePath));
        expect(id).toMatch(/^[A-Za-z0-9._-]{1,100}$/);
        expect(id).not.toBe(queueIdOf(endpointId + 1, relativePath));
      }),
    );
  });
});

describe('fileMaskMatcher', () => {
  it('matches names by * and ?, several patterns, any case; an empty mask matches all', () => {
    const mxfOrMov = fileMaskMatcher('*.mxf; *.mov');
    expect(['a.MXF', 'b.mov'].every(mxfOrMov)).toBe(true);
    expect(mxfOrMov('c.mp4')).toBe(false);
    expect(fileMaskMatcher('A00?.mov')('a001.MOV')).toBe(true);
    expect(fileMaskMatcher('A00?.mov')('A0010.mov')).toBe(false);
    expect(fileMaskMatcher('')('anything')).toBe(true);
    expect(fileMaskMatcher('*')('anything')).toBe(true);
  });

  it('takes regular-expression characters in a mask literally', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((name) => !/[*?;,\s]/.test(name)),
        (name) => {
          expect(fileMaskMatcher(name)(name)).toBe(true);
          expect(fileMaskMatcher(name)(`${name}x`)).toBe(false);
        },
      ),
    );
  });
});

describe('listFiles', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scan-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists files below the folder with / paths, skipping hidden and partial files', async () => {
    fs.mkdirSync(path.join(root, 'day1'));
    for (const name of ['day1/A001.mov', 'B.mxf', '.hidden', 'copy.part', 'day1/.DS_Store'])
      fs.writeFileSync(path.join(root, name), 'x');
    const found = await listFiles(root);
    expect(found.map((file) => file.relativePath).sort()).toEqual(['B.mxf', 'day1/A001.mov']);
  });

  it('keeps to the top folder when not recursive, and to the file mask', async () => {
    expect((await listFiles(root, { recursive: false })).map((file) => file.relativePath)).toEqual(['B.mxf']);
    expect((await listFiles(root, { mask: '*.MOV' })).map((file) => file.relativePath)).toEqual([
      'day1/A001.mov',
    ]);
  });

  it('answers nothing for a folder that is not there', async () => {
    expect(await listFiles(path.join(root, 'missing'))).toEqual([]);
  });
});
