/**
 * Language-aware matching for the help centre's search (issue 33 item 4), the same on the server
 * (what goes into FTS5 or a tsvector, and the query) and in the worker (MiniSearch): lower case,
 * ß as ss, accents and umlauts dropped (Straße, Strasse and STRASSE are one word; Müller is
 * muller). German writes an umlaut as its vowel plus e where it has none (Mueller for Müller), so
 * what is indexed also holds each umlaut word in that spelling: both queries find it.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** One word or text in its plain spelling (ß -> ss, accents and umlauts dropped, lower case). */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** The German spelling without umlauts (ä -> ae, ö -> oe, ü -> ue), then folded. */
function umlautSpelling(word: string): string {
  return foldText(word.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue'));
}

/** The query's words, folded (what every indexed word is matched against, as a prefix). */
export function searchTerms(query: string): string[] {
  return [...new Set(foldText(query).match(WORD) ?? [])].slice(0, 12);
}

/**
 * A text as it is indexed: its folded words, and each word with an umlaut once more in its
 * e-spelling. Words only, separated by spaces.
 */
export function indexedText(text: string): string {
  const words: string[] = [];
  for (const word of text.match(WORD) ?? []) {
    const plain = foldText(word);
    words.push(plain);
    if (/[äöüÄÖÜ]/.test(word)) {
      const spelled = umlautSpelling(word);
      if (spelled !== plain) words.push(spelled);
    }
  }
  return words.join(' ');
}

/** The query has enough to search for (spec: 'Search needs at least 3 characters'). */
export function searchable(query: string): boolean {
  return query.trim().length >= 3;
}

/**
 * Where the query's words start words of `text` (as prefixes, either spelling), as [from, to)
 * index pairs into `text`, sorted and merged: what a result highlights.
 */
export function matchRanges(text: string, query: string): [number, number][] {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const ranges: [number, number][] = [];
  for (const found of text.matchAll(WORD)) {
    const word = found[0];
    const start = found.index;
    for (const spelling of [false, true]) {
      // Each character's folded form, to map a folded prefix back onto the word.
      let folded = '';
      const ends: number[] = [];
      for (let k = 0; k < word.length;) {
        const cp = word.codePointAt(k)!;
        const ch = String.fromCodePoint(cp);
        k += ch.length;
        folded += spelling ? umlautSpelling(ch) : foldText(ch);
        while (ends.length < folded.length) ends.push(k);
      }
      const term = terms.find((t) => folded.startsWith(t));
      if (term === undefined) continue;
      ranges.push([start, start + ends[term.length - 1]!]);
      break;
    }
  }
  return ranges;
}

/**
 * A short piece of `text` around its first match (the whole text's start when nothing matches),
 * cut at spaces, with … where it was cut.
 */
export function snippetOf(text: string, query: string, size = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= size) return flat;
  const first = matchRanges(flat, query)[0]?.[0] ?? 0;
  let from = Math.max(0, first - Math.floor(size / 3));
  let to = Math.min(flat.length, from + size);
  from = Math.max(0, to - size);
  if (from > 0) {
    const space = flat.indexOf(' ', from);
    if (space >= 0 && space < first) from = space + 1;
  }
  if (to < flat.length) {
    const space = flat.lastIndexOf(' ', to);
    if (space > from && space >= first) to = space;
  }
  return `${from > 0 ? '…' : ''}${flat.slice(from, to)}${to < flat.length ? '…' : ''}`;
}
