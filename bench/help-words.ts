/*
 * The help benchmarks' texts (help.bench.ts, help-offline.bench.ts), deterministic.
 */

/**
 * A help centre's words: a few hundred common ones (the, pump, check…) that most texts share and
 * 30,000 rarer ones (part names, codes, places), drawn with a Zipf-like skew, deterministic.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ter',
  'zu',
  'ber',
  'ven',
  'dra',
  'schu',
  'pol',
  'rik',
  'sta',
  'ne',
  'gel',
  'fau',
  'tor',
  'bri',
  'mas',
  'kel',
  'dun',
];
export const VOCABULARY: string[] = [];
// Four syllables each: no word is the start of another (a prefix search finds that word only).
for (let i = 0; VOCABULARY.length < 30_000; i += 5) {
  let n = i;
  let word = '';
  for (let k = 0; k < 4; k++) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  VOCABULARY.push(word);
}

export function textOf(seed: number, words: number): string {
  let x = Math.imul(seed + 1, 2654435761) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    // Zipf-like: the cube of a uniform draw favours the first (common) words.
    const u = x / 2 ** 32;
    out.push(VOCABULARY[Math.floor(u * u * u * VOCABULARY.length)]!);
  }
  return out.join(' ');
}

/** What a technician types: a rarer word (a part, a code), or a common word and a rarer one. */
export function helpQueries(count: number): string[] {
  const rare = (i: number) => VOCABULARY[2_000 + ((i * 7919) % 20_000)]!;
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? rare(i) : `${VOCABULARY[i % 50]!} ${rare(i)}`,
  );
}
