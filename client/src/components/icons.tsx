import type { ReactNode, SVGProps } from 'react';

/**
 * The shell's icons: 24 px line drawings in the current text colour, decorative (aria-hidden),
 * so the control around them carries the accessible name. Drawn here rather than taken from an
 * icon package: the shell needs about twenty, and each is a few path commands.
 */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { readonly size?: number };

/** An icon component of these paths (the hotspot icon font draws its glyphs with it too). */
export function icon(name: string, paths: ReactNode) {
  function Icon({ size = 20, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths}
      </svg>
    );
  }
  Icon.displayName = `Icon${name}`;
  return Icon;
}

export const IconHome = icon(
  'Home',
  <>
    <path d="M4 11 12 4l8 7" />
    <path d="M6 9.5V20h4.5v-5h3v5H18V9.5" />
  </>,
);
export const IconDashboard = icon(
  'Dashboard',
  <>
    <rect x="4" y="4" width="7" height="9" rx="1" />
    <rect x="13" y="4" width="7" height="5" rx="1" />
    <rect x="13" y="11" width="7" height="9" rx="1" />
    <rect x="4" y="15" width="7" height="5" rx="1" />
  </>,
);
export const IconReport = icon(
  'Report',
  <>
    <path d="M6.5 3.5h7.5l4 4v13h-11.5Z" />
    <path d="M14 3.5v4h4M9.5 17v-3M12.5 17v-5M15.5 17v-2" />
  </>,
);
export const IconHelp = icon(
  'Help',
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M9.6 9.4a2.5 2.5 0 0 1 4.8.9c0 1.7-2.4 2.1-2.4 3.7" />
    <path d="M12 17h.01" />
  </>,
);
export const IconFeedback = icon(
  'Feedback',
  <>
    <path d="M4 5.5h16v10H9l-4 3.5v-3.5H4z" />
    <path d="M8 9.5h8M8 12.5h5" />
  </>,
);
export const IconPalette = icon(
  'Palette',
  <>
    <path d="M12 3.5a8.5 8.5 0 1 0 0 17c1.2 0 1.8-.8 1.8-1.7 0-1.3-1.1-1.6-1.1-2.7 0-.9.7-1.6 1.6-1.6h2.2a4 4 0 0 0 4-4c0-3.9-3.8-7-8.5-7Z" />
    <circle cx="7.8" cy="11" r="1" />
    <circle cx="10.5" cy="7.5" r="1" />
    <circle cx="15" cy="8" r="1" />
  </>,
);
export const IconTranslate = icon(
  'Translate',
  <>
    <path d="M4 5h8M8 3.5V5M5.5 5c.6 3 2.7 5.4 5.5 6.5M10.5 5c-.6 3-2.7 5.4-5.5 6.5" />
    <path d="m12 20 4-9 4 9M13.4 17h5.2" />
  </>,
);
export const IconGateway = icon(
  'Gateway',
  <>
    <rect x="3.5" y="13" width="17" height="6" rx="1.5" />
    <path d="M7 16h.01M10 16h.01M17 13V9" />
    <path d="M14.2 7.2a4 4 0 0 1 5.6 0M12.4 5.2a6.6 6.6 0 0 1 9.2 0" />
  </>,
);
export const IconAsset = icon(
  'Asset',
  <>
    <path d="M3.5 20V10l5 3V10l5 3V6.5h3l1 4.5h3V20Z" />
    <path d="M7 17h2M12 17h2" />
  </>,
);
export const IconTemplate = icon(
  'Template',
  <>
    <path d="m12 4 8 4-8 4-8-4Z" />
    <path d="m4 12 8 4 8-4M4 16l8 4 8-4" />
  </>,
);
export const IconDetails = icon(
  'Details',
  <>
    <rect x="4" y="4" width="16" height="16" rx="2" />
    <path d="M8 9h8M8 12.5h8M8 16h5" />
  </>,
);
export const IconTask = icon(
  'Task',
  <>
    <rect x="5" y="4" width="14" height="17" rx="2" />
    <path d="M9 4V3h6v1M8.5 10.5l1.5 1.5 3-3M8.5 16h7" />
  </>,
);
export const IconUsers = icon(
  'Users',
  <>
    <circle cx="9" cy="8.5" r="3" />
    <path d="M3.5 19a5.5 5.5 0 0 1 11 0" />
    <path d="M15.5 5.8a3 3 0 0 1 0 5.4M17.5 14a5.5 5.5 0 0 1 3 5" />
  </>,
);
export const IconAccounts = icon(
  'Accounts',
  <>
    <path d="M4 20V5.5A1.5 1.5 0 0 1 5.5 4h7A1.5 1.5 0 0 1 14 5.5V20" />
    <path d="M14 10h4.5a1.5 1.5 0 0 1 1.5 1.5V20M3 20h18" />
    <path d="M7.5 8h3M7.5 11.5h3M7.5 15h3" />
  </>,
);
export const IconShield = icon(
  'Shield',
  <>
    <path d="M12 3.5 5 6v5.5c0 4.2 2.9 7.6 7 9 4.1-1.4 7-4.8 7-9V6Z" />
    <path d="m9 12 2 2 4-4" />
  </>,
);
export const IconService = icon(
  'Service',
  <path d="M14.7 6.3a4 4 0 0 0-5.3 5.2L4 17l3 3 5.5-5.4a4 4 0 0 0 5.2-5.3l-2.4 2.4-2.4-.6-.6-2.4Z" />,
);
export const IconHistory = icon(
  'History',
  <>
    <path d="M4.5 12a7.5 7.5 0 1 0 2.2-5.3L4.5 9" />
    <path d="M4.5 4.5V9H9M12 8v4l2.5 2.5" />
  </>,
);
export const IconRelease = icon(
  'Release',
  <>
    <path d="m12 3.5 7.5 4.2v8.6L12 20.5l-7.5-4.2V7.7Z" />
    <path d="m4.5 7.7 7.5 4.3 7.5-4.3M12 12v8.5" />
  </>,
);
export const IconAlarm = icon(
  'Alarm',
  <>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15Z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </>,
);
export const IconMenu = icon('Menu', <path d="M4 6.5h16M4 12h16M4 17.5h16" />);
export const IconChevronDown = icon('ChevronDown', <path d="m6 9 6 6 6-6" />);
export const IconDots = icon(
  'Dots',
  <>
    <circle cx="5.5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="18.5" cy="12" r="1" />
  </>,
);
export const IconUser = icon(
  'User',
  <>
    <circle cx="12" cy="12" r="8.5" />
    <circle cx="12" cy="10" r="3" />
    <path d="M6.6 18.3a6 6 0 0 1 10.8 0" />
  </>,
);
export const IconLogout = icon(
  'Logout',
  <>
    <path d="M14 8V5.5A1.5 1.5 0 0 0 12.5 4h-7A1.5 1.5 0 0 0 4 5.5v13A1.5 1.5 0 0 0 5.5 20h7a1.5 1.5 0 0 0 1.5-1.5V16" />
    <path d="M9 12h11m-3-3 3 3-3 3" />
  </>,
);
export const IconCheck = icon('Check', <path d="m5 12.5 4.5 4.5L19 7.5" />);
export const IconSearch = icon(
  'Search',
  <>
    <circle cx="10.5" cy="10.5" r="6" />
    <path d="m15 15 5 5" />
  </>,
);
export const IconWorld = icon(
  'World',
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M3.5 12h17M12 3.5c2.3 2.4 3.4 5.2 3.4 8.5s-1.1 6.1-3.4 8.5c-2.3-2.4-3.4-5.2-3.4-8.5S9.7 5.9 12 3.5Z" />
  </>,
);
