import { describe, expect, it } from 'vitest';
import { messageText, wordsFromPo, wordsToPo } from './words';

describe('translation words', () => {
  it('read compiled messages back as the text a translator writes', () => {
    expect(messageText('Save')).toBe('Save');
    expect(messageText(['Sending ', ['0'], ': ', ['1'], ' %'])).toBe('Sending {0}: {1} %');
    expect(messageText([['count', 'plural', { one: ['# file'], other: ['# files'] }]])).toBe(
      '{count, plural, one {# file} other {# files}}',
    );
  });

  it('export words as PO and import them again, by id or by the English source', () => {
    const po = wordsToPo('de', [
      { key: 'aB3+/x', source: 'Save', text: 'Sichern' },
      { key: 'q1', source: 'Two\nlines "quoted"', text: 'Zwei\nZeilen „zitiert“' },
    ]);
    expect(po).toContain('Language: de');
    const back = wordsFromPo(po, new Map());
    expect(back.language).toBe('de');
    expect([...back.words]).toEqual([
      ['aB3+/x', 'Sichern'],
      ['q1', 'Zwei\nZeilen „zitiert“'],
    ]);
    // A PO file of another tool, without our ids: matched by the English source.
    const plain = 'msgid ""\nmsgstr "Language: pt\\n"\n\nmsgid "Save"\nmsgstr "Guardar"\n';
    const matched = wordsFromPo(plain, new Map([['Save', 'aB3+/x']]));
    expect(matched.language).toBe('pt');
    expect([...matched.words]).toEqual([['aB3+/x', 'Guardar']]);
  });
});
