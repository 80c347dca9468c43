import { MSG_UNEXPECTED_RESPONSE } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { readUploadAnswer, type UploadError } from './uploads.ts';

const failure = (status: number, text: string) => {
  try {
    readUploadAnswer(status, text);
  } catch (error) {
    return error as UploadError;
  }
  throw new Error('no failure');
};

describe('readUploadAnswer (spec1 §4, §5)', () => {
  it('answers the stored upload of a 200', () => {
    expect(readUploadAnswer(200, JSON.stringify({ results: { id: 7 } }))).toEqual({ upload: { id: 7 } });
  });

  it("asks for a popup when the server answers 'redirect {url}'", () => {
    expect(readUploadAnswer(200, 'redirect https://example.com/finish?id=1\n')).toEqual({
      redirect: 'https://example.com/finish?id=1',
    });
  });

  it("reads a non-JSON answer as 'Unexpected response from cloud'", () => {
    expect(failure(200, '<html>proxy page</html>').message).toBe(MSG_UNEXPECTED_RESPONSE);
    expect(failure(502, 'Bad gateway')).toMatchObject({ message: MSG_UNEXPECTED_RESPONSE, permanent: false });
  });

  it("gives the server's message, permanent only for 403, 404, 413, 415, 500 and 501", () => {
    const body = (message: string) => JSON.stringify({ error: { message, code: 'x' } });
    for (const status of [403, 404, 413, 415, 500, 501])
      expect(failure(status, body('no'))).toMatchObject({ message: 'no', permanent: true });
    for (const status of [400, 409, 502, 503])
      expect(failure(status, body('again'))).toMatchObject({ message: 'again', permanent: false });
  });

  it('leaves a 401 to the re-login dialog', () => {
    expect(
      readUploadAnswer(401, JSON.stringify({ error: { message: 'Session ended', code: 'unauthenticated' } })),
    ).toBeNull();
  });
});
