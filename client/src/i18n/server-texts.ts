import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ACCOUNT_CHANGED_MESSAGE, ERROR_TEXTS } from '@plant/shared-schema';

/**
 * Texts the server and the worker send in English (spec 000 §8 and the shared schemas): listed
 * here so that lingui extracts them and the user reads them in the chosen language. A text not
 * listed is shown as it came.
 */
const KNOWN = new Map<string, MessageDescriptor>([
  [ERROR_TEXTS.unknown, msg`An unknown error occured.`],
  [ERROR_TEXTS.emptyBody, msg`Error in endpoint occured`],
  [ACCOUNT_CHANGED_MESSAGE, msg`This change was made in another account than the active one.`],
  ['Invalid id or type given.', msg`Invalid id or type given.`],
  [
    'The component already has a running request!',
    msg`The component already has a running request!`,
  ],
  ['Wrong credentials!', msg`Wrong credentials!`],
]);

export function translateServerText(
  i18n: I18n,
  text: string,
  params?: Readonly<Record<string, string | number>>,
): string {
  const known = KNOWN.get(text);
  // A text we do not know is shown as it came, with its translationParams put in place.
  if (known === undefined) {
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      params !== undefined && name in params ? String(params[name]) : whole,
    );
  }
  const descriptor: MessageDescriptor = { ...known, values: { ...params } };
  return i18n._(descriptor);
}
