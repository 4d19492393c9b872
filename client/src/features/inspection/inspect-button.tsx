import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button, Text, VisuallyHidden } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { releaseProxy } from 'comlink';
import { DEFAULT_INSPECTION_SIDE_MS, uuidv7 } from '@plant/shared-schema';
import type {
  LocalModel,
  ModelQueryOf,
  QueryResult,
  RemoteUnsubscribe,
} from '@plant/sync-worker/api';
import type { DataColumn } from '../../components/data-table';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { proxy, syncWorker } from '../../sync/worker';
import { inspectionPath } from './paths';

/*
 * The way into an event inspection (issue 37 item 5) from the alarm screens: an alarm's raise
 * (its page) and each event of its history. The click opens the inspection of that alarm's
 * moment made earlier on this device or synced from a colleague, else makes one (its id made
 * here, so offline too: the outbox sends it later) and goes there. Imported by the alarm
 * screens, outside the inspection's own catalogue: its only text is the app catalogue's route
 * title 'Event inspection'.
 */

/** What is inspected: an asset's moment, of an alarm's event when `alarmId` is given. */
export interface InspectTarget {
  readonly assetId: string;
  readonly at: number;
  readonly alarmId: string | null;
}

/** The asset's inspections in the local store, read once. */
function inspectionsOf(assetId: string): Promise<readonly LocalModel<'inspection'>[]> {
  const query: ModelQueryOf<'inspection'> = {
    type: 'inspection',
    parent: { type: 'asset', id: assetId },
    limit: 1000,
  };
  // Comlink's Remote drops the type parameter (client/src/sync/hooks.ts says why).
  const subscribe = syncWorker().data.subscribe as unknown as (
    query: ModelQueryOf<'inspection'>,
    callback: (result: QueryResult<'inspection'>) => void,
  ) => Promise<RemoteUnsubscribe>;
  return new Promise((resolve, reject) => {
    let answered = false;
    const callback = proxy((result: QueryResult<'inspection'>) => {
      if (answered) return;
      answered = true;
      resolve(result.items);
      void opened.then(async (unsubscribe) => {
        await unsubscribe();
        unsubscribe[releaseProxy]();
      });
    });
    const opened = subscribe(query, callback);
    opened.catch(reject);
  });
}

/**
 * The inspection of this moment: the one already in the store (the same asset, moment and
 * alarm), else a new one with the default window. Answers its id, or the write's refusal.
 */
export async function openInspection(
  target: InspectTarget,
): Promise<{ readonly id: string } | { readonly error: string }> {
  const known = (await inspectionsOf(target.assetId)).find(
    (m) => m.attributes.at === target.at && m.attributes.alarm_id === target.alarmId,
  );
  if (known !== undefined) return { id: known.id };
  const id = uuidv7();
  const made = await syncWorker().writes.create(
    'inspection',
    {
      asset_id: target.assetId,
      at: target.at,
      alarm_id: target.alarmId,
      before_ms: DEFAULT_INSPECTION_SIDE_MS,
      after_ms: DEFAULT_INSPECTION_SIDE_MS,
    },
    id,
  );
  return 'error' in made ? { error: callErrorText(made.error) } : { id };
}

/** "Event inspection" of one moment: opens (or makes) its inspection and goes there. */
export function InspectButton(props: InspectTarget & { readonly compact?: boolean }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const can = useCan();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Who sees the asset opens an inspection of it (shared-schema models/inspection.ts).
  if (!can('asset::view')) return null;
  const open = async () => {
    setBusy(true);
    setProblem(null);
    const opened = await openInspection(props);
    setBusy(false);
    if ('error' in opened) {
      setProblem(translateServerText(i18n, opened.error));
      return;
    }
    await navigate({ to: inspectionPath(props.assetId, opened.id) });
  };
  return (
    <>
      <Button
        size={props.compact === true ? 'compact-xs' : 'sm'}
        variant="light"
        loading={busy}
        onClick={() => void open()}
        data-testid="inspect-event"
        data-at={props.at}
      >
        {t`Event inspection`}
      </Button>
      {problem === null ? null : (
        <Text size="xs" c="red" role="alert">
          {problem}
        </Text>
      )}
    </>
  );
}

/**
 * A table column with each row's "Event inspection" (the alarm page's history of raises and
 * clears): its header named for screen readers only, the button says what it does.
 */
export function inspectColumn<R>(target: (row: R) => InspectTarget): DataColumn<R> {
  return {
    id: 'inspect',
    header: <InspectHeader />,
    cell: (row) => <InspectButton {...target(row)} compact />,
  };
}

function InspectHeader() {
  const { t } = useLingui();
  return <VisuallyHidden>{t`Event inspection`}</VisuallyHidden>;
}
