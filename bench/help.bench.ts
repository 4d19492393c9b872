import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';
import { ArticleSearchRepository } from '../server/src/repositories/article-search.repository';
import { startServer } from '../server/src/server';
import { helpQueries, textOf } from './help-words';
import { signInDemoAdmin } from './lib';

const ARTICLES = 2_000;
const WORDS_PER_ARTICLE = 300;
const SEARCHES = 40;

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
    const queries = helpQueries(SEARCHES);
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
