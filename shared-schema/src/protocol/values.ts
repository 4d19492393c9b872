import { z } from 'zod';
import { deferred } from '../deferred';

/**
 * Machine values to browsers (DESIGN.md §8). Values are not model updates: they never enter the
 * change log. A point is `[ts, value]` (ms since epoch; booleans as 0/1, texts as strings).
 */
export const valuePointSchema = /* @__PURE__ */ deferred(() =>
  z.tuple([z.number(), z.union([z.number(), z.string()])]),
);
export type ValuePoint = z.infer<typeof valuePointSchema>;

/** `account/{accountId}/values/{assetId}`: at most one message per asset per second. */
export const liveValuesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    asset: z.string(),
    values: z.array(z.object({ stream: z.string(), points: z.array(valuePointSchema) })),
  }),
);
export type LiveValues = z.infer<typeof liveValuesSchema>;

/** Most points one read may ask for. */
export const MAX_VALUE_POINTS = 10_000;
/** Most streams one several-streams read may name. */
export const MAX_VALUE_STREAMS = 50;

const ms = /* @__PURE__ */ deferred(() =>
  z.coerce
    .number({ error: 'The time needs to be valid' })
    .int('The time needs to be valid')
    .min(0, 'The time needs to be valid')
    .max(8_640_000_000_000_000, 'The time needs to be valid'),
);

/** `?from=&to=&points=` of the values reads. */
export const valuesQuerySchema = /* @__PURE__ */ deferred(() =>
  z
    .object({
      from: ms,
      to: ms,
      points: z.coerce
        .number({ error: 'Must be a number' })
        .int('Must be a number')
        .min(2, 'Must be at least 2')
        .max(MAX_VALUE_POINTS, `Must be at most ${MAX_VALUE_POINTS}`)
        .default(1_000),
      /**
       * `hour`: instead of points, the stream's hourly rollups (count, sum, min, max of its numbers)
       * of every hour [from, to] touches, from the store's exact per-hour summaries (a bar chart
       * per hour, day or week adds them up). At most MAX_VALUE_POINTS hours.
       */
      aggregate: z.enum(['hour']).optional(),
    })
    .refine((q) => q.from <= q.to, { message: 'The time needs to be valid', path: ['to'] })
    .refine((q) => q.aggregate === undefined || (q.to - q.from) / 3_600_000 < MAX_VALUE_POINTS, {
      message: `At most ${MAX_VALUE_POINTS} hours`,
      path: ['to'],
    }),
);
export type ValuesQuery = z.infer<typeof valuesQuerySchema>;

/** One hour of a stream: its start (ms), and the count, sum, min and max of its numbers. */
export const hourRollupSchema = /* @__PURE__ */ deferred(() =>
  z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]),
);
export type HourRollup = z.infer<typeof hourRollupSchema>;

/** `?from=&to=` of the CSV download. */
export const valuesCsvQuerySchema = /* @__PURE__ */ deferred(() =>
  z
    .object({ from: ms, to: ms })
    .refine((q) => q.from <= q.to, { message: 'The time needs to be valid', path: ['to'] }),
);

/** `?streams=a,b&from=&to=&points=`: several streams at once (a diagram with several lines). */
export const severalValuesQuerySchema = /* @__PURE__ */ deferred(() =>
  z
    .object({
      streams: z
        .string({ error: 'Please select a stream' })
        .transform((s) => s.split(',').filter((x) => x !== ''))
        .pipe(
          z
            .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid id given.'))
            .min(1, 'Please select a stream')
            .max(MAX_VALUE_STREAMS, `At most ${MAX_VALUE_STREAMS} streams`),
        ),
      from: ms,
      to: ms,
      points: z.coerce.number().int().min(2).max(MAX_VALUE_POINTS).default(1_000),
    })
    .refine((q) => q.from <= q.to, { message: 'The time needs to be valid', path: ['to'] }),
);

/** One stream's values over a range: raw, or downsampled keeping each bucket's first, min, max and last. */
export const streamValuesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    stream: z.string(),
    from: z.number(),
    to: z.number(),
    downsampled: z.boolean(),
    points: z.array(valuePointSchema),
    /** With `aggregate=hour`: the hours (points is empty then). */
    hours: z.array(hourRollupSchema).optional(),
  }),
);
export type StreamValues = z.infer<typeof streamValuesSchema>;

/** GET assets/{id}/values/latest: the last value of each of the asset's streams that has one. */
export const latestValuesSchema = /* @__PURE__ */ deferred(() =>
  z.array(
    z.object({ stream: z.string(), ts: z.number(), value: z.union([z.number(), z.string()]) }),
  ),
);
export type LatestValues = z.infer<typeof latestValuesSchema>;

/** How long an account keeps machine values, in days (spec 001 §9: 30 days, 90 days, 6 months, 1 year). */
export const VALUE_RETENTION_DAYS = [30, 90, 182, 365] as const;
export type ValueRetentionDays = (typeof VALUE_RETENTION_DAYS)[number];

/** GET and PUT account/value-retention: the active account's retention. */
export const valueRetentionSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    days: z
      .number({ error: 'Please choose 30 days, 90 days, 6 months or 1 year' })
      .refine(
        (d): d is ValueRetentionDays => (VALUE_RETENTION_DAYS as readonly number[]).includes(d),
        {
          message: 'Please choose 30 days, 90 days, 6 months or 1 year',
        },
      ),
  }),
);
export type ValueRetention = z.infer<typeof valueRetentionSchema>;

/** Who may change how long the account keeps values. */
export const VALUE_RETENTION_PERMISSION = 'account::edit';
