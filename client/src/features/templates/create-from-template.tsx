import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button, Modal, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import {
  assetAttributesSchema,
  bindTemplateWidgets,
  isolate,
  uuidv7,
  type TemplateGroup,
} from '@plant/shared-schema';
import type { LocalModel, WorkerError } from '@plant/sync-worker/api';
import { ModalForm } from '../../components/modal-form';
import { usePageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { devicePaths } from '../devices/paths';
import { streamCount } from './layout';

/**
 * A new asset from a layout: the asset, then its groups in the layout's order, then each group's
 * streams with their settings, then a copy of each of the template's dashboards for the asset,
 * its widgets bound to the new streams (issue 31: `bindTemplateWidgets`). The ids are made here,
 * so each write names its parent before the parent has reached the server; every write lands in
 * the local store at once and is queued, so this works offline and the outbox sends them in this
 * order when the connection is back.
 */
export async function createAssetFromLayout(
  name: string,
  groups: readonly TemplateGroup[],
  dashboards: readonly LocalModel<'dashboard'>[] = [],
): Promise<{ readonly id: string } | { readonly error: WorkerError }> {
  const writes = syncWorker().writes;
  const assetId = uuidv7();
  const asset = await writes.create('asset', { name }, assetId);
  if ('error' in asset) return asset;
  const streamIds: string[][] = [];
  for (const [order, group] of groups.entries()) {
    const groupId = uuidv7();
    const ids: string[] = [];
    streamIds.push(ids);
    const made = await writes.create(
      'datastreamgroup',
      {
        asset_id: assetId,
        name: group.name,
        collapsible: group.collapsible,
        open_by_default: group.open_by_default,
        order,
      },
      groupId,
    );
    if ('error' in made) return made;
    for (const stream of group.streams) {
      const streamId = uuidv7();
      ids.push(streamId);
      const written = await writes.create(
        'datastream',
        { ...stream, asset_id: assetId, group_id: groupId },
        streamId,
      );
      if ('error' in written) return written;
    }
  }
  for (const dashboard of dashboards) {
    const { name: boardName, range, widgets } = dashboard.attributes;
    const copied = await writes.create(
      'dashboard',
      {
        name: boardName,
        asset_id: assetId,
        template_id: null,
        range,
        widgets: bindTemplateWidgets(widgets, streamIds),
      },
      uuidv7(),
    );
    if ('error' in copied) return copied;
  }
  return { id: assetId };
}

/** Whether the user may make assets with streams (what a template gives them). */
export function useMayCreateFromTemplate(): boolean {
  const can = useCan();
  return can('asset::create') && can('datastream::create');
}

/**
 * "Create asset" of a template (asset::create and datastream::create): the new asset's name in a
 * dialog (required, checked as the New asset form checks it), then its page opens.
 */
export function CreateFromTemplateButton(props: {
  readonly template: LocalModel<'template'>;
  readonly variant?: 'filled' | 'light' | 'subtle';
}) {
  const { t } = useLingui();
  const may = useMayCreateFromTemplate();
  const [open, setOpen] = useState(false);
  if (!may) return null;
  // Isolated: the name is inside the label's and the title's texts.
  const templateName = isolate(props.template.attributes.name);
  return (
    <>
      <Button
        variant={props.variant ?? 'filled'}
        onClick={() => setOpen(true)}
        data-testid="create-from-template"
        aria-label={t`Create asset from ${templateName}`}
      >
        <Trans>Create asset</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`New asset from ${templateName}`}>
        {open ? (
          <CreateFromTemplateForm template={props.template} onCancel={() => setOpen(false)} />
        ) : null}
      </Modal>
    </>
  );
}

function CreateFromTemplateForm(props: {
  readonly template: LocalModel<'template'>;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const page = usePageState(['name']);
  const [busy, setBusy] = useState(false);
  const groups = props.template.attributes.groups;
  // The template's dashboards come along for who may make dashboards (issue 31).
  const can = useCan();
  const mayCopy = can('dashboard::create');
  const boards = useLiveQuery(mayCopy ? { type: 'dashboard', limit: 1000 } : null);
  const dashboards = (boards?.items ?? []).filter(
    (d) => d.attributes.template_id === props.template.id,
  );
  const groupTotal = groups.length;
  const streamTotal = streamCount(groups);

  const submit = async () => {
    // The name alone is checked here: its messages belong on the field.
    const checked = page.check(assetAttributesSchema.pick({ name: true }).safeParse({ name }));
    if (checked === null) {
      document.getElementById('template-asset-name')?.focus();
      return;
    }
    setBusy(true);
    const made = await createAssetFromLayout(checked.name, groups, dashboards);
    setBusy(false);
    if (!page.took('error' in made ? made : { data: made }) || 'error' in made) return;
    await navigate({ to: devicePaths.details(made.id) });
  };

  return (
    <ModalForm
      testId="create-from-template-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create asset</Trans>}
      error={page.error}
      busy={busy}
    >
      <Text size="sm" c="dimmed">
        <Trans>
          The new asset gets the template's{' '}
          <Plural value={groupTotal} one="# stream group" other="# stream groups" /> and{' '}
          <Plural value={streamTotal} one="# data stream" other="# data streams" /> with their
          settings. It starts without values.
        </Trans>
      </Text>
      {dashboards.length === 0 ? null : (
        <Text size="sm" c="dimmed" data-testid="template-dashboard-count">
          <Plural
            value={dashboards.length}
            one="And the template's dashboard."
            other="And the template's # dashboards."
          />
        </Text>
      )}
      <TextInput
        id="template-asset-name"
        label={t`Name of the new asset`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        data-autofocus
      />
    </ModalForm>
  );
}
