import { z } from 'zod';
import {
  currentPasswordField,
  emailField,
  firstnameField,
  idField,
  lastnameField,
  newPasswordField,
} from './fields';
import { INVITATION_INVALID } from './invitations-texts';
export { ALREADY_MEMBER, INVITATION_INVALID } from './invitations-texts';

/** Inviting people into an account (spec 001 §6: "Users are invited by full email"). */
export const USER_EDIT_PERMISSION = 'user::edit';

/** How long an invitation link works: a week. It works once. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export const INVITATION_SENT = 'The invitation is on its way.';

/** POST account/invitations: a full e-mail address and the role the person gets. */
export const invitationRequestSchema = z.object({ email: emailField, role_id: idField });
export type InvitationRequest = z.infer<typeof invitationRequestSchema>;

export const invitationSentSchema = z.object({
  id: z.string(),
  email: z.string(),
  expires_at: z.string(),
});
export type InvitationSent = z.infer<typeof invitationSentSchema>;

const tokenField = z.string({ error: INVITATION_INVALID }).min(1, INVITATION_INVALID).max(200);

/** POST invitations/info: what the link is for, before the person answers it. */
export const invitationInfoRequestSchema = z.object({ token: tokenField });
export const invitationInfoSchema = z.object({
  email: z.string(),
  account: z.string(),
  role: z.string(),
  /** The address has a user already: it accepts with its password instead of setting one. */
  existing: z.boolean(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/** POST invitations/accept by a new person: names and a new password. */
export const invitationJoinSchema = z.object({
  token: tokenField,
  firstname: firstnameField,
  lastname: lastnameField,
  password: newPasswordField,
});
export type InvitationJoin = z.infer<typeof invitationJoinSchema>;

/** POST invitations/accept by an existing user: its password. */
export const invitationAcceptSchema = z.object({
  token: tokenField,
  password: currentPasswordField,
});
export type InvitationAccept = z.infer<typeof invitationAcceptSchema>;
