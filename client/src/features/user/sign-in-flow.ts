import { useCallback } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { TIMINGS, TWO_FACTOR_TEXTS } from '@plant/shared-schema';
import type { SignInOutcome } from '../../session/session';
import { safeRedirect } from './safe-redirect';
import { callErrorText } from '../../i18n/server-texts';

/** Spec 000 §8: the text of a refused password grant (translated where it is shown). */
export const WRONG_CREDENTIALS_MESSAGE = 'Wrong credentials!';

/**
 * Resolves with `work`'s result, but not before `ms` have passed since the call: spec 000 §4's
 * processing state ends 1 s after it started at the earliest, so it never just flickers.
 */
export async function atLeast<T>(ms: number, work: Promise<T>): Promise<T> {
  const [result] = await Promise.all([work, new Promise((resolve) => setTimeout(resolve, ms))]);
  return result;
}

/** A sign-in call held for the processing time of spec 000 §4. */
export function processing<T>(work: Promise<T>): Promise<T> {
  return atLeast(TIMINGS.loginProcessingEndMs, work);
}

/**
 * What follows a sign-in (password, register, reset): signed in goes to the redirect target (a
 * path of this app only) or the app's start; a norole user, already refused and cleared, goes to
 * /user/norole. Answers the message to show when the sign-in failed, else null.
 */
export function useAfterSignIn(): (
  outcome: SignInOutcome,
  redirect?: string,
) => Promise<string | null> {
  const navigate = useNavigate();
  return useCallback(
    async (outcome, redirect) => {
      switch (outcome.name) {
        case 'signed-in':
          await navigate({ href: safeRedirect(redirect, location.origin), replace: true });
          return null;
        case 'norole':
          await navigate({ to: '/user/norole', replace: true });
          return null;
        case 'wrong-credentials':
          return WRONG_CREDENTIALS_MESSAGE;
        case 'failed':
          return callErrorText(outcome);
        // A screen that signs in with a password alone (after a reset) sends the user to the
        // sign-in screen, which asks for the second factor.
        case 'second-factor':
          return outcome.message;
        case 'second-factor-setup':
          return TWO_FACTOR_TEXTS.setupRequired;
        default: {
          const unknown: never = outcome;
          throw new Error(`unknown sign-in outcome ${JSON.stringify(unknown)}`);
        }
      }
    },
    [navigate],
  );
}
