import type { AlarmChannel, AlarmSeverity } from '@plant/shared-schema';

/*
 * The seam between deciding who is told what, when (the dispatcher: recipients, windows, digests,
 * escalation, retries) and the channels that carry a message (mail, SMS, web push). Issue 17
 * items 4 and 5.
 */

/** Who receives one message on one channel. */
export interface Recipient {
  /** A user of the account; null for an outside address (a confirmed recipient invitation). */
  readonly userId: string | null;
  /** Where mail goes (the user's address or the outside one). */
  readonly email: string | null;
  /** Where SMS goes; null when the user gave no phone number. */
  readonly phone: string | null;
  /** How to greet them. */
  readonly name: string;
  /** Their language (en, de, pt, ru, plain) for the message's texts. */
  readonly language: string;
}

/** One message: a single alarm's transition, or a digest of several. */
export interface OutgoingMessage {
  readonly accountId: string;
  readonly subject: string;
  /** Plain text (mail body, SMS text, push body). SMS drivers cut it to their limit. */
  readonly text: string;
  /** The absolute link to open (the alarm's page, or the alarms list for a digest). */
  readonly url: string;
  /** A key that says "the same message" to a receiver that sees it twice (push `tag`). */
  readonly tag: string;
  /** The worst severity it tells of. */
  readonly severity: AlarmSeverity;
}

/** What a send came to. */
export type SendOutcome =
  /** Handed over to the SMTP server, the SMS provider or every push service. */
  | { readonly kind: 'sent' }
  /** Nothing to send to (no phone number, no push subscription): not an error, not retried. */
  | { readonly kind: 'skipped'; readonly reason: string };

/** A failure that trying again cannot mend (the address refused for good): not retried. */
export class PermanentDeliveryError extends Error {}

/**
 * One way of reaching people. `send` throws when the message did not go out: a
 * `PermanentDeliveryError` is final, anything else is retried with backoff by the dispatcher.
 */
export interface Channel {
  readonly name: AlarmChannel;
  send(to: Recipient, message: OutgoingMessage): Promise<SendOutcome>;
}
