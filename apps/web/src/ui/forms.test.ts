import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCES = path.join(import.meta.dirname, '..');

const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.tsx') ? [full] : [];
  });

/**
 * Issue 18: a required field left empty shows the app's message (the spec's where it gives one), never the
 * browser's "Please fill out this field": every form validates itself and turns the browser's check off.
 */
describe('forms', () => {
  it('every <form> of the web app says noValidate', () => {
    const offenders = sourceFiles(SOURCES).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/<form\b[^>]*>/g)]
        .filter((match) => !/\bnoValidate\b/.test(match[0]))
        .map((match) => `${path.relative(SOURCES, file)}: ${match[0]}`),
    );
    expect(offenders).toEqual([]);
  });
});
