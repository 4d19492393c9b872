import { z } from 'zod';
import { deferred } from '../deferred';
import { modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { STATIC_IP_MISSING } from './gateway-texts';
export { STATIC_IP_MISSING } from './gateway-texts';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ipv4 = (message: string) => z.string().regex(IPV4, message).nullable().default(null);

/** A gateway collecting Modbus TCP, OPC UA and S7 data (spec 001 §3). */
export const gatewayAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    serial: z.string().max(100).default(''),
    ip: ipv4('Please enter a valid IPv4 address'),
    subnet_mask: ipv4('Please enter a valid subnet mask'),
    dns1: ipv4('Please enter a valid IPv4 address'),
    dns2: ipv4('Please enter a valid IPv4 address'),
    ip_assignment: z.enum(['static', 'dhcp']).default('dhcp'),
    /** Free words a rollout may choose gateways by (like an asset's tags). */
    tags: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
    /** The board it runs on (release management): a release for other boards is refused for it. */
    board_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid id given.')
      .nullable()
      .default(null),
    connection: z.enum(['online', 'offline']).default('offline'),
    last_seen: z.iso.datetime().nullable().default(null),
    /** What the agent reported last (the server writes it): version, configuration, addresses. */
    agent: z
      .object({
        version: z.string().max(50),
        config_version: z.number().int().nullable(),
        started_at: z.number().int(),
        addresses: z
          .array(
            z.object({
              interface: z.string().max(100),
              family: z.enum(['IPv4', 'IPv6']),
              address: z.string().max(100),
              netmask: z.string().max(100),
            }),
          )
          .max(64),
        problems: z.array(z.string().max(500)).max(20).default([]),
      })
      .nullable()
      .default(null),
  }),
);
export type GatewayAttributes = z.infer<typeof gatewayAttributesSchema>;

export function gatewayProblems(g: GatewayAttributes): Record<string, string[]> {
  if (g.ip_assignment !== 'static') return {};
  const problems: Record<string, string[]> = {};
  if (g.ip === null) problems.ip = [STATIC_IP_MISSING];
  if (g.subnet_mask === null) problems.subnet_mask = [STATIC_IP_MISSING];
  return problems;
}

export const gatewayModel = {
  type: 'gateway',
  collection: 'gateways',
  parentType: 'account',
  attributes: gatewayAttributesSchema,
  refs: { board_id: 'board' },
  permissions: ownPermissions('gateway'),
  sortField: 'name',
  serverFields: ['connection', 'last_seen', 'agent'],
} as const satisfies ModelDefinition<'gateway', typeof gatewayAttributesSchema>;
