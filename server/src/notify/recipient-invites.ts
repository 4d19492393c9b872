import {
  ALARM_RECIPIENT_TEXTS,
  API_BASE,
  alarmRecipientPaths,
  type AlarmRecipientAnswer,
  type AlarmRecipientDecision,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { newToken, sha256 } from '../lib/secrets';
import type { Logger } from '../logger';
import { DomainError } from '../services/domain-error';
import { AlarmDeliveryRepository } from './alarm-delivery.repository';
import { PermanentDeliveryError, type Channel } from './contract';
import { inviteMessage } from './messages';
import { RecipientInviteRepository, type InviteRow } from './recipient-invite.repository';

/** The retry schedule both outboxes share (dispatcher.ts); re-exported there. */
export const RETRY_BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000] as const;
/** Attempts before a delivery is given up (the first try plus one per backoff step). */
export const MAX_ATTEMPTS = RETRY_BACKOFF_MS.length + 1;
/** How long a claimed send is this process's; past it another process may take it again. */
export const LEASE_MS = 5 * 60_000;

const invalid = () => new DomainError('not_found', ALARM_RECIPIENT_TEXTS.invalid);
const used = () => new DomainError('conflict', ALARM_RECIPIENT_TEXTS.used);

/** The error text kept for a failed send (never a stack). */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 500) || 'Unknown error';
}

/**
 * Recipient invitations (spec 001 §3, issue 17 item 4): an outside address named on an alarm is
 * invited once per account (`resolveRecipients` makes the row the first time a dispatcher round
 * sees the address on an alarm, or on a raise that names it); the invitation mail carries a link
 * whose token only this mail holds (stored as its SHA-256). The address gets nothing until it
 * confirms; declined, it gets nothing and is not asked again.
 */
export class RecipientInvites {
  private readonly repo: RecipientInviteRepository;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly appUrl: string,
  ) {
    this.repo = new RecipientInviteRepository(db);
  }

  /** The confirmation link of a token (the page of GET alarm-recipients/confirm). */
  link(token: string): string {
    return `${this.appUrl}${API_BASE}/${alarmRecipientPaths.confirm(token)}`;
  }

  /** What a link is for, without changing anything (the page a mail scanner may open too). */
  async view(token: string): Promise<AlarmRecipientAnswer> {
    const row = await this.repo.byTokenHash(sha256(token));
    if (row === undefined) throw invalid();
    return { email: row.email, account: row.account_name, state: row.state };
  }

  /** The address's answer; a link is answered once. */
  async decide(token: string, decision: AlarmRecipientDecision): Promise<AlarmRecipientAnswer> {
    const row = await this.repo.byTokenHash(sha256(token));
    if (row === undefined) throw invalid();
    const state = decision === 'confirm' ? 'confirmed' : 'declined';
    if (!(await this.repo.answer(row.account_id, row.id, state, this.clock.now()))) throw used();
    return { email: row.email, account: row.account_name, state };
  }
}

/**
 * Sends the invitation mails that are due, each claimed with a fresh token first (so two
 * processes never both send one, and only the token of the mail that went out is valid). A
 * failure is retried on the deliveries' schedule, then given up.
 */
export async function sendInviteMails(
  db: Db,
  invites: RecipientInvites,
  mail: Channel | undefined,
  now: number,
  log: Logger,
): Promise<number> {
  const repo = new RecipientInviteRepository(db);
  const accounts = new AlarmDeliveryRepository(db);
  let sent = 0;
  for (const row of await repo.dueMails(now, 100)) {
    const token = newToken();
    const hash = sha256(token);
    if (!(await repo.claimMail(row, hash, now + LEASE_MS))) continue;
    const attempts = row.mail_attempts + 1;
    const fail = (error: string, final: boolean) =>
      finish(repo, row, hash, attempts, now, error, final);
    if (mail === undefined) {
      await fail('No mail channel is set up on the server.', true);
      continue;
    }
    const account = await accounts.account(row.account_id);
    const message = inviteMessage(
      row.account_id,
      account?.name ?? 'your account',
      invites.link(token),
      `invite:${row.id}`,
    );
    try {
      const outcome = await mail.send(
        { userId: null, email: row.email, phone: null, name: row.email, language: 'en' },
        message,
      );
      if (outcome.kind === 'skipped') {
        await fail(outcome.reason, true);
        continue;
      }
      await repo.finishMail(row, hash, { mail_state: 'sent', mail_error: null });
      sent += 1;
    } catch (err) {
      log.warn('recipient invitation mail failed', { invite: row.id, error: errorText(err) });
      await fail(errorText(err), err instanceof PermanentDeliveryError);
    }
  }
  return sent;
}

async function finish(
  repo: RecipientInviteRepository,
  row: InviteRow,
  hash: string,
  attempts: number,
  now: number,
  error: string,
  final: boolean,
): Promise<void> {
  const backoff = RETRY_BACKOFF_MS[attempts - 1];
  if (final || backoff === undefined || attempts >= MAX_ATTEMPTS) {
    await repo.finishMail(row, hash, { mail_state: 'failed', mail_error: error });
    return;
  }
  await repo.finishMail(row, hash, {
    mail_state: 'waiting',
    mail_error: error,
    mail_due_at: now + backoff,
  });
}
