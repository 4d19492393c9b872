import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { INSPECTION_LIMITS } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { absoluteTime } from '../../components/time-ago';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { UserName } from '../alarms/alarm-parts';
import styles from './inspection.module.css';

/**
 * The inspection's notes (issue 37 item 5): each an `inspection_note` of its own, written to the
 * worker (shown at once, queued offline), so notes two colleagues add offline both land. Oldest
 * first; one not sent yet shows as waiting, by "you".
 */
export function InspectionNotes({ inspection }: { readonly inspection: LocalModel<'inspection'> }) {
  const { t, i18n } = useLingui();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const notes = useLiveQuery({
    type: 'inspection_note',
    parent: { type: 'inspection', id: inspection.id },
    limit: INSPECTION_LIMITS.maxNotes,
  });
  // The server's time orders them; one not sent yet has none and comes last.
  const items = [...(notes?.items ?? [])].sort(
    (a, b) => (a.attributes.at ?? Infinity) - (b.attributes.at ?? Infinity),
  );

  const add = async () => {
    setBusy(true);
    setProblem(null);
    const made = await syncWorker().writes.create('inspection_note', {
      inspection_id: inspection.id,
      asset_id: inspection.attributes.asset_id,
      text,
    });
    setBusy(false);
    if ('error' in made) {
      const field = Object.values(made.error.fields ?? {})[0]?.[0];
      setProblem(translateServerText(i18n, field ?? callErrorText(made.error)));
      return;
    }
    setText('');
  };

  return (
    <Stack gap="sm" data-testid="inspection-notes">
      <Title order={2} size="h4">
        <Trans>Notes</Trans>
      </Title>
      {notes === undefined ? null : items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="inspection-no-notes">
          <Trans>No notes yet.</Trans>
        </Text>
      ) : (
        <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {items.map((note) => (
            <Paper
              key={note.id}
              component="li"
              withBorder
              p="xs"
              data-testid="inspection-note"
              data-pending={note.pending}
            >
              <Group gap="xs" mb={4}>
                <Text size="xs" fw={600}>
                  {note.attributes.by_user === null ? (
                    <Trans>You</Trans>
                  ) : (
                    <UserName id={note.attributes.by_user} />
                  )}
                </Text>
                {note.attributes.at === null ? null : (
                  <Text size="xs" c="dimmed">
                    {absoluteTime(i18n, note.attributes.at)}
                  </Text>
                )}
                {note.pending ? (
                  <Badge size="xs" color="orange" variant="light">
                    <Trans>Not synced yet</Trans>
                  </Badge>
                ) : null}
              </Group>
              <Text size="sm" className={styles.note}>
                {note.attributes.text}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
      <Textarea
        label={t`New note`}
        value={text}
        maxLength={INSPECTION_LIMITS.maxNote}
        onChange={(e) => setText(e.currentTarget.value)}
        // Fixed rows: autosize measures the text area's computed style as the page first renders
        // (a style recalculation while the charts are being drawn).
        rows={3}
        error={problem ?? undefined}
        data-testid="inspection-note-text"
      />
      <Group>
        <Button
          onClick={() => void add()}
          loading={busy}
          disabled={text.trim() === ''}
          data-testid="inspection-note-add"
        >
          <Trans>Add note</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
