import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';

/*
 * Every translated text of every catalogue (the app's and each area's) is a message lingui can
 * read, with the same placeholders as its English source. A translation that breaks either shows
 * the user its raw text or drops a number: three German, Portuguese and Russian texts of the
 * sign-out's warning about unsent changes were once the repr of a script's dictionary.
 */

const SRC = fileURLToPath(new URL('..', import.meta.url));
/** Every language the app has (its English source's catalogue included). */
const LANGUAGES = readdirSync(fileURLToPath(new URL('../locales', import.meta.url)));

/** The catalogues' folders: the app's own and each area's. */
function catalogueFolders(): string[] {
  const features = `${SRC}features`;
  return [
    `${SRC}locales`,
    ...readdirSync(features)
      .map((name) => `${features}/${name}/locales`)
      .filter((folder) => existsSync(`${folder}/en/messages.po`)),
  ];
}

/** A PO string's text: its quoted lines joined, its escapes read. */
function poText(lines: readonly string[]): string {
  return lines
    .map((line) => line.slice(line.indexOf('"') + 1, line.lastIndexOf('"')))
    .join('')
    .replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** Each entry's msgid and msgstr (the header, whose msgid is empty, left out). */
function entries(file: string): { id: string; text: string }[] {
  const found: { id: string; text: string }[] = [];
  const text = readFileSync(file, 'utf8');
  // Gettext's own plurals are not read here: lingui writes ICU plurals in one msgstr.
  if (/^msgstr\[/m.test(text)) throw new Error(`${file}: a gettext plural (msgstr[n])`);
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((l) => !l.startsWith('#'));
    const at = (key: string) => lines.findIndex((l) => l.startsWith(`${key} "`));
    const idAt = at('msgid');
    const textAt = at('msgstr');
    if (idAt < 0 || textAt < 0) continue;
    const id = poText(lines.slice(idAt, textAt));
    const next = lines.findIndex((l, i) => i > textAt && !l.startsWith('"'));
    const text = poText(lines.slice(textAt, next < 0 ? undefined : next));
    if (id !== '') found.push({ id, text });
  }
  return found;
}

/** A message's own text, plural and select cases included: braces there are quoted ones. */
function literals(message: CompiledMessage): string {
  return message
    .map((token) => {
      if (typeof token === 'string') return token;
      const format = token[2];
      if (format === null || typeof format !== 'object') return '';
      return Object.entries(format)
        .map(([key, choice]) =>
          key !== 'offset' && Array.isArray(choice) ? literals(choice as CompiledMessage) : '',
        )
        .join('');
    })
    .join('');
}

/** The names of a message's placeholders, plural and select cases included. */
function placeholders(message: CompiledMessage, into = new Set<string>()): Set<string> {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, , format] = token;
    into.add(name);
    if (format !== null && typeof format === 'object') {
      for (const [key, choice] of Object.entries(format)) {
        if (key !== 'offset' && Array.isArray(choice))
          placeholders(choice as CompiledMessage, into);
      }
    }
  }
  return into;
}

describe('the catalogues', () => {
  const folders = catalogueFolders();

  it('are found: the app’s and the areas’', () => {
    expect(folders.length).toBeGreaterThan(5);
    expect(entries(`${SRC}locales/de/messages.po`).length).toBeGreaterThan(500);
  });

  it.each(LANGUAGES)(
    'in %s, every translation reads as a message with its source’s placeholders',
    (language) => {
      const wrong: string[] = [];
      for (const folder of folders) {
        for (const { id, text } of entries(`${folder}/${language}/messages.po`)) {
          if (text === '') continue;
          try {
            const source = compileMessageOrThrow(id);
            const translated = compileMessageOrThrow(text);
            const want = [...placeholders(source)].sort();
            const got = [...placeholders(translated)].sort();
            if (want.join() !== got.join()) wrong.push(`${id} -> ${text} (${got.join()})`);
            // Braces the source has not (lingui reads a text it cannot parse as text).
            else if (/[{}]/.test(literals(translated)) && !/[{}]/.test(literals(source)))
              wrong.push(`${id} -> ${text} (braces)`);
          } catch (error) {
            wrong.push(`${id} -> ${text}: ${String(error)}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});
