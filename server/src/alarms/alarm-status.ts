import type {
  AlarmAttributes,
  AlarmState,
  AlarmStatus,
  AlarmTransition,
} from '@plant/shared-schema';

/** The status of an alarm never evaluated yet. */
export const INITIAL_ALARM_STATUS: AlarmStatus = {
  state: 'normal',
  since: null,
  value: null,
  count: 0,
  raised_at: null,
  cleared_at: null,
  acknowledged: true,
  acknowledged_by: null,
  acknowledged_at: null,
  note: null,
  delivery: { state: 'none', attempts: 0, error: null },
};

/**
 * The alarm's status (its server field, what every screen shows) after the evaluator moved its
 * state: a raise starts a new story (not acknowledged, nothing delivered yet), a clear keeps who
 * acknowledged the raise it ends. No-data and offline alarms judge no value, so they show none.
 */
export function statusAfter(
  previous: AlarmStatus | null,
  kind: AlarmAttributes['kind'],
  state: AlarmState,
  transitions: readonly AlarmTransition[],
): AlarmStatus {
  let status = previous ?? INITIAL_ALARM_STATUS;
  for (const t of transitions) {
    status =
      t.kind === 'raised'
        ? {
            ...status,
            raised_at: t.ts,
            cleared_at: null,
            acknowledged: false,
            acknowledged_by: null,
            acknowledged_at: null,
            note: null,
            delivery: { state: 'none', attempts: 0, error: null },
          }
        : { ...status, cleared_at: t.ts };
  }
  return {
    ...status,
    state: state.state,
    since: state.since,
    value: kind === 'limit' ? state.value : null,
    count: state.count,
    acknowledged: state.acknowledged,
  };
}

/** Whether the status screens show moved: a transition, or a state entered or left. */
export function statusMoved(
  before: AlarmState | undefined,
  after: AlarmState,
  transitions: readonly AlarmTransition[],
): boolean {
  return transitions.length > 0 || (before?.state ?? 'normal') !== after.state;
}
