import { useEffect, useState, type ReactNode } from 'react';

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

/** After a failed load, the image is asked for again after these waits (then given up on). */
const RETRY_MS = [1000, 2000, 4000, 8000, 16000, 30000];

/**
 * An image of the account's design, or, when it cannot be shown (404, not an image, refused by
 * the page's CSP), the `fallback`: a broken logo never leaves the brand blank. A server image is
 * asked for again a few times, further apart each time: a design saved while its image was still
 * uploading reaches other users' pages first, and the server serves the image only once its file
 * is ready. A new `src` starts afresh.
 */
export function BrandImage(props: {
  readonly src: string;
  readonly alt: string;
  readonly className?: string | undefined;
  readonly fallback: ReactNode;
  readonly testId?: string | undefined;
}) {
  // The failed loads of this `src`, and whether the last one failed (the fallback shows).
  const [load, setLoad] = useState({ src: props.src, tries: 0, failed: false });
  const current = load.src === props.src ? load : { src: props.src, tries: 0, failed: false };
  const local = uploadedHere.get(props.src);
  const { src: asked, tries, failed } = current;
  useEffect(() => {
    if (!failed || local !== undefined) return;
    const wait = RETRY_MS[tries - 1];
    if (wait === undefined) return;
    const timer = setTimeout(() => setLoad({ src: asked, tries, failed: false }), wait);
    return () => clearTimeout(timer);
  }, [asked, tries, failed, local]);
  if (failed) return props.fallback;
  // A new address for each try: a failed answer is never the one reused.
  const src =
    local ??
    (tries === 0 ? asked : `${asked}${asked.includes('?') ? '&' : '?'}try=${String(tries)}`);
  return (
    <img
      src={src}
      alt={props.alt}
      className={props.className}
      data-testid={props.testId}
      onError={() => setLoad({ src: asked, tries: tries + 1, failed: true })}
    />
  );
}
