import { z } from 'zod';
import { deferred } from '../deferred';
import { GATEWAY_REF_MESSAGE } from './link-gateway-texts';
export { GATEWAY_REF_MESSAGE } from './link-gateway-texts';

/**
 * GET /api/v1/linkGateway?id= (spec 000 §2 /scan?id=, §7): `id` is what a gateway's QR code
 * carries, its id or its serial number.
 */
export const linkGatewayQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z
      .string({ error: GATEWAY_REF_MESSAGE })
      .trim()
      .min(1, { error: GATEWAY_REF_MESSAGE, abort: true })
      .max(100, GATEWAY_REF_MESSAGE)
      // No control characters (a QR code's text is one printable line).
      .regex(/^\P{Cc}+$/u, GATEWAY_REF_MESSAGE),
  }),
);
export type LinkGatewayQuery = z.infer<typeof linkGatewayQuerySchema>;

/**
 * The answer's `data`: where the client goes next, and the account to switch to first when the
 * gateway is in another of the user's accounts than the active one (null: stay).
 */
export const linkGatewayResultSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The client route of the gateway, e.g. /app/gateways/{id}/details (appPaths.gatewayDetails). */
    path: z.string(),
    account: z.object({ id: z.string(), name: z.string() }).nullable(),
  }),
);
export type LinkGatewayResult = z.infer<typeof linkGatewayResultSchema>;
