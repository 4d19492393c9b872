import { msg } from '@lingui/core/macro';
import { SECURITY_INSIGHTS_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * Security insights' texts that come from the server or the shared schema (issue 38 item 1):
 * added to the translation table when the area's chunk loads.
 */
addServerTexts([
  [SECURITY_INSIGHTS_TEXTS.reasonMissing, msg`Please say why this check is dismissed.`],
  [
    SECURITY_INSIGHTS_TEXTS.expiryInvalid,
    msg`Choose an end in the future, at most a year from today.`,
  ],
  [
    SECURITY_INSIGHTS_TEXTS.dismissForbidden,
    msg`Only an administrator of the account dismisses a check.`,
  ],
  [SECURITY_INSIGHTS_TEXTS.notDismissed, msg`This check is not dismissed.`],
  [SECURITY_INSIGHTS_TEXTS.periodInvalid, msg`Choose 7, 30 or 90 days.`],
]);
