import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { axisNumberFormat, timeTickLabel } from './chart-axes';

/* The charts' tick labels (stream page and dashboard line chart), made once per locale. */

describe("the charts' tick labels", () => {
  it('shows the day for ticks a day apart or at midnight, else the time of day', () => {
    const i18n = setupI18n({ locale: 'de', messages: { de: {} } });
    const label = timeTickLabel(i18n);
    const afternoon = new Date(2026, 10, 29, 14, 0).getTime() / 1000;
    const midnight = new Date(2026, 10, 29, 0, 0).getTime() / 1000;
    expect(label(afternoon, 3_600)).toBe('14:00');
    expect(label(midnight, 3_600)).toBe('29. Nov.');
    expect(label(afternoon, 86_400)).toBe('29. Nov.');
  });

  it("formats the Plain language as English, as lingui's own formatters do", () => {
    const i18n = setupI18n({ locale: 'plain', locales: ['en'], messages: { plain: {} } });
    const afternoon = new Date(2026, 10, 29, 14, 0).getTime() / 1000;
    expect(timeTickLabel(i18n)(afternoon, 86_400)).toBe(
      i18n.date(new Date(afternoon * 1000), {
        day: 'numeric',
        month: 'short',
      }),
    );
    expect(axisNumberFormat(i18n, 3).format(1234.56789)).toBe('1,234.568');
    expect(axisNumberFormat(i18n, 3)).toBe(axisNumberFormat(i18n, 3));
  });
});
