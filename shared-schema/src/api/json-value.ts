import { z } from 'zod';

/**
 * Whether a parsed JSON value stays within a depth and a count of nodes. Walks iteratively: a value
 * nested thousands deep must be refused, not overflow the stack while being checked.
 */
export function withinJsonBounds(value: unknown, maxDepth: number, maxNodes: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    nodes += 1;
    if (depth > maxDepth || nodes > maxNodes) return false;
    if (v !== null && typeof v === 'object') {
      for (const child of Object.values(v)) stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** Any JSON value, but bounded: free-form fields (error report params) take this. */
export function boundedJson(maxDepth = 8, maxNodes = 1000) {
  return z
    .unknown()
    .refine(
      (v) => withinJsonBounds(v, maxDepth, maxNodes),
      'The value is nested too deeply or too large.',
    );
}
