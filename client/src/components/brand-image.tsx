import { useState, type ReactNode } from 'react';

/**
 * An image of the account's design, or, when it cannot be shown (404, not an image, refused by
 * the page's CSP), the `fallback`: a broken logo never leaves the brand blank. A new `src` tries
 * again.
 */
export function BrandImage(props: {
  readonly src: string;
  readonly alt: string;
  readonly className?: string | undefined;
  readonly fallback: ReactNode;
  readonly testId?: string | undefined;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === props.src) return props.fallback;
  return (
    <img
      src={props.src}
      alt={props.alt}
      className={props.className}
      data-testid={props.testId}
      onError={() => setFailed(props.src)}
    />
  );
}
