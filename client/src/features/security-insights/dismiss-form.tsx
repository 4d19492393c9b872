import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Textarea, TextInput } from '@mantine/core';
import {
  apiPaths,
  INSIGHT_LIMITS,
  insightDismissalSchema,
  insightDismissSchema,
  type InsightCheckId,
} from '@plant/shared-schema';
import { ModalForm } from '../../components/modal-form';
import { usePageState } from '../../components/page-state';
import { callApi } from '../../session/api';

const DAY_MS = 86_400_000;

/** A day as the date field writes it (YYYY-MM-DD, the reader's own calendar). */
function dateField(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of a chosen day in the reader's own time, in ms; NaN for no valid day. */
export function endOfDay(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m === null) return Number.NaN;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999).getTime();
}

/**
 * Dismissing a check (account admins): why, and until which day it stays dismissed; from the end
 * of that day it shows as failing again if it still fails. The server checks both again.
 */
export function DismissForm(props: {
  readonly checkId: InsightCheckId;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState(() => dateField(Date.now() + 30 * DAY_MS));
  const [busy, setBusy] = useState(false);
  const page = usePageState(['reason', 'expires_at']);
  const submit = async () => {
    const end = endOfDay(until);
    // A day gone by is no end: the schema's own message for a missing one says so.
    const body = page.check(
      insightDismissSchema.safeParse({ reason, expires_at: end > Date.now() ? end : Number.NaN }),
    );
    if (body === null) return;
    setBusy(true);
    const answer = await callApi(
      'POST',
      apiPaths.insightDismissal(props.checkId),
      insightDismissalSchema,
      { body, quiet: true },
    );
    setBusy(false);
    if (page.took(answer, 'call')) props.onDone();
  };
  return (
    <ModalForm
      testId="insight-dismiss-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Dismiss</Trans>}
      error={page.error}
      busy={busy}
    >
      <Textarea
        label={t`Why is it dismissed?`}
        required
        autosize
        minRows={2}
        maxLength={INSIGHT_LIMITS.reasonMaxChars}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        error={page.fields.reason}
        data-autofocus
      />
      <TextInput
        type="date"
        label={t`Dismissed until the end of`}
        description={t`Then it shows as failing again if it still fails.`}
        required
        value={until}
        min={dateField(Date.now())}
        max={dateField(Date.now() + (INSIGHT_LIMITS.dismissMaxDays - 1) * DAY_MS)}
        onChange={(e) => setUntil(e.currentTarget.value)}
        error={page.fields.expires_at}
      />
    </ModalForm>
  );
}
