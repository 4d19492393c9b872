import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type {
  InsightCheckId,
  InsightItem,
  InsightReason,
  InsightSeverity,
  InsightState,
} from '@plant/shared-schema';

/*
 * The words of security insights (tables: a new check, reason or state without words does not
 * compile). The figures in them are the shared INSIGHT_LIMITS.
 */

export interface CheckWords {
  readonly title: MessageDescriptor;
  /** What it weighs. */
  readonly what: MessageDescriptor;
  /** What makes it pass. */
  readonly fix: MessageDescriptor;
}

export const CHECK_WORDS: Readonly<Record<InsightCheckId, CheckWords>> = {
  second_factor: {
    title: msg`Members without a second factor`,
    what: msg`Members who sign in with a password alone. Admins are listed first.`,
    fix: msg`Ask them to turn on two-factor sign-in, or require it for the account.`,
  },
  inactive_members: {
    title: msg`Members inactive for 90 days`,
    what: msg`No sign-in and no use of a token for 90 days.`,
    fix: msg`Remove the members who no longer need access.`,
  },
  admins: {
    title: msg`Number of admins`,
    what: msg`More than 3 admins widen the account's most powerful access.`,
    fix: msg`Give the others a role with fewer rights.`,
  },
  tokens: {
    title: msg`Access tokens to review`,
    what: msg`Tokens unused or older than 90 days, or without an expiry of their own.`,
    fix: msg`Revoke the tokens nobody needs; give new ones an expiry.`,
  },
  gateway_agents: {
    title: msg`Gateways behind the active agent release`,
    what: msg`Their agents run an older version than the account's active agent release.`,
    fix: msg`Roll the active release out to them.`,
  },
  revoked_keys: {
    title: msg`Revoked gateway keys still knocking`,
    what: msg`Someone tried to connect with a gateway key revoked before, in the last 7 days.`,
    fix: msg`Find the device that still uses the old key; stop it or give it new credentials.`,
  },
  opcua_security: {
    title: msg`OPC UA connections without security`,
    what: msg`Security mode None: the machine's data travels unsigned and unencrypted.`,
    fix: msg`Choose Sign or Sign and encrypt in the connection's settings.`,
  },
  signin_refusals: {
    title: msg`Failed sign-ins`,
    what: msg`10 or more failed sign-ins of the account's members on one day, today or yesterday.`,
    fix: msg`Look at the addresses and users in the threat overview; it passes after a quiet day.`,
  },
  broker_refusals: {
    title: msg`Broker refusals`,
    what: msg`10 or more refused connections or messages at the broker on one day, today or yesterday.`,
    fix: msg`Look at the gateways and users refused; it passes after a quiet day.`,
  },
};

export const STATE_WORDS: Readonly<Record<InsightState, MessageDescriptor>> = {
  passing: msg`Passing`,
  failing: msg`Failing`,
  dismissed: msg`Dismissed`,
};

export const STATE_COLORS: Readonly<Record<InsightState, string>> = {
  passing: 'green',
  failing: 'red',
  dismissed: 'gray',
};

export const SEVERITY_WORDS: Readonly<Record<InsightSeverity, MessageDescriptor>> = {
  high: msg`High`,
  medium: msg`Medium`,
  low: msg`Low`,
};

export const REASON_WORDS: Readonly<Record<InsightReason, MessageDescriptor>> = {
  admin: msg`Admin`,
  no_second_factor: msg`No second factor`,
  inactive: msg`Inactive`,
  no_expiry: msg`No expiry`,
  old: msg`Older than 90 days`,
  unused: msg`Unused for 90 days`,
  behind: msg`Older agent`,
  revoked_key: msg`Revoked key`,
  no_security: msg`Security mode None`,
  refused: msg`Refused`,
};

export const ITEM_TYPE_WORDS: Readonly<Record<InsightItem['type'], MessageDescriptor>> = {
  member: msg`Member`,
  token: msg`Token`,
  gateway: msg`Gateway`,
  connection: msg`Connection`,
  address: msg`Address`,
  user: msg`User`,
};
