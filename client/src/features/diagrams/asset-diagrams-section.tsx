import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { diagramAttributesSchema, uuidv7 } from '@plant/shared-schema';
import { ModalForm } from '../../components/modal-form';
import { Name } from '../../components/name';
import { usePageState } from '../../components/page-state';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { diagramPath } from './paths';

/**
 * The "Diagrams" section of an asset's page (issue 37 item 4): the asset's process diagrams, each
 * opening its page, and a new one (who may edit the asset), made offline too.
 */
export function AssetDiagramsSection(props: { readonly assetId: string }) {
  const { t } = useLingui();
  const { assetId } = props;
  const diagrams = useLiveQuery({
    type: 'diagram',
    parent: { type: 'asset', id: assetId },
    limit: 200,
  });
  const mayCreate = useMayEdit('diagram', { id: '', attributes: { asset_id: assetId } });
  const [making, setMaking] = useState(false);
  const items = diagrams?.items ?? [];
  return (
    <Stack gap="xs" data-testid="asset-diagrams">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Diagrams</Trans>
        </Title>
        {mayCreate ? (
          <Button variant="light" onClick={() => setMaking(true)} data-testid="new-diagram">
            <Trans>New diagram</Trans>
          </Button>
        ) : null}
      </Group>
      {diagrams === undefined ? null : items.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="no-diagrams">
          <Trans>No diagrams yet.</Trans>
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((diagram) => (
            <li key={diagram.id}>
              <Anchor
                component={Link}
                to={diagramPath(assetId, diagram.id)}
                data-testid="diagram-open"
              >
                <Name>{diagram.attributes.name}</Name>
              </Anchor>
            </li>
          ))}
        </Stack>
      )}
      <Modal opened={making} onClose={() => setMaking(false)} title={t`New diagram`}>
        {making ? <NewDiagramForm assetId={assetId} onCancel={() => setMaking(false)} /> : null}
      </Modal>
    </Stack>
  );
}

function NewDiagramForm(props: { readonly assetId: string; readonly onCancel: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const page = usePageState(['name']);
  const submit = async () => {
    const checked = page.check(
      diagramAttributesSchema.safeParse({ asset_id: props.assetId, name }),
    );
    if (checked === null) {
      document.getElementById('diagram-name')?.focus();
      return;
    }
    setBusy(true);
    const id = uuidv7();
    const made = await syncWorker().writes.create('diagram', checked, id);
    setBusy(false);
    if (page.took(made, 'none')) void navigate({ to: diagramPath(props.assetId, id) });
  };
  return (
    <ModalForm
      testId="new-diagram-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create diagram</Trans>}
      error={page.error}
      busy={busy}
    >
      <TextInput
        id="diagram-name"
        label={t`Name`}
        required
        data-autofocus
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
      />
    </ModalForm>
  );
}
