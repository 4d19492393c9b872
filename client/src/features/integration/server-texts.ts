import { msg } from '@lingui/core/macro';
import { INTEGRATION_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * The integrations' texts that come from the server or the shared schemas (issue 37 item 6):
 * added to the translation table when the area's chunk loads.
 */
addServerTexts([
  [
    INTEGRATION_TEXTS.slug,
    msg`An address is lower-case letters, digits and hyphens, like alarm-webhook.`,
  ],
  [INTEGRATION_TEXTS.slugTaken, msg`Another integration has this address already.`],
  [INTEGRATION_TEXTS.url, msg`Please enter an http:// or https:// address.`],
  [INTEGRATION_TEXTS.unknownAsset, msg`Choose assets of this account.`],
  [INTEGRATION_TEXTS.allAssets, msg`Only who sees every asset may send the events of all assets.`],
  [INTEGRATION_TEXTS.notWebhook, msg`Only a webhook has a signing secret.`],
  [
    INTEGRATION_TEXTS.secretUnreadable,
    msg`The signing secret cannot be read on this server: make a new one.`,
  ],
  [
    INTEGRATION_TEXTS.notPublic,
    msg`The address is not public: webhooks post to public addresses only.`,
  ],
  [INTEGRATION_TEXTS.timeout, msg`The receiver did not answer in time.`],
  [INTEGRATION_TEXTS.turnedOff, msg`The integration was turned off before this was sent.`],
  [INTEGRATION_TEXTS.notCovered, msg`The integration no longer sends this asset.`],
]);
