import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportIntoFolder, safeFolder, safeName } from './export-files.ts';

describe('names of exported files', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'export-files-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('keeps a name to one safe segment', () => {
    expect(safeName('News: 1/2 <final>?')).toBe('News_ 1_2 _final__');
    expect(safeName('  ')).toBe('_');
    expect(safeName('tab\there')).toBe('tab_here');
  });

  it('never lets a folder option climb out or start at the root', () => {
    expect(safeFolder('web/../../daily')).toEqual(['web', 'daily']);
    expect(safeFolder('/etc//passwd')).toEqual(['etc', 'passwd']);
    expect(safeFolder('..\\..\\up')).toEqual(['up']);
    expect(safeFolder('')).toEqual([]);
  });

  it('exports beside earlier exports without overwriting them, and leaves no part file', async () => {
    const file = path.join(work, 'made.mp4');
    fs.writeFileSync(file, 'first');
    const folder = path.join(work, 'out', 'daily');
    const first = await exportIntoFolder(file, folder, 'Interview');
    fs.writeFileSync(file, 'second');
    const second = await exportIntoFolder(file, folder, 'Interview');
    expect(first).toBe(path.join(folder, 'Interview.mp4'));
    expect(second).toBe(path.join(folder, 'Interview (2).mp4'));
    expect(fs.readFileSync(first, 'utf8')).toBe('first');
    expect(fs.readFileSync(second, 'utf8')).toBe('second');
    expect(fs.readdirSync(folder).sort()).toEqual(['Interview (2).mp4', 'Interview.mp4']);
  });

  it('leaves nothing when the copy fails', async () => {
    const folder = path.join(work, 'failing');
    await expect(exportIntoFolder(path.join(work, 'missing.mp4'), folder, 'Gone')).rejects.toThrow();
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});
