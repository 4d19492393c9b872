import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  isolate,
  TEMPLATE_MAX_GROUPS_BYTES,
  templateAttributesSchema,
  templateGroupsBytes,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ModalForm } from '../../components/modal-form';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { layoutOf, streamCount } from './layout';
import { templatePaths } from './template-paths';

/**
 * "Save as layout" on an asset's page (spec 001 §1, template::create): the asset's stream groups
 * and streams with their settings, not their values, kept as a template under a name (the
 * asset's by default). Read from the local store and written through the worker: offline too.
 */
export function SaveAsLayoutButton({ asset }: { readonly asset: LocalModel<'asset'> }) {
  const { t } = useLingui();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can('template::create')) return null;
  return (
    <>
      <Button variant="light" onClick={() => setOpen(true)} data-testid="save-as-layout">
        <Trans>Save as template</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`Save as template`}>
        {open ? <SaveLayoutForm asset={asset} onClose={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

function SaveLayoutForm(props: {
  readonly asset: LocalModel<'asset'>;
  readonly onClose: () => void;
}) {
  const { t } = useLingui();
  const { asset } = props;
  const [name, setName] = useState(asset.attributes.name);
  const [description, setDescription] = useState('');
  const page = usePageState(['name']);
  const [saved, setSaved] = useState<{ id: string; name: string } | null>(null);
  const groups = useLiveQuery({
    type: 'datastreamgroup',
    parent: { type: 'asset', id: asset.id },
    limit: 1000,
  });
  const streams = useLiveQuery({
    type: 'datastream',
    search: { text: asset.id, fields: ['asset_id'] },
    limit: 1000,
  });
  const loaded = groups !== undefined && streams !== undefined;
  const layout = loaded
    ? layoutOf(
        groups.items,
        streams.items.filter((s) => s.attributes.asset_id === asset.id),
      )
    : [];
  const groupTotal = layout.length;
  const streamTotal = streamCount(layout);

  if (saved !== null) {
    return (
      <Stack gap="sm" role="status" data-testid="layout-saved">
        <Text>
          <Trans>
            The template {isolate(saved.name)} is saved. New assets can be made from it.
          </Trans>
        </Text>
        <Group justify="flex-end">
          <Anchor component={Link} to={templatePaths.details(saved.id)}>
            <Trans>Open the template</Trans>
          </Anchor>
          <Button onClick={props.onClose} data-autofocus>
            <Trans>Close</Trans>
          </Button>
        </Group>
      </Stack>
    );
  }

  // More streams than one read answers (1,000) would never fit a layout's bytes anyway.
  const tooLarge = () =>
    (streams !== undefined && streams.total > streams.items.length) ||
    templateGroupsBytes(layout) > TEMPLATE_MAX_GROUPS_BYTES;
  const submit = async () => {
    if (!loaded) return;
    if (tooLarge()) {
      page.fail(
        t`This asset's groups and streams are too large for one template: pre-processing code takes the most room.`,
      );
      return;
    }
    const attributes = { name, description, source_asset_id: asset.id, groups: layout };
    const checked = templateAttributesSchema.safeParse(attributes);
    if (page.check(checked) === null || !checked.success) {
      if (checked.error?.issues.some((i) => i.path[0] === 'name') === true) {
        document.getElementById('layout-name')?.focus();
      }
      return;
    }
    const answer = await syncWorker().writes.create('template', checked.data);
    if (!page.took(answer) || 'error' in answer) return;
    setSaved({ id: answer.data.id, name: checked.data.name });
  };

  return (
    <ModalForm
      testId="save-layout-form"
      onSubmit={submit}
      onCancel={props.onClose}
      submitLabel={<Trans>Save template</Trans>}
      error={page.error}
      disabled={!loaded}
    >
      <Text size="sm" c="dimmed" data-testid="layout-summary">
        {loaded ? (
          <Trans>
            The template keeps this asset's{' '}
            <Plural value={groupTotal} one="# stream group" other="# stream groups" /> and{' '}
            <Plural value={streamTotal} one="# data stream" other="# data streams" /> with their
            settings, not their values.
          </Trans>
        ) : (
          <Trans>Reading the asset's streams…</Trans>
        )}
      </Text>
      <TextInput
        id="layout-name"
        label={t`Name of the template`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        data-autofocus
      />
      <Textarea
        label={t`Description`}
        autosize
        minRows={2}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
    </ModalForm>
  );
}
