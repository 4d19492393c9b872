import type { I18n } from '@lingui/core';
import { msg, plural, select } from '@lingui/core/macro';

/**
 * "Last 2 hours", "Last week": a relative range's words, with each language's plural forms (a
 * unit's bare word after a number gave "Last 1 weeks", and Russian needs three forms).
 */
export function lastSpanText(
  i18n: I18n,
  amount: number,
  unit: 'hours' | 'days' | 'weeks' | 'months',
): string {
  // One message for the four units: each language words its own units and plural forms.
  return i18n._(
    msg`${select(unit, {
      hours: plural(amount, { one: 'Last hour', other: 'Last # hours' }),
      days: plural(amount, { one: 'Last day', other: 'Last # days' }),
      weeks: plural(amount, { one: 'Last week', other: 'Last # weeks' }),
      other: plural(amount, { one: 'Last month', other: 'Last # months' }),
    })}`,
  );
}
