import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from '../api/envelope';
import {
  ALARM_TEXTS,
  alarmAttributesSchema,
  alarmProblems,
  alarmStreamProblems,
  type AlarmInput,
} from './alarm';

const base: AlarmInput = { asset_id: 'a1', datastream_id: 's1', name: 'Hot', upper_limit: 80 };
const parse = (input: Partial<AlarmInput>) => alarmAttributesSchema.parse({ ...base, ...input });

describe('alarm model', () => {
  it('needs an upper or lower limit, and the one its condition uses', () => {
    expect(alarmProblems(parse({}))).toEqual({});
    expect(alarmProblems(parse({ upper_limit: null }))).toEqual({
      upper_limit: ALARM_TEXTS.limitRequired,
      lower_limit: ALARM_TEXTS.limitRequired,
    });
    expect(alarmProblems(parse({ upper_limit: null, lower_limit: 3 }))).toEqual({
      upper_limit: ALARM_TEXTS.upperRequired,
      lower_limit: ALARM_TEXTS.lowerUnused,
    });
    expect(alarmProblems(parse({ condition: 'less' }))).toEqual({
      lower_limit: ALARM_TEXTS.lowerRequired,
      upper_limit: ALARM_TEXTS.upperUnused,
    });
    expect(alarmProblems(parse({ condition: 'exact', lower_limit: 90 }))).toEqual({
      lower_limit: ALARM_TEXTS.limitsCrossed,
    });
    expect(alarmProblems(parse({ condition: 'exact', upper_limit: null, lower_limit: 3 }))).toEqual(
      {},
    );
  });

  it('takes recipients as a user or an address, each with channels, and says what is wrong', () => {
    const ok = parse({
      recipients: [
        { user_id: 'u1', channels: ['mail', 'push'] },
        { email: ' Night.Shift@Example.com ', channels: ['sms'] },
      ],
    });
    expect(ok.recipients[1]).toEqual({ email: 'night.shift@example.com', channels: ['sms'] });
    expect(alarmProblems({ ...ok, recipients: [...ok.recipients, ok.recipients[0]!] })).toEqual({
      recipients: ALARM_TEXTS.duplicateRecipient,
    });
    const errors = (input: Partial<AlarmInput>) => {
      const parsed = alarmAttributesSchema.safeParse({ ...base, ...input });
      return parsed.success ? {} : fieldErrorsOf(parsed.error);
    };
    expect(errors({ recipients: [{ user_id: 'u1', channels: [] }] })).toEqual({
      'recipients.0.channels': [ALARM_TEXTS.channelsRequired],
    });
    expect(errors({ recipients: [{ channels: ['mail'] }] as AlarmInput['recipients'] })).toEqual({
      'recipients.0': [ALARM_TEXTS.recipientNeedsOne],
    });
    expect(errors({ delay_s: -1, hysteresis: -0.5 })).toEqual({
      delay_s: [ALARM_TEXTS.notNegative],
      hysteresis: [ALARM_TEXTS.notNegative],
    });
    expect(errors({ upper_limit: '80' as unknown as number })).toEqual({
      upper_limit: [ALARM_TEXTS.limitNotNumber],
    });
    // Updates parse through .partial(): the schema has no refinement that would forbid it.
    expect(alarmAttributesSchema.partial().safeParse({ upper_limit: null }).success).toBe(true);
  });

  it('watches streams of numbers or states, of its unit when it names one', () => {
    expect(alarmStreamProblems({ unit: null }, { type: 'number', unit: '°C' })).toEqual({});
    expect(alarmStreamProblems({ unit: '°C' }, { type: 'state', unit: '°C' })).toEqual({});
    expect(alarmStreamProblems({ unit: 'bar' }, { type: 'text', unit: '' })).toEqual({
      datastream_id: ALARM_TEXTS.streamType,
      unit: ALARM_TEXTS.unitMismatch,
    });
  });
});
