/**
 * An expected failure of a service: the HTTP layer maps its kind to a status. Services never know
 * about HTTP; routes never decide business rules.
 */
export type DomainErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid'
  | 'rate_limited'
  | 'unavailable'
  /** Something outside the server (a gateway) did not answer in time. */
  | 'timeout';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: {
      readonly fields?: Readonly<Record<string, readonly string[]>>;
      readonly retryAfterS?: number;
    } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found.`);
export const forbidden = (
  message = 'Please ask your administrator for the necessary permissions',
) => new DomainError('forbidden', message);

/** Input that failed its rules: 422 with every message per field, the first as the message. */
export function invalidInput(fields: Readonly<Record<string, readonly string[]>>): DomainError {
  const first = Object.values(fields)[0]?.[0] ?? 'The given data was invalid.';
  return new DomainError('invalid', first, { fields });
}
