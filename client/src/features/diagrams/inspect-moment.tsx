import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { localInput } from '../../components/date-range-control';
import { translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { openInspection } from '../inspection/inspect-button';
import { inspectionPath } from '../inspection/paths';

/**
 * "Any moment chosen on a diagram" (issue 37 item 5): below the process picture, the engineer
 * names a moment (now by default, in the browser's time zone) and opens the event inspection of
 * the diagram's asset around it, with no alarm to mark. Offline too: the inspection's id is made
 * here and the outbox sends it later; the same moment opened again on this device reopens the
 * same inspection.
 */
export function InspectMoment(props: { readonly assetId: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const can = useCan();
  const [moment, setMoment] = useState(() => localInput(Date.now()));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Who sees the asset opens an inspection of it (shared-schema models/inspection.ts).
  if (!can('asset::view')) return null;

  const open = async (event: FormEvent) => {
    event.preventDefault();
    // A datetime-local value reads as local time; an empty or partial one is not a moment.
    const at = moment === '' ? Number.NaN : new Date(moment).getTime();
    if (!Number.isFinite(at) || at < 0) {
      setProblem(t`Choose a date and time to inspect.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    const opened = await openInspection({ assetId: props.assetId, at, alarmId: null });
    setBusy(false);
    if ('error' in opened) {
      setProblem(translateServerText(i18n, opened.error));
      return;
    }
    await navigate({ to: inspectionPath(props.assetId, opened.id) });
  };

  return (
    <form onSubmit={(e) => void open(e)} noValidate data-testid="inspect-moment">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="datetime-local"
          label={t`Moment to inspect`}
          description={t`Every stream of the asset around this moment, on one time axis.`}
          value={moment}
          onChange={(e) => setMoment(e.currentTarget.value)}
          error={problem}
          data-testid="inspect-moment-at"
        />
        <Button type="submit" variant="light" loading={busy} data-testid="inspect-moment-open">
          <Trans>Event inspection</Trans>
        </Button>
      </Group>
    </form>
  );
}
