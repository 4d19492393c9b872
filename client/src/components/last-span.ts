import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

/**
 * "Last 2 hours", "Last week": a relative range's words, with each language's plural forms (a
 * unit's bare word after a number gave "Last 1 weeks", and Russian needs three forms).
 */
export function lastSpanText(
  i18n: I18n,
  amount: number,
  unit: 'hours' | 'days' | 'weeks' | 'months',
): string {
  switch (unit) {
    case 'hours':
      return i18n._(msg`${plural(amount, { one: 'Last hour', other: 'Last # hours' })}`);
    case 'days':
      return i18n._(msg`${plural(amount, { one: 'Last day', other: 'Last # days' })}`);
    case 'weeks':
      return i18n._(msg`${plural(amount, { one: 'Last week', other: 'Last # weeks' })}`);
    case 'months':
      return i18n._(msg`${plural(amount, { one: 'Last month', other: 'Last # months' })}`);
  }
}
