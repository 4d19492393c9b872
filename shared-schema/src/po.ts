/*
 * Gettext PO files (the catalogues' format): read by the server (the help centre's and the public
 * pages' words) and by the translations screen (import, export).
 */

/** One entry of a PO file. */
export interface PoEntry {
  readonly id: string;
  readonly str: string;
  readonly context: string | undefined;
  /** Its extracted comments (`#. …`), without the marker. */
  readonly comments: readonly string[];
}

/** A PO string's value: its quoted parts joined, escapes undone. */
function unquote(parts: readonly string[]): string {
  return parts
    .map((p) => p.replace(/^"|"$/g, ''))
    .join('')
    .replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** Every entry of a PO file, the header (empty msgid) among them. */
export function parsePoEntries(text: string): PoEntry[] {
  const entries: PoEntry[] = [];
  let field: 'ctxt' | 'id' | 'str' | null = null;
  let ctxt: string[] | null = null;
  let id: string[] = [];
  let str: string[] = [];
  let comments: string[] = [];
  const flush = () => {
    entries.push({
      id: unquote(id),
      str: unquote(str),
      context: ctxt === null ? undefined : unquote(ctxt),
      comments,
    });
    ctxt = null;
    id = [];
    str = [];
    comments = [];
    field = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#.')) {
      if (field === 'str') flush();
      comments.push(line.slice(2).trim());
    } else if (line.startsWith('msgctxt ')) {
      if (field === 'str') flush();
      field = 'ctxt';
      ctxt = [line.slice(8)];
    } else if (line.startsWith('msgid ')) {
      if (field === 'str') flush();
      field = 'id';
      id = [line.slice(6)];
    } else if (line.startsWith('msgstr ')) {
      field = 'str';
      str = [line.slice(7)];
    } else if (line.startsWith('"') && field !== null) {
      (field === 'ctxt' ? (ctxt ?? []) : field === 'id' ? id : str).push(line);
    } else if (line === '' && field === 'str') {
      flush();
    }
  }
  if (field === 'str') flush();
  return entries;
}

/** A text as a PO string (quoted, escaped; a line break starts a new quoted part). */
export function poString(text: string): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t');
  const lines = escaped.split('\n');
  if (lines.length === 1) return `"${escaped}"`;
  return ['""', ...lines.map((l, i) => `"${l}${i < lines.length - 1 ? '\\n' : ''}"`)].join('\n');
}
