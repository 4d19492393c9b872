import type { ReactNode } from 'react';
import { HOTSPOT_ICONS, type HotspotIcon } from '@plant/shared-schema';
import { icon } from '../../components/icons';

/*
 * The hotspot icon font (shared-schema HOTSPOT_ICONS; the server refuses any other name): one
 * line glyph per name, 24 px, in the current text colour, decorative (the marker's button
 * carries the name).
 */

const GLYPHS: Record<HotspotIcon, ReactNode> = {
  pin: (
    <>
      <path d="M12 21s-6.5-6.2-6.5-11a6.5 6.5 0 0 1 13 0c0 4.8-6.5 11-6.5 11Z" />
      <circle cx="12" cy="10" r="2.3" />
    </>
  ),
  info: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 11v5.5M12 7.6h.01" />
    </>
  ),
  warning: (
    <>
      <path d="M12 4 2.8 19.5h18.4Z" />
      <path d="M12 10v4.5M12 17h.01" />
    </>
  ),
  gauge: (
    <>
      <path d="M4.2 16.5a8.5 8.5 0 1 1 15.6 0" />
      <path d="m12 13.5 3.8-4.3" />
      <circle cx="12" cy="13.8" r="1" />
    </>
  ),
  pump: (
    <>
      <circle cx="10" cy="13" r="5.5" />
      <path d="M10 7.5V4h8v3.5M15.5 13H21M4 20h12" />
    </>
  ),
  motor: (
    <>
      <rect x="3.5" y="7" width="12" height="10" rx="1.5" />
      <path d="M15.5 12h5M7 7V5h5v2M6.5 11h6M6.5 14h6" />
    </>
  ),
  valve: (
    <>
      <path d="M3 8.5v7l9-3.5ZM21 8.5v7L12 12Z" />
      <path d="M12 12V6M9 5h6" />
    </>
  ),
  document: (
    <>
      <path d="M6.5 3.5h7.5l4 4v13h-11.5Z" />
      <path d="M14 3.5v4h4M9 12.5h6M9 16h6" />
    </>
  ),
  wrench: (
    <path d="M14.7 6.3a4 4 0 0 0 5 5l-1.4 1.4-7.9 7.9a2 2 0 0 1-2.8-2.8l7.9-7.9 1.4-1.4a4 4 0 0 0-5-5l2.8 2.8Z" />
  ),
  bolt: <path d="M13 3 5 13.5h6L10 21l8-10.5h-6Z" />,
};

/** The glyphs as icon components, drawn as the shell's icons are. */
const GLYPH_ICONS = Object.fromEntries(
  HOTSPOT_ICONS.map((name) => [name, icon(`Hotspot-${name}`, GLYPHS[name])]),
) as Record<HotspotIcon, ReturnType<typeof icon>>;

export function HotspotGlyph(props: { readonly icon: HotspotIcon; readonly size?: number }) {
  const Glyph = GLYPH_ICONS[props.icon];
  return <Glyph size={props.size ?? 20} />;
}
