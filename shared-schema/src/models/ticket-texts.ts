/** The feedback centre's check texts (English message ids; the client translates them). */
export const TICKET_TEXTS = {
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  messageRequired: 'Field is required',
  fieldNotYours: 'You may not change this on this ticket.',
  moveNotYours: 'You may not move this ticket to that state.',
  answerRequired: 'An answer to the reporter is required.',
  assigneeRequired: 'Choose who it is assigned to.',
  assigneeLeft: 'Remove the assignee first.',
  assignWithMove: 'Assign or unassign it with its button.',
  assigneeNotMember: 'Only a member of the account can be assigned.',
  progressOfProblems: 'Only a problem has a progress.',
  statusOfFeatures: 'Only a feature request has a feature status.',
  votesOfFeatures: 'Only feature requests are voted for.',
  votedAlready: 'You voted for it already.',
  voteNotYours: 'Only your own vote can be taken back.',
  photoNotYours: 'Only the reporter of a new ticket or a feedback admin changes its picture.',
} as const;
