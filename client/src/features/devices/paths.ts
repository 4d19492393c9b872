import { appPaths } from '@plant/shared-schema';

const seg = (value: string) => encodeURIComponent(value);

/** The app's addresses of the devices area (spec 000 §2), built in one place. */
export const devicePaths = {
  list: () => '/app/devices/list',
  details: (id: string) => `/app/devices/${seg(id)}/details`,
  /** A data stream of the asset: its diagram (spec 000 §2). */
  stream: (id: string, streamId: string) => `/app/devices/${seg(id)}/input/${seg(streamId)}`,
  gatewayDetails: (id: string) => appPaths.gatewayDetails(id),
} as const;
