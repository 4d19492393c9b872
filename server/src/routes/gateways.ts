import { Hono } from 'hono';
import { z } from 'zod';
import {
  idField,
  linkGatewayQuerySchema,
  opcuaBrowseBodySchema,
  opcuaSearchBodySchema,
} from '@plant/shared-schema';
import type { ValuesService } from '../gateways/values.service';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams, validQuery } from '../http/validate';
import type { Services } from '../services';

const gatewayParams = z.object({ id: idField });

/** Gateway calls beyond the generic model routes. */
export function gatewayRoutes(services: Services, values: ValuesService) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  // A scanned QR code (spec 000 §2 /scan?id=): where to go, and which account to switch to first.
  // gateway::view and the account are checked per account in the service.
  app.get('/linkGateway', auth, async (c) => {
    const { id } = validQuery(c, linkGatewayQuerySchema);
    return c.json({ data: await services.gateways.link(c.get('session'), id) });
  });

  // The agent's broker credentials (DESIGN.md §8): made (the old ones end), listed, revoked.
  // gateway::edit and the active account are checked in the service.
  app.post('/gateways/:id/credentials', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    const made = await services.gatewayCredentials.make(c.get('session'), id);
    return c.json({ data: made }, 201);
  });

  app.get('/gateways/:id/credentials', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    return c.json({ data: await services.gatewayCredentials.list(c.get('session'), id) });
  });

  app.delete('/gateways/:id/credentials', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    const revoked = await services.gatewayCredentials.revoke(c.get('session'), id);
    return c.json({ data: { revoked } });
  });

  // The agent's recent log lines (the gateway's logs page).
  app.get('/gateways/:id/logs', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    return c.json({ data: await values.gatewayLogs(c.get('session'), id) });
  });

  // The terminal's audit list: every command sent to the gateway, by whom, and its answer.
  app.get('/gateways/:id/terminal', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    return c.json({ data: await values.terminalAudit(c.get('session'), id) });
  });

  // The OPC UA address space of a connection, through the gateway's agent (up to a minute).
  app.post('/gateways/:id/opcua/browse', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    const body = await validBody(c, opcuaBrowseBodySchema);
    const request = {
      op: 'opcua-browse' as const,
      connection_id: body.connection_id,
      ...(body.node_id === undefined ? {} : { node_id: body.node_id }),
    };
    return c.json({ data: await values.opcua(c.get('session'), id, request) });
  });

  app.post('/gateways/:id/opcua/search', auth, async (c) => {
    const { id } = validParams(c, gatewayParams);
    const body = await validBody(c, opcuaSearchBodySchema);
    return c.json({
      data: await values.opcua(c.get('session'), id, { op: 'opcua-search', ...body }),
    });
  });

  return app;
}
