import {
  DEFAULT_NOTIFICATIONS,
  notificationSettingsSchema,
  mayUseApp,
  type AlarmChannel,
  type AlarmRecipient,
  type NotificationSettings,
} from '@plant/shared-schema';
import type { AlarmDeliveryRepository, MemberInfo } from './alarm-delivery.repository';
import type { Recipient } from './contract';
import type { RecipientInviteRepository } from './recipient-invite.repository';

/** Why a recipient or a channel gets nothing (stored as the skipped delivery's `last_error`). */
export const SKIP_REASONS = {
  notMember: 'Not a member of the account.',
  noRole: 'No role in the account that may use the product.',
  channelOff: "Not among the channels of the user's notification settings.",
  unconfirmed: 'The address has not confirmed yet.',
  declined: 'The address declined alarm notifications.',
  mailOnly: 'An outside address receives mail only.',
  shelved: 'The alarm is shelved.',
  alarmGone: 'The alarm was deleted.',
  noChannel: 'This channel is not set up on the server.',
} as const;

/** A recipient as a delivery needs it: where to send, and its window. */
export interface Reachable {
  readonly to: Recipient;
  /** A user's notification settings (its window); null for an outside address (no window). */
  readonly settings: NotificationSettings | null;
}

/** One of an alarm's recipients, resolved for a delivery now. */
export interface ResolvedRecipient {
  /** `u:<user id>` or `e:<address>`: the delivery's `recipient_key`. */
  readonly key: string;
  readonly reachable: Reachable | null;
  /** The channels to use (the alarm's, as far as the recipient allows). */
  readonly channels: readonly AlarmChannel[];
  /** The alarm's channels not used, each with why. */
  readonly skipped: readonly { readonly channel: AlarmChannel; readonly reason: string }[];
}

export const recipientKey = (r: AlarmRecipient): string =>
  'user_id' in r ? `u:${r.user_id}` : `e:${r.email.toLowerCase()}`;

function settingsOf(json: string): NotificationSettings {
  try {
    const parsed = notificationSettingsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : DEFAULT_NOTIFICATIONS;
  } catch {
    return DEFAULT_NOTIFICATIONS;
  }
}

/** A member that may use the product: one role other than `norole` at least. */
function memberProblem(member: MemberInfo | undefined): string | null {
  if (member === undefined) return SKIP_REASONS.notMember;
  if (!mayUseApp(member.roles)) return SKIP_REASONS.noRole;
  return null;
}

function memberReachable(member: MemberInfo): Reachable {
  return {
    to: {
      userId: member.id,
      email: member.email,
      phone: member.phone === '' ? null : member.phone,
      name: `${member.firstname} ${member.lastname}`.trim(),
      language: member.language,
    },
    settings: settingsOf(member.notifications),
  };
}

function outsideReachable(email: string): Reachable {
  return {
    to: { userId: null, email, phone: null, name: email, language: 'en' },
    settings: null,
  };
}

/**
 * Resolves an alarm's recipients, in list order (the escalation's order), as of now:
 * - `{user_id}`: only a member of the account today (with a role that may use the product); its
 *   channels are the alarm's channels that its own notification settings also name.
 * - `{email}`: only once the address confirmed its recipient invitation, and by mail only. An
 *   address never invited is invited here (the invitation mail goes out with the next round).
 */
export async function resolveRecipients(
  deliveries: AlarmDeliveryRepository,
  invites: RecipientInviteRepository,
  accountId: string,
  recipients: readonly AlarmRecipient[],
  now: number,
): Promise<ResolvedRecipient[]> {
  const userIds = recipients.flatMap((r) => ('user_id' in r ? [r.user_id] : []));
  const emails = recipients.flatMap((r) => ('email' in r ? [r.email.toLowerCase()] : []));
  const members = await deliveries.members(accountId, userIds);
  await invites.ensure(accountId, emails, now);
  const invited = await invites.byEmails(accountId, emails);
  return recipients.map((r): ResolvedRecipient => {
    const key = recipientKey(r);
    const none = (reason: string): ResolvedRecipient => ({
      key,
      reachable: null,
      channels: [],
      skipped: r.channels.map((channel) => ({ channel, reason })),
    });
    if ('user_id' in r) {
      const member = members.get(r.user_id);
      const problem = memberProblem(member);
      if (problem !== null || member === undefined) return none(problem ?? SKIP_REASONS.notMember);
      const reachable = memberReachable(member);
      const own = new Set(reachable.settings?.channels ?? []);
      return {
        key,
        reachable,
        channels: r.channels.filter((c) => own.has(c)),
        skipped: r.channels
          .filter((c) => !own.has(c))
          .map((channel) => ({ channel, reason: SKIP_REASONS.channelOff })),
      };
    }
    const email = r.email.toLowerCase();
    const state = invited.get(email)?.state;
    if (state === 'declined') return none(SKIP_REASONS.declined);
    if (state !== 'confirmed') return none(SKIP_REASONS.unconfirmed);
    return {
      key,
      reachable: outsideReachable(email),
      channels: r.channels.filter((c) => c === 'mail'),
      skipped: r.channels
        .filter((c) => c !== 'mail')
        .map((channel) => ({ channel, reason: SKIP_REASONS.mailOnly })),
    };
  });
}

/**
 * Recipients by key as of now, for a delivery made earlier (a member may have left, an address
 * may have declined meanwhile): reachable, or why not.
 */
export async function resolveKeys(
  deliveries: AlarmDeliveryRepository,
  invites: RecipientInviteRepository,
  accountId: string,
  keys: readonly string[],
): Promise<Map<string, Reachable | string>> {
  const userIds = keys.filter((k) => k.startsWith('u:')).map((k) => k.slice(2));
  const emails = keys.filter((k) => k.startsWith('e:')).map((k) => k.slice(2));
  const members = await deliveries.members(accountId, userIds);
  const invited = await invites.byEmails(accountId, emails);
  const out = new Map<string, Reachable | string>();
  for (const id of userIds) {
    const member = members.get(id);
    const problem = memberProblem(member);
    out.set(
      `u:${id}`,
      problem ?? (member === undefined ? SKIP_REASONS.notMember : memberReachable(member)),
    );
  }
  for (const email of emails) {
    const state = invited.get(email)?.state;
    out.set(
      `e:${email}`,
      state === 'confirmed'
        ? outsideReachable(email)
        : state === 'declined'
          ? SKIP_REASONS.declined
          : SKIP_REASONS.unconfirmed,
    );
  }
  return out;
}
