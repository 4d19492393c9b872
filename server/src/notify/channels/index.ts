import type { Agent } from 'node:https';
import type { AlarmChannel } from '@plant/shared-schema';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { systemClock, type Clock } from '../../lib/clock';
import type { Logger } from '../../logger';
import { PushSubscriptionRepository } from '../../repositories/push-subscription.repository';
import type { Mailer } from '../../services/mail.service';
import type { Channel } from '../contract';
import { MailChannel } from './mail-channel';
import { PushChannel } from './push-channel';
import { FileSmsDriver, HttpSmsDriver, SmsChannel } from './sms-channel';
import { loadVapidKeys, type VapidKeys } from './vapid-keys';

export { MailChannel } from './mail-channel';
export { PushChannel } from './push-channel';
export { FileSmsDriver, HttpSmsDriver, SmsChannel, type SmsDriver } from './sms-channel';
export { loadVapidKeys, type VapidKeys } from './vapid-keys';

/** Every channel by its name, as alarm recipients name them. */
export type Channels = { readonly [K in AlarmChannel]: Channel & { readonly name: K } };

export interface ChannelDeps {
  readonly config: Pick<Config, 'smsUrl' | 'smsToken' | 'vapidSubject'>;
  readonly db: Db;
  /** The server's Mailer (SMTP_URL, or .eml files in DATA_DIR/mail). */
  readonly mailer: Mailer;
  readonly log: Logger;
  /** DATA_DIR: vapid.json (made at first start if missing), sms/outbox.jsonl. */
  readonly dataDir: string;
  /** The VAPID keys when the caller read them already (else read from DATA_DIR here). */
  readonly vapid?: VapidKeys;
  readonly clock?: Clock;
  /** The https agent web pushes go through (tests: one that trusts a loopback push service). */
  readonly pushAgent?: Agent;
  /** Tests only: push to endpoints on loopback and private addresses (refused otherwise). */
  readonly allowPrivatePushEndpoints?: boolean;
}

/**
 * The delivery channels of alarm notifications (issue 17 item 5): mail, SMS (the provider at
 * SMS_URL, else the outbox file) and web push (VAPID keys from DATA_DIR).
 */
export async function createChannels(deps: ChannelDeps): Promise<Channels> {
  const { config, log } = deps;
  const sms =
    config.smsUrl !== undefined && config.smsToken !== undefined
      ? new HttpSmsDriver({ url: config.smsUrl, token: config.smsToken })
      : new FileSmsDriver(deps.dataDir, log);
  const push = new PushChannel({
    subscriptions: new PushSubscriptionRepository(deps.db),
    vapid: deps.vapid ?? (await loadVapidKeys(deps.dataDir, log)),
    subject: config.vapidSubject,
    log,
    clock: deps.clock ?? systemClock,
    ...(deps.pushAgent === undefined ? {} : { agent: deps.pushAgent }),
    ...(deps.allowPrivatePushEndpoints === undefined
      ? {}
      : { allowPrivateEndpoints: deps.allowPrivatePushEndpoints }),
  });
  return { mail: new MailChannel(deps.mailer), sms: new SmsChannel(sms), push };
}
