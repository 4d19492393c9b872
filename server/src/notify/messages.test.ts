import { describe, expect, it } from 'vitest';
import {
  deliveryStatus,
  digestMessage,
  inviteMessage,
  limitText,
  singleMessage,
  type MessageItem,
} from './messages';

/* The texts people get and what the alarm shows of its deliveries (pure). */

const alarm: MessageItem['alarm'] = {
  name: 'Motor too hot',
  kind: 'limit',
  condition: 'greater',
  upper_limit: 80,
  lower_limit: null,
  unit: '°C',
  after_s: null,
};
const item = (over: Partial<MessageItem> = {}): MessageItem => ({
  kind: 'raised',
  alarmId: 'a1',
  alarm,
  severity: 'warning',
  assetName: 'Press 4',
  value: 93.5,
  ts: Date.parse('2026-03-29T00:30:00Z'),
  ...over,
});

describe('messages', () => {
  it('name the alarm, asset, value, limit, severity, time in the reader’s zone, and the link', () => {
    const m = singleMessage('acc', item(), 'tag', 'https://plant.example', 'Europe/Berlin');
    expect(m.subject).toBe('Warning: \u2068Motor too hot\u2069 on \u2068Press 4\u2069');
    expect(m.text).toContain('Value: 93.5 °C');
    expect(m.text).toContain('Limit: above 80 °C');
    expect(m.text).toContain('Since: 29/03/2026, 01:30 (Europe/Berlin)');
    expect(m.url).toBe('https://plant.example/app/alarms/a1');
  });

  it('carry the link of the help article the alarm names, and none without one', () => {
    const linked = item({ alarm: { ...alarm, help_article: 136 } });
    const m = singleMessage('acc', linked, 'tag', 'https://plant.example', null);
    expect(m.text.split('\n')).toContain('Help: https://plant.example/app/help/136');
    const digest = digestMessage(
      'acc',
      'North',
      [linked, item()],
      'tag',
      'https://plant.example',
      null,
    );
    expect(digest.text.match(/Help: /g)).toHaveLength(1);
    expect(singleMessage('acc', item(), 'tag', 'https://plant.example', null).text).not.toContain(
      'Help:',
    );
  });

  it('say each condition’s limit in words', () => {
    expect(limitText({ ...alarm, condition: 'less', upper_limit: null, lower_limit: 2 })).toBe(
      'below 2 °C',
    );
    expect(limitText({ ...alarm, condition: 'exact', lower_limit: 3, upper_limit: 3 })).toBe(
      'equal to 3 °C',
    );
    expect(limitText({ ...alarm, condition: 'exact', lower_limit: 1, upper_limit: 3 })).toBe(
      'between 1 °C and 3 °C',
    );
    expect(limitText({ ...alarm, kind: 'no_data', after_s: 600 })).toBe('no data for 10 min');
  });

  it('list several in one digest with the worst severity', () => {
    const m = digestMessage(
      'acc',
      'North',
      [item(), item({ alarmId: 'a2', severity: 'critical', kind: 'cleared' })],
      'digest:1',
      'https://plant.example',
      null,
    );
    expect(m.subject).toBe('2 alarms in \u2068North\u2069');
    expect(m.severity).toBe('critical');
    expect(m.text).toContain('Cleared: \u2068Motor too hot\u2069 on \u2068Press 4\u2069');
    expect(m.url).toBe('https://plant.example/app/alarms');
  });
});

describe('delivery status', () => {
  const row = (state: string, attempts = 1, last_error: string | null = null) => ({
    state,
    attempts,
    last_error,
  });
  it('shows retrying over waiting over failed over sent, and none when nobody was told', () => {
    expect(deliveryStatus([])).toEqual({ state: 'none', attempts: 0, error: null });
    expect(deliveryStatus([row('skipped', 0, 'Shelved')]).state).toBe('none');
    expect(deliveryStatus([row('sent'), row('waiting', 0)]).state).toBe('waiting');
    expect(deliveryStatus([row('sent'), row('failed', 5, 'x')])).toEqual({
      state: 'failed',
      attempts: 5,
      error: 'x',
    });
    expect(deliveryStatus([row('failed', 1, 'x'), row('waiting', 2, 'timeout')])).toEqual({
      state: 'retrying',
      attempts: 2,
      error: 'timeout',
    });
    expect(deliveryStatus([row('sent'), row('skipped', 0)]).state).toBe('sent');
  });

  it('isolate every name, so one with bidirectional controls cannot reorder the message', () => {
    // U+202E RIGHT-TO-LEFT OVERRIDE, never closed: without the isolate it would run on over
    // " on …" and the rest of the subject (and the SMS, the push's title).
    const evil = '\u202Eevil';
    const m = singleMessage(
      'acc',
      item({ assetName: evil, alarm: { ...alarm, name: `Hot ${evil}` } }),
      'tag',
      'https://plant.example',
      null,
    );
    expect(m.subject).toBe(`Warning: \u2068Hot ${evil}\u2069 on \u2068${evil}\u2069`);
    expect(m.text.split('\n')[0]).toBe(m.subject);
    const digest = digestMessage('acc', evil, [item({ assetName: evil })], 'd', 'https://p', null);
    expect(digest.subject).toBe(`1 alarms in \u2068${evil}\u2069`);
    expect(digest.text).toContain(`on \u2068${evil}\u2069`);
    const invite = inviteMessage('acc', evil, 'https://p/confirm', 'i');
    expect(invite.subject).toBe(`Alarm notifications from \u2068${evil}\u2069: please confirm`);
    expect(invite.text).toContain(`An alarm in \u2068${evil}\u2069 names`);
  });
});
