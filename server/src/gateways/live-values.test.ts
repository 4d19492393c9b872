import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveValuesSchema, topics, type LiveValues } from '@plant/shared-schema';
import { LIVE_INTERVAL_MS, LIVE_MAX_POINTS, LivePublisher } from './live-values';

/*
 * The live publisher on a fake clock: one message per asset per second, points sorted per stream,
 * and a backlog's flood cut to the newest points of each stream.
 */
let sent: { topic: string; message: LiveValues }[];
let publisher: LivePublisher;

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  publisher = new LivePublisher(
    (topic, payload) => sent.push({ topic, message: liveValuesSchema.parse(JSON.parse(payload)) }),
    () => Date.now(),
  );
});
afterEach(() => {
  publisher.close();
  vi.useRealTimers();
});

describe('live values', () => {
  it('sends the first points after a quiet second at once, the next ones at the end of the second', () => {
    publisher.add('acc', 'asset', 's1', [[2, 20]]);
    publisher.add('acc', 'asset', 's1', [[1, 10]]);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual([
      {
        topic: topics.assetValues('acc', 'asset'),
        message: {
          asset: 'asset',
          values: [
            {
              stream: 's1',
              points: [
                [1, 10],
                [2, 20],
              ],
            },
          ],
        },
      },
    ]);
    publisher.add('acc', 'asset', 's1', [[3, 30]]);
    publisher.add('acc', 'asset', 's2', [[3, 'on']]);
    vi.advanceTimersByTime(LIVE_INTERVAL_MS - 1);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent[1]?.message.values).toEqual([
      { stream: 's1', points: [[3, 30]] },
      { stream: 's2', points: [[3, 'on']] },
    ]);
  });

  it("keeps a backlog's newest points per stream in one message", () => {
    publisher.add('acc', 'asset', 'warm-up', [[0, 0]]);
    vi.advanceTimersByTime(0);
    // A gateway back after an outage: 10,000 points of one stream within the second, shuffled.
    const backlog = Array.from({ length: 10_000 }, (_, i) => [i, i] as [number, number]);
    for (let i = 0; i < backlog.length; i += 1_000)
      publisher.add('acc', 'asset', 's1', backlog.slice(i, i + 1_000).reverse());
    vi.advanceTimersByTime(LIVE_INTERVAL_MS);
    const points = sent[1]?.message.values[0]?.points ?? [];
    expect(points).toHaveLength(LIVE_MAX_POINTS);
    expect(points).toEqual(backlog.slice(-LIVE_MAX_POINTS));
  });
});
