import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, parsePoEntries, type Language } from '@plant/shared-schema';

/*
 * The help centre's catalogue as the server reads it (issue 33 item 6): the host page is rendered
 * here, without the app, in the reader's language. Its words are entries of the client's help
 * centre catalogue (`lingui extract` keeps them: shared-schema's HELP_HOST_TEXTS), read once
 * from the PO files at start; a language whose file is missing, or an entry without a text,
 * shows the English source.
 */

/** Where `lingui extract` writes the help centre's catalogues (one folder per language). */
export const HELP_CATALOGUE_DIR = fileURLToPath(
  new URL('../../../client/src/features/helpcenter/locales', import.meta.url),
);

/** msgid → msgstr of a PO file's entries (the header and empty texts left out). */
export function parsePo(text: string): Map<string, string> {
  return new Map(
    parsePoEntries(text)
      .filter((entry) => entry.id !== '' && entry.str !== '')
      .map((entry) => [entry.id, entry.str]),
  );
}

export type Translate = (lang: Language, source: string, ...values: string[]) => string;

/** The help centre's translations (loadCatalogue of its folder). */
export function loadHelpCatalogue(dir = HELP_CATALOGUE_DIR): Translate {
  return loadCatalogue(dir);
}

/**
 * The translations of every language of a client catalogue folder, read now; `translate` fills
 * `{0}`, `{1}` … in.
 */
export function loadCatalogue(dir: string): Translate {
  const catalogues = new Map<Language, Map<string, string>>();
  for (const lang of LANGUAGES) {
    try {
      catalogues.set(lang, parsePo(readFileSync(path.join(dir, lang, 'messages.po'), 'utf8')));
    } catch {
      // No catalogue of this language here: its readers get the English words.
    }
  }
  return (lang, source, ...values) =>
    (catalogues.get(lang)?.get(source) ?? source).replace(
      /\{(\d)\}/g,
      (whole, i: string) => values[Number(i)] ?? whole,
    );
}
