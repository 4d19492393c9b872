import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { z } from 'zod';
import {
  errorCodeListAttributesSchema,
  integrationAttributesSchema,
  serviceAttributesSchema,
} from '@plant/shared-schema';
import type { LocalModel, WorkerError } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { Name } from '../../components/name';

/** Settings as the admin types them: one `name = value` per line. */
function settingsText(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
}

function parseSettings(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    const key = (at < 0 ? line : line.slice(0, at)).trim();
    if (key !== '') settings[key] = at < 0 ? '' : line.slice(at + 1).trim();
  }
  return settings;
}

/** The first message of a shared schema's refusal, translated. */
function firstProblem(error: z.ZodError, translate: (t: string) => string): string {
  return translate(error.issues[0]?.message ?? 'The given data was invalid.');
}

type SettingsType = 'integration' | 'service';

/**
 * Integrations and services of the account (spec 000 §2): synced models like every other, so the
 * list follows changes live and edits made offline are sent later. Each has a name and settings
 * (`name = value` per line); integrations a kind and an on/off switch, services a description.
 */
function SettingsList({ type }: { readonly type: SettingsType }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const permission = type === 'integration' ? 'integration' : 'service';
  const mayCreate = can(`${permission}::create`);
  const mayEdit = can(`${permission}::edit`);
  const mayDelete = can(`${permission}::delete`);
  const result = useLiveQuery({ type, limit: 1000 });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const translate = (text: string) => translateServerText(i18n, text);
  const fail = (e: WorkerError) => setError(translate(callErrorText(e)));

  const create = async () => {
    const schema = type === 'integration' ? integrationAttributesSchema : serviceAttributesSchema;
    const parsed = schema.safeParse({ name });
    if (!parsed.success) {
      setError(firstProblem(parsed.error, translate));
      return;
    }
    const answer = await syncWorker().writes.create(type, { name: parsed.data.name });
    if ('error' in answer) fail(answer.error);
    else {
      setError(null);
      setName('');
    }
  };

  const items = result?.items ?? [];
  return (
    <Stack gap="md" data-testid={`${type}-list`}>
      <Title order={1}>
        {type === 'integration' ? <Trans>Integrations</Trans> : <Trans>Services</Trans>}
      </Title>
      {error === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {mayCreate ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={type === 'integration' ? t`New integration` : t`New service`}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Button type="submit">
              <Trans>Add</Trans>
            </Button>
          </Group>
        </form>
      ) : null}
      {result === undefined ? (
        <Text c="dimmed">
          <Trans>Loading…</Trans>
        </Text>
      ) : items.length === 0 ? (
        <EmptyState
          title={type === 'integration' ? t`No integrations yet.` : t`No services yet.`}
        />
      ) : (
        items.map((item) => (
          <SettingsItem
            key={item.id}
            type={type}
            item={item}
            mayEdit={mayEdit}
            mayDelete={mayDelete}
            onError={setError}
          />
        ))
      )}
    </Stack>
  );
}

function SettingsItem(props: {
  readonly type: SettingsType;
  readonly item: LocalModel<'integration'> | LocalModel<'service'>;
  readonly mayEdit: boolean;
  readonly mayDelete: boolean;
  readonly onError: (message: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const { type, item, mayEdit, mayDelete } = props;
  const attributes = item.attributes;
  const [name, setName] = useState(attributes.name);
  const [settings, setSettings] = useState(settingsText(attributes.settings));
  const [extra, setExtra] = useState(
    'description' in attributes ? attributes.description : attributes.kind,
  );
  const translate = (text: string) => translateServerText(i18n, text);
  const save = async () => {
    const changes =
      type === 'integration'
        ? { name, kind: extra, settings: parseSettings(settings) }
        : { name, description: extra, settings: parseSettings(settings) };
    const schema = type === 'integration' ? integrationAttributesSchema : serviceAttributesSchema;
    const parsed = schema.partial().safeParse(changes);
    if (!parsed.success) {
      props.onError(firstProblem(parsed.error, translate));
      return;
    }
    const answer =
      type === 'integration'
        ? await syncWorker().writes.update('integration', item.id, changes)
        : await syncWorker().writes.update('service', item.id, changes);
    props.onError('error' in answer ? translate(callErrorText(answer.error)) : null);
  };
  return (
    <Paper withBorder p="sm" data-testid={`${type}-item`} data-name={attributes.name}>
      <Stack gap="xs">
        <Group align="flex-end">
          <TextInput
            label={t`Name`}
            value={name}
            disabled={!mayEdit}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label={type === 'integration' ? t`Kind` : t`Description`}
            value={extra}
            disabled={!mayEdit}
            onChange={(e) => setExtra(e.currentTarget.value)}
          />
          {'enabled' in attributes ? (
            <Switch
              label={t`Enabled`}
              checked={attributes.enabled}
              disabled={!mayEdit}
              onChange={(e) =>
                void syncWorker().writes.update('integration', item.id, {
                  enabled: e.currentTarget.checked,
                })
              }
            />
          ) : null}
        </Group>
        <Textarea
          label={t`Settings`}
          description={t`One per line: name = value`}
          autosize
          minRows={2}
          value={settings}
          disabled={!mayEdit}
          onChange={(e) => setSettings(e.currentTarget.value)}
        />
        <Group>
          <Button size="xs" disabled={!mayEdit} onClick={() => void save()}>
            <Trans>Save</Trans>
          </Button>
          <Button
            size="xs"
            color="red"
            variant="outline"
            disabled={!mayDelete}
            onClick={() => void syncWorker().writes.remove(type, item.id)}
          >
            <Trans>Delete</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function IntegrationsPage() {
  return <SettingsList type="integration" />;
}

export function ServicesPage() {
  return <SettingsList type="service" />;
}

/** Error code lists (spec 000 §2): each a name and its codes with their texts. */
export function ErrorCodeListsPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const mayCreate = can('errorcode::create');
  const mayEdit = can('errorcode::edit');
  const mayDelete = can('errorcode::delete');
  const result = useLiveQuery({ type: 'errorcodelist', limit: 1000 });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const translate = (text: string) => translateServerText(i18n, text);

  const create = async () => {
    const parsed = errorCodeListAttributesSchema.safeParse({ name });
    if (!parsed.success) {
      setError(firstProblem(parsed.error, translate));
      return;
    }
    const answer = await syncWorker().writes.create('errorcodelist', { name: parsed.data.name });
    if ('error' in answer) setError(translate(callErrorText(answer.error)));
    else {
      setError(null);
      setName('');
    }
  };
  const items = result?.items ?? [];
  return (
    <Stack gap="md" data-testid="errorcodelist-list">
      <Title order={1}>
        <Trans>Error code lists</Trans>
      </Title>
      {error === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {mayCreate ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={t`New error code list`}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Button type="submit">
              <Trans>Add</Trans>
            </Button>
          </Group>
        </form>
      ) : null}
      {result === undefined ? (
        <Text c="dimmed">
          <Trans>Loading…</Trans>
        </Text>
      ) : items.length === 0 ? (
        <EmptyState title={t`No error code lists yet.`} />
      ) : (
        items.map((list) => (
          <CodeList
            key={list.id}
            list={list}
            mayEdit={mayEdit}
            mayDelete={mayDelete}
            onError={setError}
          />
        ))
      )}
    </Stack>
  );
}

function CodeList(props: {
  readonly list: LocalModel<'errorcodelist'>;
  readonly mayEdit: boolean;
  readonly mayDelete: boolean;
  readonly onError: (message: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const { list, mayEdit, mayDelete } = props;
  const [code, setCode] = useState('');
  const [text, setText] = useState('');
  const translate = (message: string) => translateServerText(i18n, message);
  const write = async (codes: { code: string; text: string }[]) => {
    const parsed = errorCodeListAttributesSchema.shape.codes.safeParse(codes);
    if (!parsed.success) {
      props.onError(firstProblem(parsed.error, translate));
      return false;
    }
    const answer = await syncWorker().writes.update('errorcodelist', list.id, {
      codes: parsed.data,
    });
    props.onError('error' in answer ? translate(callErrorText(answer.error)) : null);
    return !('error' in answer);
  };
  const codes = list.attributes.codes;
  return (
    <Paper withBorder p="sm" data-testid="errorcodelist-item" data-name={list.attributes.name}>
      <Group justify="space-between">
        <Text fw={600}>
          <Name>{list.attributes.name}</Name>
        </Text>
        <Button
          size="xs"
          color="red"
          variant="outline"
          disabled={!mayDelete}
          onClick={() => void syncWorker().writes.remove('errorcodelist', list.id)}
        >
          <Trans>Delete list</Trans>
        </Button>
      </Group>
      <Table mt="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Code</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Text</Trans>
            </Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {codes.map((c) => (
            <Table.Tr key={c.code} data-testid="error-code">
              <Table.Td>{c.code}</Table.Td>
              <Table.Td>{c.text}</Table.Td>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  disabled={!mayEdit}
                  aria-label={t`Remove code ${c.code}`}
                  onClick={() => void write(codes.filter((o) => o.code !== c.code))}
                >
                  ✕
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {mayEdit ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void write([...codes, { code, text }]).then((ok) => {
              if (ok) {
                setCode('');
                setText('');
              }
            });
          }}
        >
          <Group align="flex-end" mt="xs">
            <TextInput
              label={t`Code`}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
            />
            <TextInput
              label={t`Text`}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            <Button type="submit" variant="light">
              <Trans>Add code</Trans>
            </Button>
          </Group>
        </form>
      ) : null}
    </Paper>
  );
}
