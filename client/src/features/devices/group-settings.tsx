import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { isolate, type ModelInput } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useCan } from '../../permissions/permissions';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import { textOf } from './asset-texts';
import { checkedGroupName } from './group-tools';

/*
 * A stream group's settings panel: a chunk of its own, loaded as it opens. Its switches were
 * the only ones on the asset's page, whose first visit stays within its budget without them.
 */

type StreamGroup = LocalModel<'datastreamgroup'>;

/** A group's settings, below its header while open. */
export function GroupSettings(props: {
  readonly group: StreamGroup;
  readonly onClose: () => void;
}) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const { group } = props;
  const stored = textOf(group.attributes, 'name');
  // Isolated: the name is inside the confirm's texts.
  const current = isolate(stored);
  const [name, setName] = useState(stored);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, took] = useWriteOutcome();
  const [asking, setAsking] = useState(false);
  const update = async (changes: Partial<ModelInput<'datastreamgroup'>>) =>
    took(await syncWorker().writes.update('datastreamgroup', group.id, changes));
  const rename = async () => {
    const checked = checkedGroupName(i18n, name, setProblem);
    if (checked !== null) await update({ name: checked });
  };
  return (
    <Stack gap="xs" p="sm" data-testid="stream-group-settings-panel" maw={520}>
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          label={t`Group name`}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={problem}
        />
        <Button variant="light" disabled={name.trim() === stored} onClick={() => void rename()}>
          <Trans>Rename</Trans>
        </Button>
      </Group>
      <Switch
        label={t`Collapsible`}
        checked={group.attributes.collapsible}
        onChange={(e) => void update({ collapsible: e.currentTarget.checked })}
      />
      <Switch
        label={t`Open by default`}
        checked={group.attributes.open_by_default}
        onChange={(e) => void update({ open_by_default: e.currentTarget.checked })}
      />
      {error === null ? null : (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {can('datastream::delete') ? (
        asking ? (
          <Alert color="red" role="alertdialog" title={t`Delete ${current}?`}>
            <Stack gap="xs">
              <Trans>Its data streams are deleted with it. This cannot be undone.</Trans>
              <Group>
                <Button variant="default" onClick={() => setAsking(false)}>
                  <Trans>Keep it</Trans>
                </Button>
                <Button
                  color="red"
                  onClick={() =>
                    void syncWorker()
                      .writes.remove('datastreamgroup', group.id)
                      .then((answer) => {
                        if (took(answer)) props.onClose();
                      })
                  }
                >
                  <Trans>Delete {current}</Trans>
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Button color="red" variant="outline" onClick={() => setAsking(true)}>
            <Trans>Delete group</Trans>
          </Button>
        )
      ) : null}
      <Button variant="default" onClick={props.onClose}>
        <Trans>Close</Trans>
      </Button>
    </Stack>
  );
}
