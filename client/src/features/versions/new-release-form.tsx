import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { releaseAttributesSchema, uuidv7, type ReleaseTarget } from '@plant/shared-schema';
import { ModalForm } from '../../components/modal-form';
import { usePageState } from '../../components/page-state';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { versionPaths } from './paths';

export type Made = 'agent' | 'firmware' | 'module';

/** The "New version" dialog's form (new-release.tsx), a chunk of its own. */
export default function NewReleaseForm(props: {
  readonly targets: readonly Made[];
  readonly name?: string;
  readonly onCancel: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [target, setTarget] = useState<ReleaseTarget>(props.targets[0] ?? 'agent');
  const [name, setName] = useState(props.name ?? (target === 'agent' ? 'Gateway agent' : ''));
  const [version, setVersion] = useState('');
  const [firmwareId, setFirmwareId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const page = usePageState(['name', 'version', 'firmware_id']);
  const firmware = useLiveQuery({ type: 'firmware', limit: 1000 });
  const firmwareChoices = (firmware?.items ?? []).map((f) => ({
    value: f.id,
    label: `${f.attributes.name} (${f.attributes.type})`,
  }));

  const submit = async () => {
    const checked = page.check(
      releaseAttributesSchema
        .pick({ target: true, name: true, version: true, firmware_id: true })
        .safeParse({ target, name, version, firmware_id: firmwareId }),
    );
    if (checked === null) return;
    const id = uuidv7();
    setBusy(true);
    const made = await syncWorker().writes.create('release', checked, id);
    setBusy(false);
    if (!page.took(made)) return;
    await navigate({
      to: versionPaths.of({ id, attributes: checked }),
    });
  };

  return (
    <ModalForm
      testId="release-new-form"
      onSubmit={submit}
      onCancel={props.onCancel}
      submitLabel={<Trans>Create draft</Trans>}
      error={page.error}
      busy={busy}
    >
      <Stack gap="sm">
        {props.targets.length > 1 ? (
          <SegmentedControl
            aria-label={t`A version of`}
            value={target}
            onChange={(value) => {
              const next = value;
              setTarget(next);
              if (next === 'agent') setName('Gateway agent');
              else if (name === 'Gateway agent') setName('');
            }}
            data={props.targets.map((value) => ({
              value,
              label:
                value === 'agent'
                  ? t`Gateway agent`
                  : value === 'firmware'
                    ? t`Firmware`
                    : t`Module`,
            }))}
          />
        ) : null}
        {target === 'firmware' ? (
          firmwareChoices.length === 0 ? (
            <Text size="sm" c="dimmed">
              <Trans>Add the firmware first (Firmware tab).</Trans>
            </Text>
          ) : (
            <Select
              label={t`Firmware`}
              data={firmwareChoices}
              value={firmwareId}
              onChange={(id) => {
                setFirmwareId(id);
                const chosen = firmware?.items.find((f) => f.id === id);
                if (chosen !== undefined) setName(chosen.attributes.name);
              }}
              error={page.fields.firmware_id}
              data-testid="release-firmware"
            />
          )
        ) : null}
        <TextInput
          label={target === 'module' ? t`Module` : t`Name`}
          required
          value={name}
          readOnly={props.name !== undefined}
          onChange={(e) => setName(e.currentTarget.value)}
          error={page.fields.name}
          data-testid="release-name"
        />
        <TextInput
          label={t`Version`}
          description={t`Like 1.4.2`}
          required
          value={version}
          onChange={(e) => setVersion(e.currentTarget.value)}
          error={page.fields.version}
          data-autofocus
          data-testid="release-version"
        />
      </Stack>
    </ModalForm>
  );
}
