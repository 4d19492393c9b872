import { msg } from '@lingui/core/macro';
import { AreaPage } from '../areas/area-page';

/** Interim: the devices work builds the list. */
export function DevicesListPage() {
  return <AreaPage title={msg`Assets`} />;
}
