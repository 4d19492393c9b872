import { z } from 'zod';
import { deferred } from '../deferred';

/*
 * Recipient invitations (spec 001 §3 "recipient invitation", issue 17 item 4): an outside e-mail
 * address named on an alarm gets nothing until it confirms. The mail it is sent carries a link to
 * GET alarm-recipients/confirm?token=, a page that changes nothing (mail scanners follow links);
 * its Confirm and Decline buttons POST the same path with the token and the decision.
 */

export const ALARM_RECIPIENT_TEXTS = {
  /** A token that is malformed or names no invitation. */
  invalid: 'This confirmation link is not valid.',
  /** A token whose invitation was answered already. */
  used: 'This confirmation link was used already.',
  confirmed: 'You will receive alarm notifications at this address.',
  declined: 'You will not receive alarm notifications at this address.',
} as const;

export const ALARM_RECIPIENT_DECISIONS = ['confirm', 'decline'] as const;
export type AlarmRecipientDecision = (typeof ALARM_RECIPIENT_DECISIONS)[number];

/** Where an invitation stands. */
export const ALARM_RECIPIENT_INVITE_STATES = ['pending', 'confirmed', 'declined'] as const;
export type AlarmRecipientInviteState = (typeof ALARM_RECIPIENT_INVITE_STATES)[number];

/** A token as handed out (32 random bytes, base64url: 43 characters). */
const tokenField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: ALARM_RECIPIENT_TEXTS.invalid })
    .regex(/^[A-Za-z0-9_-]{20,100}$/, ALARM_RECIPIENT_TEXTS.invalid),
);

/** GET alarm-recipients/confirm?token=: the page with the two buttons. */
export const alarmRecipientConfirmQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({ token: tokenField }),
);

/** POST alarm-recipients/confirm (JSON, or the page's form): the answer. */
export const alarmRecipientDecisionSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    token: tokenField,
    decision: z.enum(ALARM_RECIPIENT_DECISIONS, { error: 'Choose confirm or decline.' }),
  }),
);
export type AlarmRecipientDecisionRequest = z.infer<typeof alarmRecipientDecisionSchema>;

/** The answer to a decision. */
export const alarmRecipientAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    email: z.string(),
    account: z.string(),
    state: z.enum(ALARM_RECIPIENT_INVITE_STATES),
  }),
);
export type AlarmRecipientAnswer = z.infer<typeof alarmRecipientAnswerSchema>;

/** The path of both calls, relative to the API base (like `apiPaths`). */
export const alarmRecipientPaths = {
  confirm: (token?: string) =>
    token === undefined
      ? 'alarm-recipients/confirm'
      : `alarm-recipients/confirm?token=${encodeURIComponent(token)}`,
} as const;
