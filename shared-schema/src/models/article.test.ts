import { describe, expect, it } from 'vitest';
import { articleTextModel, normalizeDocument, readerLanguage, ARTICLE_TEXTS } from './article';

/** A list nested `depth` deep, built without recursion. */
function nestedList(depth: number): unknown {
  let items: unknown[] = [{ content: 'leaf', items: [] }];
  for (let d = 1; d < depth; d++) items = [{ content: `level ${depth - d}`, items }];
  return {
    time: 1,
    version: '2.27.0',
    blocks: [{ id: 'l', type: 'list', data: { style: 'unordered', items } }],
  };
}

describe('an article document as stored', () => {
  it('sanitises every text, keeps our blocks, reduces unknown ones to their type', () => {
    const doc = normalizeDocument({
      time: 1700000000000,
      version: '2.27.0',
      blocks: [
        {
          id: 'p1',
          type: 'paragraph',
          data: { text: 'Hi <script>alert(1)</script><b onclick="x">there</b>' },
        },
        { id: 'h1', type: 'header', data: { text: '<img src=x onerror=alert(1)>Title', level: 9 } },
        {
          id: 'i1',
          type: 'image',
          data: {
            file: { url: 'javascript:alert(1)', file_id: '0190aaaa-0000-7000-8000-000000000001' },
            caption: '<a href="data:text/html,x">cap</a>',
            withBorder: true,
            stretched: 'yes',
          },
        },
        { id: 'r1', type: 'raw', data: { html: '<script>alert(1)</script>' } },
        {
          type: 'list',
          data: { style: 'ordered', items: ['one', { content: '<i>two</i>', items: ['2a'] }] },
        },
      ],
    });
    expect(doc).toEqual({
      time: 1700000000000,
      version: '2.27.0',
      blocks: [
        { id: 'p1', type: 'paragraph', data: { text: 'Hi <b>there</b>' } },
        { id: 'h1', type: 'header', data: { text: 'Title', level: 6 } },
        {
          id: 'i1',
          type: 'image',
          data: {
            file: { url: null, file_id: '0190aaaa-0000-7000-8000-000000000001' },
            caption: 'cap',
            withBorder: true,
            stretched: false,
            withBackground: false,
          },
        },
        { id: 'r1', type: 'unknown', data: { type: 'raw' } },
        {
          id: 'b4',
          type: 'list',
          data: {
            style: 'ordered',
            items: [
              { content: 'one', items: [] },
              { content: '<i>two</i>', items: [{ content: '2a', items: [] }] },
            ],
          },
        },
      ],
    });
    expect(JSON.stringify(doc)).not.toMatch(/javascript:|data:text|onerror|onclick|<script/);
  });

  it('refuses a list nested past 8 levels, 100,000 deep too, without exhausting the stack', () => {
    expect(normalizeDocument(nestedList(8))).not.toHaveProperty('problem');
    expect(normalizeDocument(nestedList(9))).toEqual({ problem: ARTICLE_TEXTS.listTooDeep });
    expect(normalizeDocument(nestedList(100_000))).toEqual({ problem: ARTICLE_TEXTS.listTooDeep });
    const parsed = articleTextModel.attributes.safeParse({
      article_id: 'a1',
      lang: 'en',
      title: 'Deep',
      content: nestedList(100_000),
    });
    expect(parsed.success).toBe(false);
  });

  it('a text needs a title', () => {
    const parsed = articleTextModel.attributes.safeParse({
      article_id: 'a1',
      lang: 'de',
      title: ' ',
    });
    expect(parsed.error?.issues[0]?.message).toBe(ARTICLE_TEXTS.titleRequired);
  });

  it('a reader gets their language, else the first written one, and is told so', () => {
    expect(readerLanguage('de', ['de', 'en'], ['en', 'de'])).toEqual({
      lang: 'de',
      fallback: false,
    });
    expect(readerLanguage('pt', ['de', 'en'], ['en', 'de'])).toEqual({
      lang: 'de',
      fallback: true,
    });
    expect(readerLanguage('plain', ['de', 'en'], ['en', 'de'])).toEqual({
      lang: 'en',
      fallback: false,
    });
    expect(readerLanguage('ru', [], [])).toBeUndefined();
  });
});
