import { Hono, type Context } from 'hono';
import {
  ALARM_RECIPIENT_TEXTS,
  API_BASE,
  alarmRecipientConfirmQuerySchema,
  alarmRecipientDecisionSchema,
  alarmRecipientPaths,
  type AlarmRecipientAnswer,
} from '@plant/shared-schema';
import type { AppEnv } from '../http/context';
import { validBody } from '../http/validate';
import type { RecipientInvites } from '../notify/recipient-invites';
import { DomainError } from '../services/domain-error';

/*
 * Recipient invitations (spec 001 §3; notify/recipient-invites.ts). The mailed link opens
 * GET alarm-recipients/confirm?token=, a small page that changes nothing (mail scanners and link
 * previews follow links); its Confirm and Decline buttons POST the form to the same path. A
 * client may POST JSON `{token, decision}` instead and gets JSON back. Unsigned: the token is
 * the proof.
 */

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/** Served by the API, not the origin: its own strict headers (no script, forms to here only). */
function page(c: Context<AppEnv>, status: 200 | 404 | 409 | 422, title: string, body: string) {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escape(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;` +
      `margin:3rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.5rem 1rem;` +
      `margin-right:.5rem}</style></head><body><h1>${escape(title)}</h1>${body}</body></html>`,
    status,
  );
}

function answerText(answer: AlarmRecipientAnswer): string {
  if (answer.state === 'confirmed') return ALARM_RECIPIENT_TEXTS.confirmed;
  if (answer.state === 'declined') return ALARM_RECIPIENT_TEXTS.declined;
  return '';
}

function errorPage(c: Context<AppEnv>, err: unknown) {
  if (!(err instanceof DomainError)) throw err;
  const status = err.kind === 'conflict' ? 409 : err.kind === 'invalid' ? 422 : 404;
  return page(c, status, 'Alarm notifications', `<p>${escape(err.message)}</p>`);
}

export function alarmRecipientRoutes(invites: RecipientInvites) {
  const app = new Hono<AppEnv>();
  const path = `/${alarmRecipientPaths.confirm()}`;

  app.get(path, async (c) => {
    const parsed = alarmRecipientConfirmQuerySchema.safeParse(c.req.query());
    if (!parsed.success)
      return errorPage(c, new DomainError('invalid', ALARM_RECIPIENT_TEXTS.invalid));
    const { token } = parsed.data;
    let answer: AlarmRecipientAnswer;
    try {
      answer = await invites.view(token);
    } catch (err) {
      return errorPage(c, err);
    }
    const title = 'Alarm notifications';
    if (answer.state !== 'pending')
      return page(
        c,
        409,
        title,
        `<p>${escape(ALARM_RECIPIENT_TEXTS.used)}</p><p>${escape(answerText(answer))}</p>`,
      );
    const action = `${API_BASE}${path}`;
    const hidden = `<input type="hidden" name="token" value="${escape(token)}">`;
    return page(
      c,
      200,
      title,
      `<p>An alarm in <strong>${escape(answer.account)}</strong> names ` +
        `<strong>${escape(answer.email)}</strong> as a recipient of its notifications.</p>` +
        `<p>Do you want to receive them at this address?</p>` +
        `<form method="post" action="${escape(action)}">${hidden}` +
        `<button type="submit" name="decision" value="confirm">Confirm</button>` +
        `<button type="submit" name="decision" value="decline">Decline</button></form>`,
    );
  });

  app.post(path, async (c) => {
    const fromPage = (c.req.header('content-type') ?? '').startsWith(
      'application/x-www-form-urlencoded',
    );
    if (!fromPage) {
      const { token, decision } = await validBody(c, alarmRecipientDecisionSchema);
      return c.json({ success: true, data: await invites.decide(token, decision) });
    }
    try {
      const { token, decision } = await validBody(c, alarmRecipientDecisionSchema, {
        allowForm: true,
      });
      const answer = await invites.decide(token, decision);
      return page(c, 200, 'Alarm notifications', `<p>${escape(answerText(answer))}</p>`);
    } catch (err) {
      return errorPage(c, err);
    }
  });

  return app;
}
