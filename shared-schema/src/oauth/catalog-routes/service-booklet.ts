import { serviceBookletQuerySchema } from '../../api/service-booklet';
import { needs, type ApiRoute } from '../route-access';
import { idParams } from './shared';

/** The service booklet's PDF (issue 37 item 3), beside the synced models it is drawn from. */
export const SERVICE_BOOKLET_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/assets/:id/servicebooklet.pdf',
    access: needs('service:read'),
    tag: 'Service booklet',
    summary:
      "An asset's service booklet as a PDF (application/pdf): filled-in forms, acknowledged alarms, service requests and its gateway's updates, newest first, each kind only where the caller may view it.",
    params: idParams,
    query: serviceBookletQuerySchema,
  },
];
