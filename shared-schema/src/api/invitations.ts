import { z } from 'zod';
import { deferred } from '../deferred';
import {
  currentPasswordField,
  emailField,
  firstnameField,
  idField,
  lastnameField,
  newPasswordField,
} from './fields';
import { INVITATION_INVALID } from './invitations-texts';
export {
  ALREADY_MEMBER,
  INVITATION_CLOSED,
  INVITATION_INVALID,
  INVITATION_REVOKED,
} from './invitations-texts';

/** Inviting people into an account (spec 001 §6: "Users are invited by full email"). */
export const USER_EDIT_PERMISSION = 'user::edit';

/** How long an invitation link works: a week. It works once. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export const INVITATION_SENT = 'The invitation is on its way.';

/** POST account/invitations: a full e-mail address and the role the person gets. */
export const invitationRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({ email: emailField, role_id: idField }),
);
export type InvitationRequest = z.infer<typeof invitationRequestSchema>;

export const invitationSentSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    expires_at: z.string(),
  }),
);
export type InvitationSent = z.infer<typeof invitationSentSchema>;

/**
 * Where a sent invitation stands: `pending` (its link works), `accepted`, `expired` (the link's
 * week is over; sending it again makes a new link), `revoked` (its link says so).
 */
export const INVITATION_STATES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/** The state of an invitation from its stored times (ISO texts compare in time order). */
export function invitationState(
  row: {
    readonly accepted_at: string | null;
    readonly revoked_at: string | null;
    readonly expires_at: string;
  },
  nowIso: string,
): InvitationState {
  if (row.accepted_at !== null) return 'accepted';
  if (row.revoked_at !== null) return 'revoked';
  return row.expires_at > nowIso ? 'pending' : 'expired';
}

/** GET account/invitations: the active account's sent invitations, newest first. */
export const sentInvitationSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    role_id: z.string(),
    /** The role's name. */
    role: z.string(),
    /** When its current link was mailed. */
    sent_at: z.string(),
    expires_at: z.string(),
    state: z.enum(INVITATION_STATES),
  }),
);
export type SentInvitation = z.infer<typeof sentInvitationSchema>;
export const sentInvitationsSchema = /* @__PURE__ */ deferred(() => z.array(sentInvitationSchema));

/** account/invitations/{id}/resend and …/revoke. */
export const invitationParamsSchema = /* @__PURE__ */ deferred(() => z.object({ id: idField }));

/** A link is mailed again at most this often per invitation (a new link each time). */
export const INVITATION_RESENDS = { limit: 3, windowMs: 3_600_000 } as const;

const tokenField = /* @__PURE__ */ deferred(() =>
  z.string({ error: INVITATION_INVALID }).min(1, INVITATION_INVALID).max(200),
);

/** POST invitations/info: what the link is for, before the person answers it. */
export const invitationInfoRequestSchema = /* @__PURE__ */ deferred(() =>
  z.object({ token: tokenField }),
);
export const invitationInfoSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    email: z.string(),
    account: z.string(),
    role: z.string(),
    /** The address has a user already: it accepts with its password instead of setting one. */
    existing: z.boolean(),
  }),
);
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/** POST invitations/accept by a new person: names and a new password. */
export const invitationJoinSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    token: tokenField,
    firstname: firstnameField,
    lastname: lastnameField,
    password: newPasswordField,
  }),
);
export type InvitationJoin = z.infer<typeof invitationJoinSchema>;

/** POST invitations/accept by an existing user: its password. */
export const invitationAcceptSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    token: tokenField,
    password: currentPasswordField,
  }),
);
export type InvitationAccept = z.infer<typeof invitationAcceptSchema>;
