import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PendingWrite } from '@plant/sync-worker/api';
import { modelLabel } from '../../components/model-labels';

/** What a write is, as the sync details and a refused write's notification name it. */
export function writeTitle(i18n: I18n, write: PendingWrite): string {
  const what = modelLabel(i18n, write.type);
  const name = write.name;
  if (name === null) {
    return i18n._(
      write.kind === 'create'
        ? msg`New ${what}`
        : write.kind === 'update'
          ? msg`Change of ${what}`
          : msg`Deletion of ${what}`,
    );
  }
  return i18n._(
    write.kind === 'create'
      ? msg`New ${what} “${name}”`
      : write.kind === 'update'
        ? msg`Change of ${what} “${name}”`
        : msg`Deletion of ${what} “${name}”`,
  );
}

/** Longer values are cut in what is shown (Copy takes them whole). */
const SHOWN_CHARS = 300;

/** The values a write gives, each as text: the user's own words, kept when the write is refused. */
export function writtenValues(write: PendingWrite): { field: string; value: string }[] {
  return Object.entries(write.values).map(([field, value]) => ({
    field,
    value: typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
  }));
}

/** One value as shown in a line: quoted, cut after SHOWN_CHARS. */
export function shownValue(value: string): string {
  return `“${value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value}”`;
}
