import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type {
  TicketAction,
  TicketBoard,
  TicketImportance,
  TicketKind,
  TicketProgress,
  TicketState,
} from '@plant/shared-schema';

/** Spec 001 §4's state words. */
export const STATE_WORDS: Record<TicketState, MessageDescriptor> = {
  new: msg`New`,
  not_assigned: msg`Not assigned`,
  assigned: msg`Assigned`,
  pending: msg`Pending`,
  answered: msg`Answered`,
  responded: msg`Responded`,
  not_responded: msg`Not responded`,
  declined: msg`Declined`,
  closed: msg`Closed`,
};

/** Spec 001 §4's message progress. */
export const PROGRESS_WORDS: Record<TicketProgress, MessageDescriptor> = {
  received: msg`Received`,
  being_worked_on: msg`Being worked on`,
  shipped_next_release: msg`Tested internally and shipped with the next release`,
  fixed: msg`Fixed`,
};

export const IMPORTANCE_WORDS: Record<TicketImportance, MessageDescriptor> = {
  Low: msg`Low`,
  Medium: msg`Medium`,
  Critical: msg`Critical`,
  Emergency: msg`Emergency`,
};

export const BOARD_WORDS: Record<TicketBoard, MessageDescriptor> = {
  platform: msg`Platform`,
  hardware: msg`Hardware`,
  operations: msg`Operations`,
};

export const KIND_WORDS: Record<TicketKind, MessageDescriptor> = {
  problem: msg`Problems`,
  feature: msg`Features`,
};

/** The buttons of the table's moves (shared-schema TICKET_MOVES `action`). */
export const ACTION_WORDS: Record<TicketAction, MessageDescriptor> = {
  Approve: msg`Approve`,
  'Approve and assign': msg`Approve and assign`,
  Decline: msg`Decline`,
  Withdraw: msg`Withdraw`,
  Assign: msg`Assign`,
  Unassign: msg`Unassign`,
  Answer: msg`Answer`,
  'Put on hold': msg`Put on hold`,
  Resume: msg`Resume`,
  Respond: msg`Respond`,
  'Mark as not responded': msg`Mark as not responded`,
  Close: msg`Close`,
  Reopen: msg`Reopen`,
};

/** A state's colour in badges. */
export const STATE_COLORS: Record<TicketState, string> = {
  new: 'blue',
  not_assigned: 'gray',
  assigned: 'indigo',
  pending: 'yellow',
  answered: 'teal',
  responded: 'cyan',
  not_responded: 'orange',
  declined: 'red',
  closed: 'dark',
};
