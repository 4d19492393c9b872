import { z } from 'zod';
import { deferred } from '../deferred';

const NUMBER_TEXT = 'The article number is a whole number, as in help/136.';

/**
 * A help article an alarm, a data stream or a 3D hotspot links (issue 33 item 5): its number, as
 * in links like help/136; null: none. The server checks that the account has such an article. A
 * module of its own: the models that link one do not load the article's document checks.
 */
export const helpArticleField = /* @__PURE__ */ deferred(() =>
  z
    .number({ error: NUMBER_TEXT })
    .int(NUMBER_TEXT)
    .positive(NUMBER_TEXT)
    .max(999_999_999, NUMBER_TEXT)
    .nullable()
    .default(null),
);
