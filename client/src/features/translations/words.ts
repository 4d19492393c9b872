import { parsePoEntries, poString, type TranslationLanguage } from '@plant/shared-schema';

/**
 * A compiled catalogue message as the text a translator writes: `{name}` for a placeholder,
 * `{name, plural, one {…} other {…}}` for a choice (lingui's compiled tokens read back).
 */
export function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return '';
  return message
    .map((token: unknown) => {
      if (typeof token === 'string') return token;
      if (!Array.isArray(token)) return '';
      const [name, kind, options] = token as [unknown, unknown, unknown];
      const format = typeof kind === 'string' ? kind : undefined;
      if (format === undefined) return `{${String(name)}}`;
      if (typeof options !== 'object' || options === null) return `{${String(name)}, ${format}}`;
      const choices = Object.entries(options as Record<string, unknown>)
        .map(([choice, value]) => `${choice} {${messageText(value)}}`)
        .join(' ');
      return `{${String(name)}, ${format}, ${choices}}`;
    })
    .join('');
}

/** One text of a PO export: its message id, the English source and the words given. */
export interface ExportRow {
  readonly key: string;
  readonly source: string;
  readonly text: string;
}

/**
 * The account's words in one language as a PO file: each entry carries its message id in an
 * extracted comment (`#. id: …`), the English source as msgid and the words as msgstr.
 */
export function wordsToPo(language: TranslationLanguage, rows: readonly ExportRow[]): string {
  const header = [
    'msgid ""',
    'msgstr ""',
    '"Content-Type: text/plain; charset=utf-8\\n"',
    `"Language: ${language}\\n"`,
    '"X-Generator: Machine Platform translations\\n"',
  ].join('\n');
  const entries = rows.map(
    (row) => `#. id: ${row.key}\nmsgid ${poString(row.source)}\nmsgstr ${poString(row.text)}`,
  );
  return `${[header, ...entries].join('\n\n')}\n`;
}

/** A PO file's language (its header) and its words by message id (`#. id:`, else the source). */
export function wordsFromPo(
  text: string,
  keyOfSource: ReadonlyMap<string, string>,
): { readonly language: string | undefined; readonly words: ReadonlyMap<string, string> } {
  const entries = parsePoEntries(text);
  const header = entries.find((entry) => entry.id === '');
  const language = /(?:^|\n)Language:\s*([A-Za-z_-]+)/.exec(header?.str ?? '')?.[1]?.toLowerCase();
  const words = new Map<string, string>();
  for (const entry of entries) {
    if (entry.id === '' || entry.str.trim() === '') continue;
    const named = entry.comments
      .map((c) => /^id:\s*(\S+)$/.exec(c)?.[1])
      .find((k) => k !== undefined);
    const key = named ?? keyOfSource.get(entry.id);
    if (key !== undefined) words.set(key, entry.str);
  }
  return { language, words };
}
