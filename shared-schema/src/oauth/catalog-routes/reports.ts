import { z } from 'zod';
import { reportRunFileParamsSchema, reportRunSchema, reportRunsSchema } from '../../api/reports';
import { needs, type ApiRoute } from '../route-access';
import { data, idParams } from './shared';

/** Reports' calls beside the generic model routes (issue 31 items 4 and 5). */
export const REPORT_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/reports/:id/send',
    access: needs('dashboards:write'),
    tag: 'Reports',
    summary: 'Sends the report now (report::edit): answers the run it made.',
    params: idParams,
    response: data(reportRunSchema),
  },
  {
    method: 'GET',
    path: '/reports/:id/runs',
    access: needs('dashboards:read'),
    tag: 'Reports',
    summary: "A report's runs, newest first: each one's state, recipients and files.",
    params: idParams,
    response: data(reportRunsSchema),
  },
  {
    method: 'GET',
    path: '/reports/:id/runs/:runid/files/:index',
    access: needs('dashboards:read'),
    tag: 'Reports',
    summary: "One file of a run (a recipient's PDF or CSV), to who may see all it shows.",
    params: reportRunFileParamsSchema.extend({ index: z.string().max(8) }),
  },
];
