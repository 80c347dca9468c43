import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './error-codes.ts';
import { errorText, errorWhile } from './error-text.ts';

describe('error text (spec2 §8)', () => {
  it('reads message (code) from a server error body whose code names what happened', () => {
    expect(errorText({ error: { message: 'More options are needed', code: 'notEnoughPublishData' } })).toBe(
      'More options are needed (notEnoughPublishData)',
    );
  });
  it('shows no code that every error of its kind carries (not found, forbidden, bad input...)', () => {
    for (const code of Object.values(ERROR_CODES))
      expect(errorText({ error: { message: 'Name too long', code } })).toBe('Name too long');
  });
  it('falls back to the plain message, then a string, then the generic text', () => {
    expect(errorText({ error: { message: 'Gone' } })).toBe('Gone');
    expect(errorText(new Error('Network down'))).toBe('Network down');
    expect(errorText('plain words')).toBe('plain words');
    expect(errorText(undefined)).toBe('an error has occurred');
    expect(errorText({})).toBe('an error has occurred');
    expect(errorText({ error: { message: '' } })).toBe('an error has occurred');
  });
  it('never answers an empty text', () => {
    fc.assert(fc.property(fc.anything(), (value) => errorText(value).length > 0));
  });
});

describe('errorWhile (spec1 §8)', () => {
  it('names the activity and the error, or unknown, with fetching the data by default', () => {
    expect(errorWhile({ message: 'Gone', code: 'not_found' }, 'loading managers')).toBe(
      'An error occurred while loading managers: Gone',
    );
    expect(errorWhile({ message: 'No answer', code: 'timedOut' }, 'loading managers')).toBe(
      'An error occurred while loading managers: No answer (timedOut)',
    );
    expect(errorWhile(undefined)).toBe('An error occurred while fetching the data: unknown');
    // The web client's errors already carry their code in the message.
    expect(errorWhile({ message: 'No answer (timedOut)', code: 'timedOut' }, 'loading managers')).toBe(
      'An error occurred while loading managers: No answer (timedOut)',
    );
  });
});
