import { describe, expect, it } from 'vitest';
import { safeDecode } from './safe-decode';

describe('decoding a path segment', () => {
  it('decodes percent escapes', () => {
    expect(safeDecode('Halle%202')).toBe('Halle 2');
    expect(safeDecode('%C3%BC%2F')).toBe('ü/');
    expect(safeDecode('plain-id')).toBe('plain-id');
    expect(safeDecode('')).toBe('');
  });

  it('answers a malformed escape as it came instead of throwing', () => {
    expect(safeDecode('%E0%A4')).toBe('%E0%A4');
    expect(safeDecode('%')).toBe('%');
    expect(safeDecode('100%-done')).toBe('100%-done');
    expect(safeDecode('%zz')).toBe('%zz');
  });
});
