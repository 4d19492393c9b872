import { msg } from '@lingui/core/macro';
import { TWO_FACTOR_TEXTS } from '@plant/shared-schema';
import { addServerTexts } from '../../i18n/server-texts';

/*
 * Two-factor sign-in's server texts (issue 38 item 2), added as its screens' chunks load: the
 * first visit of other pages does not carry them. Each of those screens imports this module.
 */
addServerTexts([
  [
    TWO_FACTOR_TEXTS.codeRequired,
    msg`Enter the code from your authenticator app, a recovery code, or use a passkey.`,
  ],
  [TWO_FACTOR_TEXTS.codeWrong, msg`The code is not valid. Please try again.`],
  [TWO_FACTOR_TEXTS.codeFormat, msg`Please enter the 6-digit code from your authenticator app.`],
  [
    TWO_FACTOR_TEXTS.setupRequired,
    msg`Your account requires two-factor sign-in. Please set it up to continue.`,
  ],
  [
    TWO_FACTOR_TEXTS.setupNotDue,
    msg`Two-factor sign-in is set up already, or not required for you.`,
  ],
  [TWO_FACTOR_TEXTS.alreadyOn, msg`Two-factor sign-in with an authenticator app is on already.`],
  [TWO_FACTOR_TEXTS.notOn, msg`Two-factor sign-in with an authenticator app is not on.`],
  [TWO_FACTOR_TEXTS.totpOff, msg`Two-factor sign-in with the authenticator app is off.`],
  [TWO_FACTOR_TEXTS.noPendingSetup, msg`Please start the setup of the authenticator app again.`],
  [
    TWO_FACTOR_TEXTS.stillRequired,
    msg`An account you belong to requires a second factor: add another one before you remove this one.`,
  ],
  [TWO_FACTOR_TEXTS.passkeyInvalid, msg`The passkey could not be verified.`],
  [TWO_FACTOR_TEXTS.passkeyKnown, msg`This passkey is registered already.`],
  [
    TWO_FACTOR_TEXTS.passkeyLimit,
    msg`You have the most passkeys one user may register (20). Remove one first.`,
  ],
  [TWO_FACTOR_TEXTS.passkeyNameMissing, msg`Please give the passkey a name.`],
  [
    TWO_FACTOR_TEXTS.resetDone,
    msg`The member’s second factor was reset. The member sets up a new one at the next sign-in.`,
  ],
  [
    TWO_FACTOR_TEXTS.resetOutsideReach,
    msg`This member also belongs to accounts you do not manage: an administrator of those accounts resets its second factor.`,
  ],
  [
    TWO_FACTOR_TEXTS.resetAdminOnly,
    msg`Only an administrator resets the second factor of an administrator.`,
  ],
]);
