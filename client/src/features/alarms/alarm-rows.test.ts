import { describe, expect, it } from 'vitest';
import { ALARM_TEXTS, alarmAttributesSchema, type AlarmAttributes } from '@plant/shared-schema';
import { checkDraft, draftOf } from './alarm-draft';
import { alarmRows, shownState, summarise } from './alarm-rows';

const NOW = Date.parse('2026-11-26T10:00:00Z');
const ASSET = '0193a000-0000-7000-8000-000000000001';
const STREAM = '0193a000-0000-7000-8000-000000000002';

function alarm(name: string, patch: Partial<AlarmAttributes> = {}) {
  const attributes: AlarmAttributes = {
    ...alarmAttributesSchema.parse({
      asset_id: ASSET,
      datastream_id: STREAM,
      name,
      upper_limit: 80,
    }),
    ...patch,
  };
  return { id: name, attributes };
}

function status(
  state: 'normal' | 'pending' | 'active',
  since: number | null,
  acknowledged: boolean,
): AlarmAttributes['status'] {
  return {
    state,
    since,
    value: 81,
    count: 1,
    raised_at: state === 'active' ? since : null,
    cleared_at: null,
    acknowledged,
    acknowledged_by: null,
    acknowledged_at: null,
    note: null,
    delivery: { state: 'none', attempts: 0, error: null },
  };
}

describe('the alarm list', () => {
  const list = [
    alarm('normal critical', { severity: 'critical' }),
    alarm('active info new', { severity: 'info', status: status('active', NOW - 1000, false) }),
    alarm('active critical acked', {
      severity: 'critical',
      status: status('active', NOW - 5000, true),
    }),
    alarm('active warning old', {
      severity: 'warning',
      status: status('active', NOW - 9000, false),
    }),
    alarm('shelved active', {
      severity: 'critical',
      status: status('active', NOW, false),
      shelved_until: NOW + 3_600_000,
    }),
  ];

  it('puts raised unacknowledged alarms first, then by severity, then the newest change', () => {
    expect(alarmRows(list, { state: 'all', severity: 'all' }, NOW).map((a) => a.id)).toEqual([
      'active warning old',
      'active info new',
      'shelved active',
      'active critical acked',
      'normal critical',
    ]);
  });

  it('filters by the state shown (a running shelf is its own state) and by severity', () => {
    expect(shownState(list[4]!.attributes, NOW)).toBe('shelved');
    expect(shownState(list[4]!.attributes, NOW + 3_600_001)).toBe('active');
    expect(alarmRows(list, { state: 'shelved', severity: 'all' }, NOW).map((a) => a.id)).toEqual([
      'shelved active',
    ]);
    expect(
      alarmRows(list, { state: 'active', severity: 'critical' }, NOW).map((a) => a.id),
    ).toEqual(['active critical acked']);
  });

  it('summarises: the worst raised severity per asset, and how many need someone', () => {
    const summary = summarise(list, NOW);
    expect(summary.attention).toBe(2);
    expect(summary.worstByAsset.get(ASSET)).toBe('critical');
    expect(summarise(list.slice(0, 2), NOW).worstByAsset.get(ASSET)).toBe('info');
    expect(summarise([list[0]!], NOW).worstByAsset.size).toBe(0);
    // The worst raised alarm itself, with its name: what the asset's shown status reads.
    expect(summary.raisedByAsset.get(ASSET)).toEqual({
      severity: 'critical',
      name: 'active critical acked',
    });
  });
});

describe('the alarm form', () => {
  const stream = { type: 'number', unit: '°C' };
  const start = { assetId: ASSET, streamId: STREAM, unit: '°C' };

  it('says what the model and the stream refuse, per field, and gives the rule once it is valid', () => {
    const empty = checkDraft({ ...draftOf(null, start), name: 'Hot' }, stream);
    expect(empty.attributes).toBeNull();
    expect(empty.errors.upper_limit).toBe(ALARM_TEXTS.limitRequired);
    expect(empty.rule).toBeNull();

    const typo = checkDraft({ ...draftOf(null, start), name: 'Hot', upper: '8o' }, stream);
    expect(typo.errors.upper_limit).toBe(ALARM_TEXTS.limitNotNumber);

    const unit = checkDraft(
      { ...draftOf(null, start), name: 'Hot', upper: '80', unit: 'K' },
      stream,
    );
    expect(unit.errors.unit).toBe(ALARM_TEXTS.unitMismatch);

    const negative = checkDraft(
      { ...draftOf(null, start), name: 'Hot', upper: '80', delay: '-1' },
      stream,
    );
    expect(negative.errors.delay_s).toBe(ALARM_TEXTS.notNegative);

    const noChannel = checkDraft(
      {
        ...draftOf(null, start),
        name: 'Hot',
        upper: '80',
        recipients: [{ email: 'a@b.example', channels: [] }],
      },
      stream,
    );
    expect(noChannel.errors['recipients.0']).toBe(ALARM_TEXTS.channelsRequired);

    const ok = checkDraft(
      { ...draftOf(null, start), name: 'Hot', upper: '80,5', delay: '60', hysteresis: '2' },
      stream,
    );
    expect(ok.errors).toEqual({});
    expect(ok.attributes).toMatchObject({ upper_limit: 80.5, delay_s: 60, hysteresis: 2 });
    expect(ok.rule).toEqual({
      upper_limit: 80.5,
      lower_limit: null,
      condition: 'greater',
      delay_s: 60,
      hysteresis: 2,
    });
  });

  it('takes the message interval in whole minutes, 15 for a new alarm and for one stored before it', () => {
    const draft = { ...draftOf(null, start), name: 'Hot', upper: '80' };
    expect(draft.notifyEvery).toBe('15');
    expect(checkDraft(draft, stream).attributes).toMatchObject({ notify_interval_min: 15 });
    expect(checkDraft({ ...draft, notifyEvery: '0' }, stream).attributes).toMatchObject({
      notify_interval_min: 0,
    });
    for (const wrong of ['', '2.5', '-1', '1441'])
      expect(checkDraft({ ...draft, notifyEvery: wrong }, stream).errors.notify_interval_min).toBe(
        ALARM_TEXTS.notifyIntervalRange,
      );
    // Stored before the field: its attributes lack it.
    const before: Partial<AlarmAttributes> = { ...alarm('Old').attributes };
    delete before.notify_interval_min;
    expect(draftOf(before as AlarmAttributes, start).notifyEvery).toBe('15');
    expect(draftOf(alarm('Set', { notify_interval_min: 5 }).attributes, start).notifyEvery).toBe(
      '5',
    );
  });

  it('a no-data alarm takes minutes and no limits', () => {
    const draft = { ...draftOf(null, start), name: 'Silent', kind: 'no_data' as const };
    expect(checkDraft(draft, stream).errors.after_s).toBe(ALARM_TEXTS.afterRequired);
    const ok = checkDraft({ ...draft, afterMin: '15', upper: '3' }, stream);
    expect(ok.errors).toEqual({});
    expect(ok.attributes).toMatchObject({ after_s: 900, upper_limit: null });
    expect(ok.rule).toBeNull();
  });
});
