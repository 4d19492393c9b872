/** The spec's texts of calls (spec 001 §8), English ids the client translates. */
export const CALL_TEXTS = {
  noAgent: 'All agents busy or not available',
  noScreen: 'Screen cannot be shared (check permission)',
  noSignalling: 'No connection with the discovery service possible',
  sendFailed: 'Error sending the request, try again later',
  callEnded: 'This call has ended.',
  notParty: 'You are not part of this call.',
} as const;
