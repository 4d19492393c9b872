import { msg } from '@lingui/core/macro';
import { AreaPage } from '../areas/area-page';

/** Interim: the user area's work builds this screen. */
export function RegisterPage() {
  return <AreaPage title={msg`RegisterPage`} />;
}
