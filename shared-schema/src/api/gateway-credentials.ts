import { z } from 'zod';
import { deferred } from '../deferred';

/**
 * A gateway agent's broker sign-in (DESIGN.md §8): user name and client id follow from the
 * gateway's id, the secret is made on the gateway's page and shown once.
 */
export const GATEWAY_USERNAME_PREFIX = 'gateway-';
export const gatewayBrokerLogin = (gatewayId: string) => ({
  username: `${GATEWAY_USERNAME_PREFIX}${gatewayId}`,
  clientId: `${GATEWAY_USERNAME_PREFIX}${gatewayId}`,
});

/** POST gateways/{id}/credentials: the new credentials, the secret shown this once. */
export const gatewayCredentialsMadeSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    gateway_id: z.string(),
    username: z.string(),
    client_id: z.string(),
    secret: z.string(),
    created_at: z.string(),
  }),
);
export type GatewayCredentialsMade = z.infer<typeof gatewayCredentialsMadeSchema>;

/** GET gateways/{id}/credentials: the live ones, without secrets (only their hashes are kept). */
export const gatewayCredentialListSchema = /* @__PURE__ */ deferred(() =>
  z.array(z.object({ id: z.string(), created_at: z.string(), created_by: z.string().nullable() })),
);
export type GatewayCredentialList = z.infer<typeof gatewayCredentialListSchema>;
