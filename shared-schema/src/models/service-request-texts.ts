/** The texts of service-request checks (English message ids; the client translates them). */
export const SERVICE_REQUEST_TEXTS = {
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  fieldNotYours: 'You may not change this on this request.',
  moveNotYours: 'You may not move this request to that state.',
  assigneeRequired: 'Choose the agent it is assigned to.',
  assigneeLeft: 'Remove the agent first.',
  assignWithMove: 'Assign or unassign it with its button.',
  assigneeNotMember: 'Only a member of the account can be assigned.',
  assigneeNotAgent: 'Only a service agent can be assigned: calls about the request go to them.',
} as const;
