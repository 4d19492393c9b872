import { msg } from '@lingui/core/macro';
import { CALL_TEXTS, SERVICE_REQUEST_TEXTS } from '@plant/shared-schema';
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
  [
    SERVICE_REQUEST_TEXTS.assigneeNotAgent,
    msg`Only a service agent can be assigned: calls about the request go to them.`,
  ],
]);

// The spec's call texts (spec 001 §8) and the server's refusals of calls.
addServerTexts([
  [CALL_TEXTS.noAgent, msg`All agents busy or not available`],
  [CALL_TEXTS.noScreen, msg`Screen cannot be shared (check permission)`],
  [CALL_TEXTS.noSignalling, msg`No connection with the discovery service possible`],
  [CALL_TEXTS.sendFailed, msg`Error sending the request, try again later`],
  [CALL_TEXTS.callEnded, msg`This call has ended.`],
  [CALL_TEXTS.notParty, msg`You are not part of this call.`],
]);
