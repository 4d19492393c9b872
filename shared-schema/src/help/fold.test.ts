import { describe, expect, it } from 'vitest';
import { foldText, indexedText, matchRanges, searchTerms, snippetOf } from './fold';

/** Whether every query word is a prefix of a word of the indexed text (the index's rule). */
function finds(text: string, query: string): boolean {
  const words = indexedText(text).split(' ');
  return searchTerms(query).every((t) => words.some((w) => w.startsWith(t)));
}

describe('language-aware matching', () => {
  it('ß matches ss and umlauts match their plain spellings, both ways', () => {
    expect(foldText('Straße')).toBe('strasse');
    expect(finds('Die Straße ist gesperrt', 'Strasse')).toBe(true);
    expect(finds('Die Strasse ist gesperrt', 'Straße')).toBe(true);
    expect(finds('Müller GmbH', 'Mueller')).toBe(true);
    expect(finds('Müller GmbH', 'muller')).toBe(true);
    expect(finds('Mueller GmbH', 'Müller')).toBe(false); // 'ue' in a text is not always an umlaut
    expect(finds('Schaltschrank öffnen', 'oeffnen')).toBe(true);
    expect(finds('Variablentabelle exportieren', 'variablen export')).toBe(true);
    expect(finds('Насос перегрет', 'насос')).toBe(true);
    expect(finds('Ёмкость', 'емкость')).toBe(true);
  });

  it('highlights the matched part of the original words', () => {
    const text = 'Die Straße zur Müller-Halle';
    const marked = (q: string) => matchRanges(text, q).map(([a, b]) => text.slice(a, b));
    expect(marked('strasse')).toEqual(['Straße']);
    expect(marked('stras')).toEqual(['Straß']); // ß is one character: the match covers it;
    expect(marked('mueller hal')).toEqual(['Müller', 'Hal']);
  });

  it('a snippet is cut around the first match', () => {
    const text = `${'Vorwort '.repeat(40)}Die Variablentabelle wird exportiert. ${'Nachwort '.repeat(40)}`;
    const snippet = snippetOf(text, 'variablentabelle', 120);
    expect(snippet).toContain('Variablentabelle');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(122);
  });
});
