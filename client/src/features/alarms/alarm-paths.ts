import type { RouteRequirement } from '@plant/shared-schema';

const seg = (value: string) => encodeURIComponent(value);

/** The alarm screens' addresses (issue 17), built in one place. */
export const alarmPaths = {
  list: () => '/app/alarms',
  /** An alarm's page: what a push notification opens. */
  alarm: (id: string) => `/app/alarms/${seg(id)}`,
} as const;

/** What the alarm screens (and the menu's entry) need. */
export const ALARMS_REQUIREMENT: RouteRequirement = { permission: 'alarm::view' };
