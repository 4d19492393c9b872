import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from '@plant/shared-schema';
import { dialogProblem, expiryOf } from './developer-rules';

describe('dialogProblem (spec 000 §5)', () => {
  it('lists the 422 errors of every field, each message once', () => {
    expect(
      dialogProblem({
        kind: 'http',
        status: 422,
        message: 'The given data was invalid.',
        fields: {
          name: ['The name field is required.'],
          redirect: ['The redirect field is required.', 'The name field is required.'],
        },
      }),
    ).toEqual({
      kind: 'messages',
      messages: ['The name field is required.', 'The redirect field is required.'],
    });
  });

  it('shows an object answer without errors by its message', () => {
    expect(dialogProblem({ kind: 'http', status: 404, message: 'Client not found.' })).toEqual({
      kind: 'messages',
      messages: ['Client not found.'],
    });
  });

  it('says "Something went wrong" for an answer whose body is not an object', () => {
    // What the worker makes of `"oops"`, `[]`, an HTML page and an empty 500.
    expect(dialogProblem({ kind: 'http', status: 500, message: ERROR_TEXTS.unknown })).toEqual({
      kind: 'generic',
    });
    expect(
      dialogProblem({ kind: 'unparseable', status: 502, message: ERROR_TEXTS.unknown }),
    ).toEqual({ kind: 'generic' });
    expect(dialogProblem({ kind: 'empty', status: 500, message: ERROR_TEXTS.emptyBody })).toEqual({
      kind: 'generic',
    });
  });

  it('tells no answer apart', () => {
    expect(dialogProblem({ kind: 'network', status: 0, message: 'Failed to fetch' })).toEqual({
      kind: 'offline',
    });
  });
});

describe('expiryOf', () => {
  const now = new Date(2026, 10, 27, 9, 30).getTime();

  it('is the end of the chosen day', () => {
    expect(expiryOf('2027-01-15', now)).toBe(new Date(2027, 0, 15, 23, 59, 59).toISOString());
  });

  it('never passes a year from now, even on the last day offered', () => {
    const last = expiryOf('2027-11-27', now);
    expect(last).not.toBeNull();
    expect(Date.parse(last ?? '')).toBeLessThanOrEqual(now + 365 * 24 * 3600 * 1000);
    expect(Date.parse(last ?? '')).toBeGreaterThan(now + 364 * 24 * 3600 * 1000);
  });

  it('refuses days in the past, past the year, and what is no date', () => {
    expect(expiryOf('2026-11-26', now)).toBeNull();
    expect(expiryOf('2027-11-29', now)).toBeNull();
    expect(expiryOf('', now)).toBeNull();
    expect(expiryOf('next week', now)).toBeNull();
  });
});
