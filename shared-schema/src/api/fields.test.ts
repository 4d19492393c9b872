import { describe, expect, it } from 'vitest';
import { registerRequestSchema } from './register';
import { tokenRequestSchema } from './token-request';

function errorsOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const first: Record<string, string> = {};
  for (const i of result.error?.issues ?? []) first[i.path.join('.')] ??= i.message;
  return first;
}

describe('sign-in and registration texts (spec 000 §5, spec 001 §5)', () => {
  const valid = {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'Ada@Example.COM ',
    password: 'secret-pw',
  };

  it('accepts a valid registration and normalises the e-mail', () => {
    const parsed = registerRequestSchema.parse(valid);
    expect(parsed.email).toBe('ada@example.com');
  });

  it.each([
    ['email', undefined, 'Please enter your email address'],
    ['email', '', 'Please enter your email address'],
    ['email', 'a@b', 'The email address must be at least 4 characters'],
    ['email', 'not-an-address', 'Please enter a valid email address'],
    [
      'email',
      `${'a'.repeat(245)}@x.com`,
      'The email address may not be longer than 250 characters',
    ],
    ['password', undefined, 'Please enter your password'],
    ['password', 'short', 'The password must be between 8 and 16 characters'],
    ['password', 'x'.repeat(17), 'The password must be between 8 and 16 characters'],
    ['firstname', undefined, 'Please enter your firstname'],
    ['firstname', 'Al', 'The firstname must be at least 3 characters'],
    ['lastname', '   ', 'Please enter your lastname'],
    ['lastname', 'x'.repeat(251), 'The lastname may not be longer than 250 characters'],
    ['firstname', 42, 'Please enter your firstname'],
  ])('%s = %j: %s', (field, value, message) => {
    const result = registerRequestSchema.safeParse({ ...valid, [field]: value });
    expect(result.success).toBe(false);
    expect(errorsOf(result)[field]).toBe(message);
  });

  it('new passwords of 8 and 16 characters are accepted', () => {
    expect(registerRequestSchema.safeParse({ ...valid, password: 'x'.repeat(8) }).success).toBe(
      true,
    );
    expect(registerRequestSchema.safeParse({ ...valid, password: 'x'.repeat(16) }).success).toBe(
      true,
    );
  });

  it('sign-in does not judge the length of an existing password', () => {
    const base = { grant_type: 'password', client_id: 'c', username: 'ada@example.com' };
    expect(tokenRequestSchema.safeParse({ ...base, password: 'abc' }).success).toBe(true);
    expect(errorsOf(tokenRequestSchema.safeParse({ ...base, password: '' })).password).toBe(
      'Please enter your password',
    );
  });
});
