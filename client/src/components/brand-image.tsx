import { useState, type ReactNode } from 'react';

/**
 * Images of the design uploaded from this page, by their address: shown from the chosen file's
 * bytes (an object URL). The server serves an image only once the design naming it is stored, so
 * the header and the preview would otherwise ask before the saved design has reached it (the
 * write is shown at once, and sent when the network allows).
 */
const uploadedHere = new Map<string, string>();

export function rememberUploadedImage(url: string, file: Blob): void {
  if (!uploadedHere.has(url)) uploadedHere.set(url, URL.createObjectURL(file));
}

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
      src={uploadedHere.get(props.src) ?? props.src}
      alt={props.alt}
      className={props.className}
      data-testid={props.testId}
      onError={() => setFailed(props.src)}
    />
  );
}
