import {
  integrationSecretSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesSchema,
} from '../../api/integrations';
import { needs, type ApiRoute } from '../route-access';
import { data, idParams } from './shared';

/** Webhook integrations' calls beside the generic model routes (issue 37 item 6). */
export const INTEGRATION_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/integrations/:id/deliveries',
    access: needs('service:read'),
    tag: 'Integrations',
    summary:
      "A webhook's delivery log, newest first (integration::view): each delivery's state and tries; with asset_id, that asset's only.",
    params: idParams,
    query: webhookDeliveriesQuerySchema,
    response: data(webhookDeliveriesSchema),
  },
  {
    method: 'GET',
    path: '/integrations/:id/secret',
    access: needs('service:write'),
    tag: 'Integrations',
    summary: "A webhook's signing secret (integration::edit), made at its first need.",
    params: idParams,
    response: data(integrationSecretSchema),
  },
  {
    method: 'POST',
    path: '/integrations/:id/secret',
    access: needs('service:write'),
    tag: 'Integrations',
    summary:
      "Makes a webhook's signing secret anew (integration::edit); the old one stops at once.",
    params: idParams,
    response: data(integrationSecretSchema),
  },
];
