import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PointBuffer } from './buffer';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-buffer-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const points = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ stream: 's1', ts: from + i, value: from + i }));

describe('the agent buffer', () => {
  it('sends the same batch again after a crash, with the same seq and points', () => {
    const a = PointBuffer.open(dir, 'gw', { maxPoints: 1_000, batchPoints: 3 });
    a.add(points(0, 7));
    const first = a.outgoing(2);
    expect(first.map((b) => b.seq)).toEqual([1, 2]);
    expect(first[0]?.points.map((p) => p.value)).toEqual([0, 1, 2]);
    a.close();
    // The process died before any ack: the reopened buffer sends seq 1 and 2 again, unchanged.
    const b = PointBuffer.open(dir, 'gw', { maxPoints: 1_000, batchPoints: 3 });
    expect(b.id).toBe(a.id);
    const again = b.outgoing(3);
    expect(again.slice(0, 2)).toEqual(first);
    expect(again[2]?.seq).toBe(3);
    expect(again[2]?.points.map((p) => p.value)).toEqual([6]);
    b.close();
  });

  it('a batch leaves only when acknowledged; seq stays gapless', () => {
    const buf = PointBuffer.open(dir, 'gw', { maxPoints: 1_000, batchPoints: 2 });
    buf.add(points(0, 4));
    const [one, two] = buf.outgoing(2);
    expect(buf.acknowledged(two?.seq ?? 0)).toBe(true);
    expect(buf.state().pending).toBe(2);
    // Skipped while in flight, sent again otherwise.
    expect(buf.outgoing(2, new Set([1]))).toEqual([]);
    expect(buf.outgoing(2)).toEqual([one]);
    expect(buf.acknowledged(1)).toBe(true);
    expect(buf.acknowledged(1)).toBe(false);
    buf.add(points(10, 1));
    expect(buf.outgoing(1)[0]?.seq).toBe(3);
    buf.close();
  });

  it('drops the oldest points past its bound, and counts them', () => {
    const buf = PointBuffer.open(dir, 'gw', { maxPoints: 5, batchPoints: 2 });
    buf.add(points(0, 4));
    buf.outgoing(1); // seq 1 = points 0, 1
    expect(buf.add(points(4, 3))).toBe(2);
    expect(buf.state()).toEqual({ pending: 5, dropped: 2 });
    // The batch of the oldest points went whole; what is left goes out in order.
    const left = buf.outgoing(10).flatMap((b) => b.points.map((p) => p.value));
    expect(left).toEqual([2, 3, 4, 5, 6]);
    buf.close();
  });

  it('a refused batch leaves, counted as dropped', () => {
    const buf = PointBuffer.open(dir, 'gw', { maxPoints: 100, batchPoints: 10 });
    buf.add([
      { stream: 's', ts: 1, value: 'text' },
      { stream: 's', ts: 2, value: true },
    ]);
    const [batch] = buf.outgoing(1);
    expect(batch?.points.map((p) => p.value)).toEqual(['text', true]);
    expect(buf.refused(batch?.seq ?? 0)).toBe(2);
    expect(buf.state()).toEqual({ pending: 0, dropped: 2 });
    buf.close();
  });
});
