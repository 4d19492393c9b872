import { articleDraftModel, articleTextModel, readableBlocks } from '@plant/shared-schema';

/*
 * An article's stored document as the sync answers it (issue 33 item 3: stored hostile content).
 * Every write is normalised, but a database restored from elsewhere may hold a document nested
 * past any bound (a list 100,000 levels deep): JSON.parse reads it, JSON.stringify (the answer)
 * and structured clone (the worker's store) overflow the stack on it, and one such text failed
 * the whole account's snapshot. Such a document is answered as its blocks normalised one by one,
 * a bad block as an unknown one (the reader's quiet note).
 */

const DOCUMENT_TYPES: ReadonlySet<string> = new Set([
  articleTextModel.type,
  articleDraftModel.type,
]);

/** Deeper than any document a write lets through (lists stop at 8 levels). */
const MAX_STORED_DEPTH = 64;

/** Whether JSON text nests arrays and objects deeper than `limit`; one pass, no parse. */
export function nestsDeeper(json: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * A stored model's attributes made safe to answer: an article's document nested too deep is
 * replaced by its readable blocks; everything else as stored.
 */
export function answerableAttributes(
  type: string,
  json: string,
  attributes: Record<string, unknown>,
): Record<string, unknown> {
  if (!DOCUMENT_TYPES.has(type) || !nestsDeeper(json, MAX_STORED_DEPTH)) return attributes;
  const content = attributes.content;
  const raw = (content as { blocks?: unknown } | null)?.blocks;
  const blocks = readableBlocks(content) ?? [];
  return {
    ...attributes,
    content: {
      time: (content as { time?: unknown } | null)?.time ?? 0,
      version: (content as { version?: unknown } | null)?.version ?? '2.27.0',
      blocks: blocks.map((block, i) => {
        if (block !== null) return block;
        const was = Array.isArray(raw) ? (raw[i] as { type?: unknown } | null) : null;
        const name = typeof was?.type === 'string' ? was.type.slice(0, 40) : 'unknown';
        return { type: 'unknown', data: { type: name } };
      }),
    },
  };
}
