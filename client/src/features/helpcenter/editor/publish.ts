import {
  ARTICLE_TEXTS,
  documentText,
  normalizeDocument,
  type ArticleDocument,
  type Language,
} from '@plant/shared-schema';

/** One language as its authors left it (an `article_draft`). */
export interface DraftText {
  readonly lang: Language;
  readonly title: string;
  readonly content: unknown;
}

/** A language with words in it: a title, or any text in its blocks. */
export function hasWords(draft: DraftText): boolean {
  if (draft.title.trim().length > 0) return true;
  const doc = normalizeDocument(draft.content);
  return !('problem' in doc) && doc.blocks.length > 0 && documentText(doc).trim().length > 0;
}

/**
 * What publishing the drafts needs first: every language with words has a title ('Title is
 * required', by language), and at least one language has one ('Please fill in at least one
 * translation'). Empty: it may be published.
 */
export function publishProblems(drafts: readonly DraftText[]): {
  readonly article?: string;
  readonly titles: readonly Language[];
} {
  const written = drafts.filter(hasWords);
  const titles = written.filter((d) => d.title.trim().length === 0).map((d) => d.lang);
  if (written.length === 0) return { article: ARTICLE_TEXTS.oneTranslation, titles };
  return titles.length > 0 ? { titles } : { titles: [] };
}

/**
 * A stored document in the shape Editor.js 2.27's tools read: lists of strings (the list tool of
 * its era nests nothing: nested items follow their parent), everything else as stored.
 */
export function forEditor(content: unknown): ArticleDocument | { blocks: unknown[] } {
  const doc = normalizeDocument(content);
  if ('problem' in doc) return { blocks: [] };
  return {
    ...doc,
    blocks: doc.blocks.map((block) => {
      if (block.type !== 'list') return block;
      const items: string[] = [];
      const work = [...block.data.items];
      while (work.length > 0) {
        const item = work.shift()!;
        items.push(item.content);
        work.unshift(...item.items);
      }
      return { ...block, data: { style: block.data.style, items } };
    }),
  };
}
