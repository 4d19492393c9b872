import { useState, type DragEvent, type ReactNode } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  NavLink,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import {
  isolate,
  CHOOSABLE_FIELDS,
  FIELD_TYPES,
  PERMISSION_AREAS,
  ROLE_EDIT_PERMISSION,
  ROLE_HAS_MEMBERS,
  ROLE_NAME_TAKEN,
  type FieldType,
  type ModelAttributes,
  type ModelInput,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { PageError, usePageState } from '../../components/page-state';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { permissionAreaLabel, permissionLabel } from './permission-texts';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import type { WorkerError } from '@plant/sync-worker/api';
import { textOf } from '../devices/asset-texts';
import { Name } from '../../components/name';

/** The item being dragged between the lists (an asset's or a field's name). */
const DRAG_TYPE = 'text/plain';

interface Item {
  readonly id: string;
  readonly label: string;
}

/**
 * Two lists (spec 001 §6): what the role does not have, and what it has. An item goes into the
 * role by drag and drop onto the role's list, or by its Add button (keyboard users); it leaves by
 * its Remove button. `extra` puts more controls on an item of the role (the pencil of edit rights).
 */
function DragLists(props: {
  readonly testId: string;
  readonly outsideTitle: ReactNode;
  readonly insideTitle: ReactNode;
  readonly outside: readonly Item[];
  readonly inside: readonly Item[];
  readonly disabled: boolean;
  readonly addLabel: (item: Item) => string;
  readonly removeLabel: (item: Item) => string;
  readonly onAdd: (id: string) => void;
  readonly onRemove: (id: string) => void;
  readonly extra?: (item: Item) => ReactNode;
  readonly outsideTop?: ReactNode;
  readonly empty: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const id = e.dataTransfer.getData(DRAG_TYPE);
    if (id !== '' && props.outside.some((i) => i.id === id)) props.onAdd(id);
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid={props.testId}>
      <Paper withBorder p="sm">
        <Text fw={600} mb="xs">
          {props.outsideTitle}
        </Text>
        {props.outsideTop}
        <Stack gap={4} role="list">
          {props.outside.map((item) => (
            <Group
              key={item.id}
              role="listitem"
              justify="space-between"
              wrap="nowrap"
              draggable={!props.disabled}
              onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, item.id)}
              data-testid={`${props.testId}-outside`}
              data-id={item.id}
              style={{ cursor: props.disabled ? 'default' : 'grab' }}
            >
              <Text size="sm">
                <Name>{item.label}</Name>
              </Text>
              <Button
                size="compact-xs"
                variant="light"
                disabled={props.disabled}
                aria-label={props.addLabel(item)}
                onClick={() => props.onAdd(item.id)}
              >
                <Trans>Add</Trans>
              </Button>
            </Group>
          ))}
        </Stack>
      </Paper>
      <Paper
        withBorder
        p="sm"
        onDragOver={(e) => {
          if (props.disabled) return;
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid={`${props.testId}-dropzone`}
        data-over={over}
        {...(over ? { bg: 'blue.0' } : {})}
      >
        <Text fw={600} mb="xs">
          {props.insideTitle}
        </Text>
        {props.inside.length === 0 ? (
          <Text size="sm" c="dimmed">
            {props.empty}
          </Text>
        ) : null}
        <Stack gap={4} role="list">
          {props.inside.map((item) => (
            <Group
              key={item.id}
              role="listitem"
              justify="space-between"
              wrap="nowrap"
              data-testid={`${props.testId}-inside`}
              data-id={item.id}
            >
              <Text size="sm">
                <Name>{item.label}</Name>
              </Text>
              <Group gap={4} wrap="nowrap">
                {props.extra?.(item)}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  disabled={props.disabled}
                  aria-label={props.removeLabel(item)}
                  onClick={() => props.onRemove(item.id)}
                >
                  ✕
                </ActionIcon>
              </Group>
            </Group>
          ))}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}

/** A role as the screen shows it: the synced `role` model (models/managed.ts). */
type Role = { readonly id: string } & ModelAttributes<'role'>;

/** A change of one role, queued in the worker's outbox (offline too). */
type RoleChange = (changes: Partial<ModelInput<'role'>>) => void;

/**
 * The roles of the active account (spec 000 §2 roles/{selected?}, spec 001 §6), from the local
 * store: every change is a write of the synced `role` model, shown at once, queued while offline,
 * and followed live when another admin changes a role. What the server refuses comes back as a
 * notice (the sync feedback) and the role returns to the server's state.
 */
export function RolesPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const mayEdit = can(ROLE_EDIT_PERMISSION);
  const params: { accountid?: string; selected?: string } = useParams({ strict: false });
  const navigate = useNavigate();
  const result = useLiveQuery({ type: 'role', limit: 1000 });
  const roles: readonly Role[] | undefined = result?.items.map((m) => ({
    id: m.id,
    ...m.attributes,
  }));
  const page = usePageState();
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  const selected = roles?.find((r) => r.id === params.selected) ?? null;
  const base = `/app/accounts/${params.accountid ?? ''}/roles`;

  const fail = (answer: { readonly error: WorkerError }) =>
    translateServerText(
      i18n,
      Object.values(answer.error.fields ?? {})[0]?.[0] ?? callErrorText(answer.error),
    );

  const change = (roleId: string) => (changes: Partial<ModelInput<'role'>>) => {
    void syncWorker()
      .writes.update('role', roleId, changes)
      .then((answer) => page.took(answer));
  };

  const create = async () => {
    const name = newName.trim();
    if (roles?.some((r) => r.name.trim().toLowerCase() === name.toLowerCase()) === true) {
      setNameError(translateServerText(i18n, ROLE_NAME_TAKEN));
      return;
    }
    const answer = await syncWorker().writes.create('role', { name });
    if ('error' in answer) {
      setNameError(fail(answer));
      return;
    }
    setNameError(null);
    setNewName('');
    await navigate({ to: `${base}/${answer.data.id}` });
  };

  if (roles === undefined) {
    return (
      <Text c="dimmed">
        <Trans>Loading roles…</Trans>
      </Text>
    );
  }

  return (
    <Stack gap="md" data-testid="roles-page">
      <Title order={1}>
        <Trans>Roles</Trans>
      </Title>
      <PageError error={page.error} />
      {mayEdit ? null : (
        <Alert color="yellow">
          <Trans>Please ask your administrator for the necessary permissions</Trans>
        </Alert>
      )}
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <Stack gap="xs" w={260} data-testid="roles-list">
          {roles.map((r) => (
            <NavLink
              key={r.id}
              component={Link}
              to={`${base}/${r.id}`}
              label={<Name>{r.name}</Name>}
              description={r.fixed ? t`Fixed` : undefined}
              active={r.id === selected?.id}
            />
          ))}
          {mayEdit ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void create();
              }}
            >
              <Stack gap={4}>
                <TextInput
                  label={t`New role`}
                  value={newName}
                  onChange={(e) => setNewName(e.currentTarget.value)}
                  error={nameError}
                />
                <Button type="submit">
                  <Trans>Create role</Trans>
                </Button>
              </Stack>
            </form>
          ) : null}
        </Stack>
        {/* Shrinks beside the list (min-width 0): the matrix scrolls in its own frame instead. */}
        <div style={{ flex: 1, minWidth: 0 }}>
          {selected === null ? (
            <EmptyState title={t`Choose a role to see what it may do.`} />
          ) : (
            <RoleDetails
              key={selected.id}
              role={selected}
              mayEdit={mayEdit && !selected.fixed}
              change={change(selected.id)}
              onDelete={async () => {
                if (selected.members > 0) {
                  page.fail(translateServerText(i18n, ROLE_HAS_MEMBERS));
                  return;
                }
                const answer = await syncWorker().writes.remove('role', selected.id);
                if (!page.took(answer)) return;
                await navigate({ to: base });
              }}
            />
          )}
        </div>
      </Group>
    </Stack>
  );
}

function RoleDetails(props: {
  readonly role: Role;
  readonly mayEdit: boolean;
  readonly change: RoleChange;
  readonly onDelete: () => Promise<void>;
}) {
  const { t, i18n } = useLingui();
  const { role, mayEdit, change } = props;
  const [name, setName] = useState(role.name);
  const [search, setSearch] = useState('');
  const assets = useLiveQuery({
    type: 'asset',
    limit: 1000,
    ...(search.trim().length >= 3 ? { search: { text: search.trim(), fields: ['name'] } } : {}),
  });
  const names = new Map((assets?.items ?? []).map((a) => [a.id, textOf(a.attributes, 'name')]));
  const given = new Map(role.assets.map((a) => [a.asset_id, a.edit]));
  const permissions = new Set(role.permissions);

  const togglePermission = (permission: string, on: boolean) => {
    const next = on
      ? [...permissions, permission]
      : [...permissions].filter((p) => p !== permission);
    // With what this screen showed: the server applies only this toggle to the stored list.
    change({ permissions: next, base: { permissions: role.permissions } });
  };
  const setAssets = (next: readonly { asset_id: string; edit: boolean }[]) =>
    change({ assets: [...next], base: { assets: role.assets } });

  return (
    <Stack gap="lg" data-testid="role-details">
      <Group align="flex-end">
        <TextInput
          label={t`Name`}
          value={name}
          disabled={!mayEdit}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Button
          variant="light"
          disabled={!mayEdit || name.trim() === role.name}
          onClick={() => change({ name })}
        >
          <Trans>Rename</Trans>
        </Button>
        <Button
          color="red"
          variant="outline"
          disabled={!mayEdit}
          onClick={() => void props.onDelete()}
        >
          <Trans>Delete role</Trans>
        </Button>
        <Badge variant="light">
          <Plural value={role.members} one="# user" other="# users" />
        </Badge>
      </Group>
      {role.fixed ? (
        <Text c="dimmed">
          <Trans>The roles admin and norole cannot be changed or deleted.</Trans>
        </Text>
      ) : null}

      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>Permissions</Trans>
        </Title>
        <SimpleGrid
          cols={{ base: 1, sm: 3 }}
          data-testid="permission-matrix"
          style={{ overflowX: 'auto' }}
        >
          {PERMISSION_AREAS.map((area) => (
            <Checkbox.Group
              key={area.area}
              label={permissionAreaLabel(i18n, area.area)}
              value={[...permissions]}
            >
              <Stack gap={4} mt={4}>
                {area.names.map((permission) => (
                  <Tooltip key={permission} label={permission} position="top-start" openDelay={400}>
                    <Checkbox
                      value={permission}
                      label={permissionLabel(i18n, permission)}
                      data-permission={permission}
                      disabled={!mayEdit}
                      checked={permissions.has(permission)}
                      onChange={(e) => togglePermission(permission, e.currentTarget.checked)}
                    />
                  </Tooltip>
                ))}
              </Stack>
            </Checkbox.Group>
          ))}
        </SimpleGrid>
      </Stack>

      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            <Trans>Assets</Trans>
          </Title>
          <Switch
            label={t`Access to every asset`}
            aria-label={t`Open access to every asset`}
            data-testid="role-all-assets"
            checked={role.all_assets}
            disabled={!mayEdit}
            onChange={(e) => change({ all_assets: e.currentTarget.checked })}
            thumbIcon={<span aria-hidden>🔑</span>}
          />
        </Group>
        {role.all_assets ? (
          <Text c="dimmed">
            <Trans>This role sees every asset of the account.</Trans>
          </Text>
        ) : (
          <DragLists
            testId="role-assets"
            outsideTitle={<Trans>Assets of the account</Trans>}
            insideTitle={<Trans>Assets of this role</Trans>}
            outsideTop={
              <TextInput
                mb="xs"
                aria-label={t`Search assets`}
                placeholder={t`Search (at least 3 characters)`}
                value={search}
                onChange={(e) => setSearch(e.currentTarget.value)}
              />
            }
            outside={(assets?.items ?? [])
              .filter((a) => !given.has(a.id))
              .map((a) => ({ id: a.id, label: textOf(a.attributes, 'name') }))}
            inside={role.assets.map((a) => ({
              id: a.asset_id,
              label: names.get(a.asset_id) ?? a.asset_id,
            }))}
            disabled={!mayEdit}
            addLabel={(item) => t`Give access to ${isolate(item.label)}`}
            removeLabel={(item) => t`Take access to ${isolate(item.label)} away`}
            onAdd={(id) => setAssets([...role.assets, { asset_id: id, edit: false }])}
            onRemove={(id) => setAssets(role.assets.filter((a) => a.asset_id !== id))}
            empty={<Trans>Drag an asset here to give this role access to it.</Trans>}
            extra={(item) => {
              const edit = given.get(item.id) === true;
              return (
                <ActionIcon
                  variant={edit ? 'filled' : 'subtle'}
                  aria-pressed={edit}
                  aria-label={t`Edit rights on ${isolate(item.label)}`}
                  disabled={!mayEdit}
                  data-testid="role-asset-edit"
                  onClick={() =>
                    setAssets(
                      role.assets.map((a) => (a.asset_id === item.id ? { ...a, edit: !edit } : a)),
                    )
                  }
                >
                  ✎
                </ActionIcon>
              );
            }}
          />
        )}
      </Stack>

      {FIELD_TYPES.map((type) => (
        <RoleFields key={type} role={role} type={type} mayEdit={mayEdit} change={change} />
      ))}
    </Stack>
  );
}

/** The fields of one type the role sees (spec 001 §6: dragged into the role). */
function RoleFields(props: {
  readonly role: Role;
  readonly type: FieldType;
  readonly mayEdit: boolean;
  readonly change: RoleChange;
}) {
  const { t } = useLingui();
  const { role, type, mayEdit, change } = props;
  // The registry's choosable fields, without its schemas (the page's budget).
  const all = CHOOSABLE_FIELDS[type];
  const listed = role.fields.find((f) => f.type === type)?.fields;
  const shown = listed === undefined ? all : all.filter((f) => listed.includes(f));
  const set = (fields: readonly string[] | null) =>
    change({
      fields: [
        ...role.fields.filter((f) => f.type !== type),
        ...(fields === null ? [] : [{ type, fields: [...fields] }]),
      ],
    });
  return (
    <Stack gap="xs" data-testid={`role-fields-${type}`}>
      <Group justify="space-between">
        <Title order={2} size="h4">
          {type === 'asset' ? <Trans>Asset fields</Trans> : <Trans>Data stream fields</Trans>}
        </Title>
        <Switch
          label={t`Every field`}
          checked={listed === undefined}
          disabled={!mayEdit}
          onChange={(e) => set(e.currentTarget.checked ? null : all)}
        />
      </Group>
      {listed === undefined ? (
        <Text c="dimmed">
          <Trans>This role sees every field.</Trans>
        </Text>
      ) : (
        <DragLists
          testId={`role-fields-${type}-lists`}
          outsideTitle={<Trans>Hidden fields</Trans>}
          insideTitle={<Trans>Fields this role sees</Trans>}
          outside={all.filter((f) => !shown.includes(f)).map((f) => ({ id: f, label: f }))}
          inside={shown.map((f) => ({ id: f, label: f }))}
          disabled={!mayEdit}
          addLabel={(item) => t`Show ${item.label}`}
          removeLabel={(item) => t`Hide ${item.label}`}
          onAdd={(id) => set([...shown, id])}
          onRemove={(id) => set(shown.filter((f) => f !== id))}
          empty={<Trans>Drag a field here to show it to this role.</Trans>}
        />
      )}
    </Stack>
  );
}
