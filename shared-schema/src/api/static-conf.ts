import { z } from 'zod';
import { deferred } from '../deferred';
import { accountDesignSchema } from './user';

/**
 * `GET /staticconf` (spec 000 §7, at the origin, no token): what a client needs before anyone
 * signs in, and the map's optional detail source.
 */
export const staticConfSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /**
     * The theme of the account tied to the host asked (else the machine builder's): the sign-in
     * page shows its title, colours, logos and login image before anyone signs in (issue 36).
     */
    theme: accountDesignSchema.extend({ name: z.string() }),
    /** Whether the host asked is tied to an account (its theme then wins on the sign-in page). */
    host_tied: z.boolean(),
    /** The first-party OAuth client the sign-in screen uses. */
    client_id: z.string(),
    languages: z.array(z.string()),
    defaultLanguage: z.string(),
    direction: z.enum(['ltr', 'rtl']),
    /**
     * An XYZ raster tile address (`https://…/{z}/{x}/{y}.png`, the server's MAP_TILES_URL) drawn
     * over the map's shipped base layer for detail; absent: the base layer alone.
     */
    map_tiles_url: z.string().optional(),
  }),
);
export type StaticConf = z.infer<typeof staticConfSchema>;
