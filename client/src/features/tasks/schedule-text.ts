import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { TaskSchedule } from '@plant/shared-schema';

/** A task's schedule in words. */
export function scheduleText(i18n: I18n, schedule: TaskSchedule): string {
  if (schedule.kind === 'once') {
    if (schedule.due_at === null) return i18n._(msg`Once`);
    const date = i18n.date(new Date(schedule.due_at));
    return i18n._(msg`Once, from ${date}`);
  }
  if (schedule.kind === 'date') {
    const date = i18n.date(new Date(schedule.start_at));
    const every = schedule.every;
    // With each language's plural forms: 'Every week', not 'Every 1 weeks'.
    if (schedule.unit === 'day') {
      return i18n._(
        msg`${plural(every, { one: `Every day from ${date}`, other: `Every # days from ${date}` })}`,
      );
    }
    if (schedule.unit === 'week') {
      return i18n._(
        msg`${plural(every, { one: `Every week from ${date}`, other: `Every # weeks from ${date}` })}`,
      );
    }
    return i18n._(
      msg`${plural(every, { one: `Every month from ${date}`, other: `Every # months from ${date}` })}`,
    );
  }
  const step = i18n.number(schedule.step);
  const stream = schedule.stream_name;
  return i18n._(msg`Every ${step} of ${stream}`);
}
