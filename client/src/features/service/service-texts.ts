import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ServiceAction, ServiceRequestState } from '@plant/shared-schema';

/** A request's states in words. */
export const SERVICE_STATE_WORDS: Record<ServiceRequestState, MessageDescriptor> = {
  // "Open" the state, not the verb of buttons elsewhere (one id is one text across catalogues).
  open: msg({ message: 'Open', context: 'service request state' }),
  assigned: msg`Assigned`,
  in_progress: msg`In progress`,
  resolved: msg`Resolved`,
  closed: msg`Closed`,
};

export const SERVICE_STATE_COLORS: Record<ServiceRequestState, string> = {
  open: 'blue',
  assigned: 'indigo',
  in_progress: 'orange',
  resolved: 'teal',
  closed: 'gray',
};

/** The moves' buttons (shared-schema SERVICE_ACTIONS). */
export const SERVICE_ACTION_WORDS: Record<ServiceAction, MessageDescriptor> = {
  Assign: msg`Assign`,
  Unassign: msg`Unassign`,
  'Start work': msg`Start work`,
  'Mark as resolved': msg`Mark as resolved`,
  'Not solved': msg`Not solved`,
  Close: msg`Close`,
  Withdraw: msg`Withdraw`,
};
