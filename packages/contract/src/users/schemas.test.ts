import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesUserName } from '../access/schemas.ts';
import { USERNAME_PATTERN, userImportRowProblem, usernameFromEmail } from './schemas.ts';

describe('user import rows (spec1 §5)', () => {
  it('requires fullname, company and a valid email', () => {
    const row = { fullname: 'Ada', company: 'Acme', email: 'ada@example.com' };
    expect(userImportRowProblem(row)).toBeUndefined();
    expect(userImportRowProblem({ ...row, fullname: ' ' })).toBe('fullname is required');
    expect(userImportRowProblem({ ...row, company: '' })).toBe('company is required');
    expect(userImportRowProblem({ ...row, email: '' })).toBe('email is required');
    expect(userImportRowProblem({ ...row, email: 'ada' })).toBe('Please enter a valid email address');
    expect(userImportRowProblem({ ...row, username: 'bad name' })).toBeDefined();
  });

  it('makes a valid user name from any email address (property)', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const name = usernameFromEmail(email);
        expect(name).toMatch(USERNAME_PATTERN);
        expect(name).toBe(name.toLowerCase());
      }),
    );
    expect(usernameFromEmail('Ada.Lovelace@Example.com')).toBe('ada.lovelace');
    expect(usernameFromEmail('__@x.com')).toBe('user');
  });
});

describe('add manager name match (spec1 §5)', () => {
  const user = { username: 'ada.l', fullname: 'Ada Lovelace' };
  it('matches the exact user name or the full name in any case', () => {
    expect(matchesUserName('ada.l', user)).toBe(true);
    expect(matchesUserName(' ADA lovelace ', user)).toBe(true);
    expect(matchesUserName('ADA.L', user)).toBe(false);
    expect(matchesUserName('', user)).toBe(false);
    expect(matchesUserName('Ada', user)).toBe(false);
  });
});
