import sharp from 'sharp';
import type { Db } from '../db/database';
import { keepBytes, type BlobStore } from '../files/blob-store';
import type { Clock } from '../lib/clock';
import { seedWrites } from './seed-writes';

/*
 * The demo's themes and jobs (issue 36 item 4): the machine builder's own theme, and the one it
 * made for its customer "Customer North", picked there and shown on the sign-in page of the host
 * tied to that account (north.localhost: browsers send *.localhost to this computer, so it works
 * as is); two published jobs on the public pages.
 */
export const DEMO_THEMES = {
  // Its brand, shown to its customers' accounts too: not the account's name, which they never see.
  root: { title: 'Demo Machines', color1: '#0b5394', color2: '#7f6000' },
  north: { title: 'Customer North', color1: '#38761d', color2: '#274e13' },
} as const;

/** The demo's published jobs (issue 36 item 4), shown on /jobs. */
export const DEMO_JOBS = [
  {
    title: 'Service technician',
    slug: 'service-technician',
    location: 'Stuttgart, Germany',
    scope: 'Field service for our customers’ machines in Europe, about 40% travel',
    full_time: true,
    permanent: true,
    text: 'You commission our machines at customers’ plants and keep them running.\n\nYou bring an electrical or mechatronics training and like to travel.',
    apply_url: 'mailto:jobs@demo.local',
    published: true,
  },
  {
    title: 'Automation engineer (PLC)',
    slug: 'automation-engineer-plc',
    location: 'Remote or Stuttgart, Germany',
    scope: 'Siemens S7 and OPC UA programs of our plants',
    full_time: false,
    permanent: false,
    text: 'You write and test the PLC programs of new plants and their data streams.',
    apply_url: 'https://jobs.demo.example/apply',
    published: true,
  },
] as const;

/** The host tied to Customer North in the demo. */
export const DEMO_NORTH_HOST = 'north.localhost';

/** A logo of one colour (the demo has no artwork): a PNG of 240 x 60 pixels. */
async function demoLogo(colour: string): Promise<Uint8Array> {
  const png = await sharp({
    create: { width: 240, height: 60, channels: 3, background: colour },
  })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

export async function seedDemoThemes(
  trx: Db,
  clock: Clock,
  rootId: string,
  northId: string,
  blobs: BlobStore | undefined,
): Promise<void> {
  const writes = seedWrites(trx, clock, rootId, 'demo themes');
  const rootTheme = await writes.create('themes', { ...DEMO_THEMES.root });
  const northTheme = await writes.create('themes', { ...DEMO_THEMES.north });
  if (blobs !== undefined) {
    const bytes = await demoLogo(DEMO_THEMES.north.color1);
    const sha256 = await keepBytes(blobs, rootId, bytes);
    const logo = await writes.create('files', {
      theme_id: northTheme,
      kind: 'image',
      name: 'customer-north-logo.png',
      type: 'image/png',
      size: bytes.byteLength,
      sha256,
      state: 'ready',
    });
    await writes.update('themes', northTheme, { logo_desktop: logo, logo_mobile: logo });
  }
  for (const job of DEMO_JOBS) await writes.create('jobs', { ...job });
  await trx.updateTable('accounts').set({ theme_id: rootTheme }).where('id', '=', rootId).execute();
  await trx
    .updateTable('accounts')
    .set({ theme_id: northTheme, host: DEMO_NORTH_HOST })
    .where('id', '=', northId)
    .execute();
}
