import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
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
import type { LocalModel, Result } from '@plant/sync-worker/api';
import { useFormBase } from '../../components/changed-fields';
import { EmptyState } from '../../components/empty-state';
import { PageError, usePageState, type PageState } from '../../components/page-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { Name } from '../../components/name';
import { freeSlug } from '../integration/slug';

/** A webhook's settings and secret (issue 37 item 6): its own chunk, with its area's texts. */
const WebhookEditor = lazy(() =>
  import('../integration/webhook-editor').then((m) => ({ default: m.WebhookEditor })),
);

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

type SettingsType = 'integration' | 'service';

/**
 * Integrations and services of the account (spec 000 §2): synced models like every other, so the
 * list follows changes live and edits made offline are sent later. Each has a name and settings
 * (`name = value` per line); integrations a kind and an on/off switch, services a description.
 */
function SettingsList({ type }: { readonly type: SettingsType }) {
  const { t } = useLingui();
  const can = useCan();
  const permission = type === 'integration' ? 'integration' : 'service';
  const result = useLiveQuery({ type, limit: 1000 });
  const schema = type === 'integration' ? integrationAttributesSchema : serviceAttributesSchema;
  return (
    <ModelList
      testId={`${type}-list`}
      title={type === 'integration' ? <Trans>Integrations</Trans> : <Trans>Services</Trans>}
      newLabel={type === 'integration' ? t`New integration` : t`New service`}
      emptyTitle={type === 'integration' ? t`No integrations yet.` : t`No services yet.`}
      mayCreate={can(`${permission}::create`)}
      items={result?.items}
      check={(name) => schema.safeParse({ name })}
      create={(name) =>
        type === 'integration'
          ? syncWorker().writes.create(type, {
              name,
              slug: freeSlug(
                name,
                (result?.items ?? []).flatMap((i) => (i.type === 'integration' ? [i] : [])),
              ),
            })
          : syncWorker().writes.create(type, { name })
      }
    >
      {(item, page) => (
        <SettingsItem
          key={item.id}
          type={type}
          item={item}
          mayEdit={can(`${permission}::edit`)}
          mayDelete={can(`${permission}::delete`)}
          page={page}
        />
      )}
    </ModelList>
  );
}

/**
 * A page of one account-level list: its title, the page's message, a form that adds one by its
 * name (checked by the model's schema first), and the items, live.
 */
function ModelList<M extends { readonly id: string }>(props: {
  readonly testId: string;
  readonly title: ReactNode;
  readonly newLabel: string;
  readonly emptyTitle: string;
  readonly mayCreate: boolean;
  readonly items: readonly M[] | undefined;
  readonly check: (name: string) => z.ZodSafeParseResult<{ readonly name: string }>;
  readonly create: (name: string) => Promise<Result<unknown>>;
  readonly children: (item: M, page: PageState<never>) => ReactNode;
}) {
  const page = usePageState();
  const [name, setName] = useState('');
  const create = async () => {
    const parsed = page.check(props.check(name));
    if (parsed !== null && page.took(await props.create(parsed.name))) setName('');
  };
  return (
    <Stack gap="md" data-testid={props.testId}>
      <Title order={1}>{props.title}</Title>
      <PageError error={page.error} onClose={page.clear} />
      {props.mayCreate ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={props.newLabel}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Button type="submit">
              <Trans>Add</Trans>
            </Button>
          </Group>
        </form>
      ) : null}
      {props.items === undefined ? (
        <Text c="dimmed">
          <Trans>Loading…</Trans>
        </Text>
      ) : props.items.length === 0 ? (
        <EmptyState title={props.emptyTitle} />
      ) : (
        props.items.map((item) => props.children(item, page))
      )}
    </Stack>
  );
}

function SettingsItem(props: {
  readonly type: SettingsType;
  readonly item: LocalModel<'integration'> | LocalModel<'service'>;
  readonly mayEdit: boolean;
  readonly mayDelete: boolean;
  readonly page: PageState<never>;
}) {
  const { t } = useLingui();
  const { type, item, mayEdit, mayDelete, page } = props;
  const attributes = item.attributes;
  const [name, setName] = useState(attributes.name);
  const [settings, setSettings] = useState(settingsText(attributes.settings));
  const [extra, setExtra] = useState(
    'description' in attributes ? attributes.description : attributes.kind,
  );
  // The draft is taken once, as the item showed (a base that never follows: `dirty` always): a
  // save writes what the user changed from it, never another admin's change made meanwhile.
  const base = useFormBase<Record<string, unknown>>(attributes, true);
  const save = async () => {
    const values =
      type === 'integration'
        ? { name, kind: extra, settings: parseSettings(settings) }
        : { name, description: extra, settings: parseSettings(settings) };
    const schema = type === 'integration' ? integrationAttributesSchema : serviceAttributesSchema;
    if (page.check(schema.partial().safeParse(values)) === null) return;
    await base.save(values, async (changes) =>
      page.took(
        type === 'integration'
          ? await syncWorker().writes.update('integration', item.id, changes)
          : await syncWorker().writes.update('service', item.id, changes),
      ),
    );
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
        {item.type === 'integration' ? (
          <Suspense fallback={null}>
            <WebhookEditor integration={item} mayEdit={mayEdit} />
          </Suspense>
        ) : null}
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
  const { t } = useLingui();
  const can = useCan();
  const result = useLiveQuery({ type: 'errorcodelist', limit: 1000 });
  return (
    <ModelList
      testId="errorcodelist-list"
      title={<Trans>Error code lists</Trans>}
      newLabel={t`New error code list`}
      emptyTitle={t`No error code lists yet.`}
      mayCreate={can('errorcode::create')}
      items={result?.items}
      check={(name) => errorCodeListAttributesSchema.safeParse({ name })}
      create={(name) => syncWorker().writes.create('errorcodelist', { name })}
    >
      {(list, page) => (
        <CodeList
          key={list.id}
          list={list}
          mayEdit={can('errorcode::edit')}
          mayDelete={can('errorcode::delete')}
          page={page}
        />
      )}
    </ModelList>
  );
}

function CodeList(props: {
  readonly list: LocalModel<'errorcodelist'>;
  readonly mayEdit: boolean;
  readonly mayDelete: boolean;
  readonly page: PageState<never>;
}) {
  const { t } = useLingui();
  const { list, mayEdit, mayDelete, page } = props;
  const [code, setCode] = useState('');
  const [text, setText] = useState('');
  const write = async (codes: { code: string; text: string }[]) => {
    const parsed = page.check(errorCodeListAttributesSchema.shape.codes.safeParse(codes));
    return (
      parsed !== null &&
      page.took(await syncWorker().writes.update('errorcodelist', list.id, { codes: parsed }))
    );
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
