import type { ServiceRequestAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { DEMO_SERVICE_REQUEST } from '../../server/src/seed/demo-feedback';
import type { E2e } from './fixture';

/**
 * The demo's service request (DEMO_SERVICE_REQUEST), as the technician's account has it on the
 * server: the model (undefined when the seed lacks it), its page in the app, and its calls as
 * the server keeps them now.
 */
export async function demoServiceRequest(e2e: E2e): Promise<{
  readonly request: Awaited<ReturnType<E2e['serverModels']>>[number] | undefined;
  readonly path: string;
  readonly calls: () => Promise<ServiceRequestAttributes['calls']>;
}> {
  const tech = await e2e.session(DEMO_USERS.tech);
  const request = (await e2e.serverModels(tech.accountId, 'service_request')).find(
    (m) => (m.attributes as ServiceRequestAttributes).title === DEMO_SERVICE_REQUEST,
  );
  return {
    request,
    path: `/app/service/${request?.id ?? ''}/details`,
    calls: async () => {
      const now = await e2e.serverModels(tech.accountId, 'service_request');
      return (now.find((m) => m.id === request?.id)?.attributes as ServiceRequestAttributes).calls;
    },
  };
}
