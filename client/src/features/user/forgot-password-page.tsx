import { msg } from '@lingui/core/macro';
import { AreaPage } from '../areas/area-page';

/** Interim: the user area's work builds this screen. */
export function ForgotPasswordPage() {
  return <AreaPage title={msg`ForgotPasswordPage`} />;
}
