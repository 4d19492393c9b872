import { msg } from '@lingui/core/macro';
import { AreaPage } from '../areas/area-page';

/** Interim: the devices work builds the details. */
export function DeviceDetailsPage() {
  return <AreaPage title={msg`Asset`} />;
}
