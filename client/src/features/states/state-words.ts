import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { GatewayUpdateState, ServiceRequestState } from '@plant/shared-schema';

/*
 * States shown by more than one area (the service booklet shows requests and updates): their
 * words are in each of those areas' catalogues (lingui.config.ts SHARING), none in the main one.
 */

/** A service request's states in words. */
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

/** A gateway's part of a rollout, its state in words (the rollout's page, the service booklet). */
export const UPDATE_STATE_WORDS: Record<GatewayUpdateState, MessageDescriptor> = {
  pending: msg`Pending`,
  downloading: msg`Downloading`,
  installing: msg`Installing`,
  succeeded: msg`Succeeded`,
  failed: msg`Failed`,
  rolled_back: msg`Rolled back`,
};

export const UPDATE_STATE_COLORS: Record<GatewayUpdateState, string> = {
  pending: 'gray',
  downloading: 'blue',
  installing: 'indigo',
  succeeded: 'green',
  failed: 'red',
  rolled_back: 'orange',
};
