import { hasCsvExtension, MSG_CSV_FORMAT_ERROR, MSG_EMAIL_USED_IN_BATCH } from '@media/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inChunks, markRepeatedEmails, parseUsersCsv } from './parse-users-csv.ts';

describe('users CSV (spec1 §5)', () => {
  it('reads fullname, company, email and an optional username in any column order and case', () => {
    const parsed = parseUsersCsv(
      'Email,FullName,company,username\nada@example.com,Ada One,Acme,ada\n\n\nbob@example.com,"Bob, Two",Acme,\n',
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        { fullname: 'Ada One', company: 'Acme', email: 'ada@example.com', username: 'ada' },
        { fullname: 'Bob, Two', company: 'Acme', email: 'bob@example.com' },
      ],
    });
  });

  it('refuses a file without the required columns with the spec message', () => {
    expect(parseUsersCsv('fullname,email\nAda,ada@example.com')).toEqual({
      ok: false,
      error: MSG_CSV_FORMAT_ERROR,
    });
    expect(parseUsersCsv('')).toEqual({ ok: false, error: MSG_CSV_FORMAT_ERROR });
  });

  it('reports a broken row as a CSV parse error', () => {
    const parsed = parseUsersCsv('fullname,company,email\nAda,Acme,ada@example.com,extra\n');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toMatch(/^CSV parse error: Failed: .*row 2/);
  });

  it('splits rows into chunks of 100 that keep every row in order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 450 }), (rows) => {
        const chunks = inChunks(rows);
        expect(chunks.flat()).toEqual(rows);
        expect(chunks.every((chunk) => chunk.length > 0 && chunk.length <= 100)).toBe(true);
      }),
    );
  });

  it('warns about file names that do not end in .csv', () => {
    expect(hasCsvExtension('users.CSV')).toBe(true);
    expect(hasCsvExtension('users.txt')).toBe(false);
  });

  it('marks an email repeated across chunks as failed, keeping the first', () => {
    const row = (email: string, success = true) => ({
      fullname: 'x',
      company: 'c',
      email,
      username: 'x',
      success,
      message: 'User will be created',
    });
    const marked = markRepeatedEmails([
      row('a@x.com'),
      row('b@x.com', false),
      row('A@x.com'),
      row('b@x.com'),
    ]);
    expect(marked.map((r) => r.success)).toEqual([true, false, false, true]);
    expect(marked[2]?.message).toBe(MSG_EMAIL_USED_IN_BATCH);
  });
});
