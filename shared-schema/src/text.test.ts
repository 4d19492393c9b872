import { describe, expect, it } from 'vitest';
import { isolate } from './text';

describe('isolate', () => {
  it('wraps a name in FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, keeping it verbatim', () => {
    expect(isolate('Press line 1')).toBe('\u2068Press line 1\u2069');
    expect(isolate('\u202Eevil')).toBe('\u2068\u202Eevil\u2069');
    expect(isolate('')).toBe('\u2068\u2069');
  });

  it('leaves the text around the name in logical order, whatever the name opens', () => {
    // An override left open by the name ends with the isolate (UAX #9 X6a): the text after the
    // name comes after the PDI, outside the isolate, where the override does not reach.
    const text = `Alarm on ${isolate('\u202Eevil')} since 10:00`;
    const after = text.slice(text.indexOf('\u2069') + 1);
    expect(after).toBe(' since 10:00');
    expect(text.startsWith('Alarm on \u2068')).toBe(true);
    // Isolates nest: a name holding an isolate of its own stays balanced inside ours.
    const nested = isolate(`a${isolate('b')}`);
    expect([...nested].filter((c) => c === '\u2068').length).toBe(2);
    expect(nested.endsWith('\u2069\u2069')).toBe(true);
  });
});
