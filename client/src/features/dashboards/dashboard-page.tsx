import { msg } from '@lingui/core/macro';
import { useParams } from '@tanstack/react-router';
import { useRecordVisit } from '../../state/recent';
import { AreaPage } from '../areas/area-page';

const TITLE = msg`Dashboard`;

/**
 * /app/dashboards/{dashboardid}: the area's empty state until dashboards are built, but the visit
 * is recorded already for Home's "Recently opened" (issue 30 item 4), so it fills in once they are.
 */
export function DashboardPage() {
  const { dashboardid = '' }: { dashboardid?: string } = useParams({ strict: false });
  useRecordVisit('dashboard', dashboardid === '' ? null : dashboardid);
  return <AreaPage title={TITLE} />;
}
