/*
 * The integrations' texts (issue 37 item 6): English message ids that the schemas, the write
 * rules and the webhook deliveries send; the client translates them (its integration area's
 * server-texts.ts). Apart from the model's schemas, so that importing them pulls no zod.
 */
export const INTEGRATION_TEXTS = {
  slug: 'An address is lower-case letters, digits and hyphens, like alarm-webhook.',
  slugTaken: 'Another integration has this address already.',
  url: 'Please enter an http:// or https:// address.',
  unknownAsset: 'Choose assets of this account.',
  allAssets: 'Only who sees every asset may send the events of all assets.',
  notWebhook: 'Only a webhook has a signing secret.',
  secretUnreadable: 'The signing secret cannot be read on this server: make a new one.',
  notPublic: 'The address is not public: webhooks post to public addresses only.',
  timeout: 'The receiver did not answer in time.',
  turnedOff: 'The integration was turned off before this was sent.',
  notCovered: 'The integration no longer sends this asset.',
} as const;
