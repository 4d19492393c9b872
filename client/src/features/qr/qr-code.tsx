import { useMemo } from 'react';
import { create } from 'qrcode';

/** Light modules around the code, as the QR standard asks (4), so scanners find its edges. */
const QUIET_ZONE = 4;

/**
 * The dark modules of a code as one SVG path, a horizontal run per rectangle: the code is made
 * here, in the browser, from the text alone (nothing needs the network), and stays sharp at any
 * print size.
 */
function modulesPath(text: string): { readonly size: number; readonly d: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const parts: string[] = [];
  for (let y = 0; y < n; y += 1) {
    let x = 0;
    while (x < n) {
      if (!modules.get(y, x)) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < n && modules.get(y, x)) x += 1;
      parts.push(`M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h${start - x}z`);
    }
  }
  return { size: n + 2 * QUIET_ZONE, d: parts.join('') };
}

/**
 * A QR code of `text` as an image with an accessible name (`label`, e.g. "QR code of Mixer M1").
 * `data-qr-text` carries what it encodes.
 */
export function QrCode({
  text,
  label,
  className,
}: {
  readonly text: string;
  readonly label: string;
  readonly className?: string | undefined;
}) {
  const { size, d } = useMemo(() => modulesPath(text), [text]);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${size.toString()} ${size.toString()}`}
      role="img"
      aria-label={label}
      className={className}
      data-qr-text={text}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
