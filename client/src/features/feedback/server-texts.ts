import { msg } from '@lingui/core/macro';
import { TICKET_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The feedback centre's texts that come from the server or the shared schemas (issue 34): added
 * to the translation table when the area's chunk loads.
 */
addServerTexts([
  [TICKET_TEXTS.titleRequired, msg`Title is required`],
  [TICKET_TEXTS.descriptionRequired, msg`Description is required`],
  [TICKET_TEXTS.messageRequired, msg`Field is required`],
  [TICKET_TEXTS.fieldNotYours, msg`You may not change this on this ticket.`],
  [TICKET_TEXTS.moveNotYours, msg`You may not move this ticket to that state.`],
  [TICKET_TEXTS.answerRequired, msg`An answer to the reporter is required.`],
  [TICKET_TEXTS.assigneeRequired, msg`Choose who it is assigned to.`],
  [TICKET_TEXTS.assigneeLeft, msg`Remove the assignee first.`],
  [TICKET_TEXTS.assignWithMove, msg`Assign or unassign it with its button.`],
  [TICKET_TEXTS.assigneeNotMember, msg`Only a member of the account can be assigned.`],
  [TICKET_TEXTS.progressOfProblems, msg`Only a problem has a progress.`],
  [TICKET_TEXTS.statusOfFeatures, msg`Only a feature request has a feature status.`],
  [TICKET_TEXTS.votesOfFeatures, msg`Only feature requests are voted for.`],
  [TICKET_TEXTS.votedAlready, msg`You voted for it already.`],
  [TICKET_TEXTS.voteNotYours, msg`Only your own vote can be taken back.`],
  [
    TICKET_TEXTS.photoNotYours,
    msg`Only the reporter of a new ticket or a feedback admin changes its picture.`,
  ],
]);
