import { msg } from '@lingui/core/macro';
import { SERVICE_REQUEST_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The service requests' texts that come from the server or the shared schemas (issue 34): added
 * to the translation table when the area's chunk loads.
 */
addServerTexts([
  [SERVICE_REQUEST_TEXTS.titleRequired, msg`Title is required`],
  [SERVICE_REQUEST_TEXTS.descriptionRequired, msg`Description is required`],
  [SERVICE_REQUEST_TEXTS.fieldNotYours, msg`You may not change this on this request.`],
  [SERVICE_REQUEST_TEXTS.moveNotYours, msg`You may not move this request to that state.`],
  [SERVICE_REQUEST_TEXTS.assigneeRequired, msg`Choose the agent it is assigned to.`],
  [SERVICE_REQUEST_TEXTS.assigneeLeft, msg`Remove the agent first.`],
  [SERVICE_REQUEST_TEXTS.assignWithMove, msg`Assign or unassign it with its button.`],
  [SERVICE_REQUEST_TEXTS.assigneeNotMember, msg`Only a member of the account can be assigned.`],
]);
