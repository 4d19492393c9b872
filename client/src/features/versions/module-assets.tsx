import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, MultiSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { LocalModel } from '@plant/sync-worker/api';
import { usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { useMayEdit } from '../../permissions/may-edit';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { RefusalAlert, useRefusal } from './release-parts';

/**
 * The assets a module version runs on (issue 35 item 1): made active, the version's interface,
 * flags, actions and streams go into their gateways' configuration (the server's configuration
 * rollout: each gateway gets it as its next configuration, one offline now when it is back).
 * Who manages gateways chooses them; a version of the module made active replaces the other.
 */
export function ModuleAssets({ release }: { readonly release: LocalModel<'release'> }) {
  const { t } = useLingui();
  const can = useCan();
  const a = release.attributes;
  const editable = useMayEdit('release', release) && can('gateway::edit');
  const assets = useLiveQuery({ type: 'asset', limit: 1000 });
  const [chosen, setChosen] = useState<string[]>([...a.assets]);
  const { dirty, changed, saving } = useUnsaved();
  useEffect(() => {
    if (!dirty) setChosen([...a.assets]);
  }, [a.assets, dirty]);
  const page = usePageState(['assets']);
  const [refusal, clearRefusal] = useRefusal(release.id, false);
  const gateways = new Set(
    (assets?.items ?? [])
      .filter((x) => chosen.includes(x.id) && x.attributes.gateway_id !== null)
      .map((x) => x.attributes.gateway_id),
  ).size;
  const save = async () => {
    clearRefusal();
    const saved = saving();
    if (
      page.took(
        await syncWorker().writes.update('release', release.id, { assets: chosen }),
        'write',
      )
    )
      saved();
  };
  return (
    <Paper withBorder p="md" radius="sm" data-testid="module-assets">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <Trans>Runs on assets</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          {a.state === 'active' ? (
            <Trans>Active: its interface is in the configuration of these assets' gateways.</Trans>
          ) : (
            <Trans>
              Made active, its interface goes into the configuration of these assets' gateways.
            </Trans>
          )}
        </Text>
        <MultiSelect
          label={t`Assets`}
          data={(assets?.items ?? []).map((x) => ({ value: x.id, label: x.attributes.name }))}
          value={chosen}
          readOnly={!editable}
          searchable
          onChange={(value) => {
            setChosen(value);
            changed();
          }}
          error={page.fields.assets}
          data-testid="module-assets-select"
        />
        <Text size="xs" c="dimmed" data-testid="module-assets-gateways">
          {t`Gateways that get it: ${gateways}`}
        </Text>
        {page.error === null ? null : <Alert color="red">{page.error}</Alert>}
        <RefusalAlert text={refusal} />
        {editable ? (
          <Group justify="flex-end" gap="sm">
            {page.saved === null ? null : (
              <Text size="sm" c="green" role="status">
                {page.saved}
              </Text>
            )}
            <Button onClick={() => void save()} disabled={!dirty} data-testid="module-assets-save">
              <Trans>Save assets</Trans>
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
