import type { ReactNode } from 'react';

/**
 * A user-given name (an asset's, a gateway's, a user's, …) shown isolated: a <bdi> takes its
 * direction from the name's own first letter and keeps the name's bidirectional controls (U+202E
 * and the like, stored verbatim) from reordering the text around it. For strings that mix a name
 * with other text (titles, aria-labels, confirm texts), use shared-schema's `isolate()` instead.
 */
export function Name({
  children,
  testId,
}: {
  readonly children: ReactNode;
  /** data-testid of the element that holds the name. */
  readonly testId?: string;
}) {
  return <bdi data-testid={testId}>{children}</bdi>;
}
