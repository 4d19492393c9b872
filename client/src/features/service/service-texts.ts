import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ServiceAction } from '@plant/shared-schema';

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
