import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';
import { ArticleSearchRepository } from '../server/src/repositories/article-search.repository';
import { startServer } from '../server/src/server';
import { signInDemoAdmin } from './lib';

const ARTICLES = 2_000;
const WORDS_PER_ARTICLE = 300;
const SEARCHES = 40;

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
const VOCABULARY: string[] = [];
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

function textOf(seed: number, words: number): string {
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

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Issue 33 item 4: the help centre's search on the server (the full-text index: FTS5 here) over
 * 2,000 published texts of 300 words, against a plain SQL LIKE over the same rows (target: at most
 * 0.2 of its time). Medians over 40 searches of one and two words.
 */
export async function benchHelp(): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-help-'));
  const server = await startServer({
    config: loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', SEED: 'demo' }),
  });
  try {
    const { account } = await signInDemoAdmin(server.url);
    const repo = new ArticleSearchRepository(server.db);
    for (let i = 0; i < ARTICLES; i++) {
      await repo.put(account, {
        textId: `bench-text-${i}`,
        articleId: `bench-article-${i}`,
        number: 10_000 + i,
        lang: i % 2 === 0 ? 'de' : 'en',
        title: textOf(i + 7, 6),
        body: textOf(i, WORDS_PER_ARTICLE),
      });
    }
    // What a technician types: a rarer word (a part, a code), or a common word and a rarer one.
    const rare = (i: number) => VOCABULARY[2_000 + ((i * 7919) % 20_000)]!;
    const queries = Array.from({ length: SEARCHES }, (_, i) =>
      i % 2 === 0 ? rare(i) : `${VOCABULARY[i % 50]!} ${rare(i)}`,
    );
    const time = async (search: (q: string) => Promise<unknown[]>) => {
      const ms: number[] = [];
      let hits = 0;
      for (const q of queries) {
        const t = performance.now();
        hits += (await search(q)).length;
        ms.push(performance.now() - t);
      }
      return { ms: median(ms), hits };
    };
    // Warm both, then measure.
    await time((q) => repo.search(account, q, 100));
    await time((q) => repo.searchLike(account, q, 100));
    const ours = await time((q) => repo.search(account, q, 100));
    const like = await time((q) => repo.searchLike(account, q, 100));
    return [
      `help search (server): ${(ours.ms / like.ms).toFixed(3)} (ours/baseline time, target at most 0.2) ` +
        `${ours.ms.toFixed(2)} ms full-text index vs ${like.ms.toFixed(2)} ms plain LIKE, median of ${SEARCHES} ` +
        `searches over ${ARTICLES} texts of ${WORDS_PER_ARTICLE} words (${ours.hits} vs ${like.hits} hits, at most 100 each)`,
    ];
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
