import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCES = path.join(import.meta.dirname, '..');

const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });

const sources = () => sourceFiles(SOURCES).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

/** Issue 18: the pages say things one way, the spec's. */
describe('consistency', () => {
  // A required field left empty shows the app's message (the spec's where it gives one), never the browser's
  // "Please fill out this field": every form validates itself and turns the browser's check off.
  it('every <form> of the web app says noValidate', () => {
    const offenders = sources().flatMap(({ file, text }) =>
      [...text.matchAll(/<form\b[^>]*>/g)]
        .filter((match) => !/\bnoValidate\b/.test(match[0]))
        .map((match) => `${path.relative(SOURCES, file)}: ${match[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  // Dates read as the spec spells them (contract format/dates.ts), never in the browser's own words.
  it('formats no date with the browser locale functions', () => {
    const offenders = sources()
      .filter(({ text }) => /\.toLocale(Date|Time)?String\(|Intl\.DateTimeFormat/.test(text))
      .map(({ file }) => path.relative(SOURCES, file));
    expect(offenders).toEqual([]);
  });
});
