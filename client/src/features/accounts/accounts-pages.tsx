import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { activeAccountIdAtom, sessionAtom } from '../../state/session';
import {
  isolate,
  ACCOUNT_EDIT_PERMISSION,
  designOfTheme,
  NO_DESIGN,
  type ModelAttributes,
  type ModelInput,
} from '@plant/shared-schema';
import { useCan } from '../../permissions/permissions';
import {
  accountCounts,
  accountTreeAtom,
  loadAccountTree,
  treeNodes,
} from '../../session/account-tree';
import { PageError, SavedNote, usePageState } from '../../components/page-state';
import { useUnsaved } from '../../components/unsaved';
import { useLiveModel, useLiveQuery, type ModelState } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import { Name } from '../../components/name';
import { ThemePreview } from '../../components/theme-preview';

/** An account as the screens show it: the synced `account` model. */
type Account = { readonly id: string } & ModelAttributes<'account'>;

/** A row of the tree: the account, its depth, and its counts when the server told them. */
interface Row {
  readonly account: Account;
  readonly depth: number;
  readonly counts: ReturnType<typeof accountCounts>;
}

/** The accounts in tree order: depth first, each parent before its children, siblings by name. */
function treeRows(
  accounts: readonly Account[],
  countsOf: (id: string) => ReturnType<typeof accountCounts>,
): Row[] {
  const ids = new Set(accounts.map((a) => a.id));
  const children = new Map<string | null, Account[]>();
  for (const a of accounts) {
    const parent = a.parent_id !== null && ids.has(a.parent_id) ? a.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), a]);
  }
  const rows: Row[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const a of children.get(parent) ?? []) {
      rows.push({ account: a, depth, counts: countsOf(a.id) });
      if (depth < 50) visit(a.id, depth + 1);
    }
  };
  visit(null, 0);
  return rows;
}

/**
 * /app/accounts/list (spec 000 §3): the account tree with its subaccounts, from the local store
 * (the synced `account` models: the active account and those below it), so it opens offline and
 * follows other admins' changes live. With account::edit a subaccount is made under any of them,
 * and each is renamed, moved or (de)activated in place, as writes the worker queues offline.
 * Deactivated accounts say 'Deactivated'. The users and assets counts come from the server when
 * it is reachable.
 */
export function AccountsListPage() {
  const { t } = useLingui();
  const can = useCan();
  const mayEdit = can(ACCOUNT_EDIT_PERMISSION);
  const result = useLiveQuery({ type: 'account', limit: 1000 });
  const user = useAtomValue(sessionAtom)?.user.id;
  const nodes = treeNodes(useAtomValue(accountTreeAtom), user);
  // The active account's own members and assets as this device knows them: when they change,
  // the counts are read again (another admin's new asset arrives as a live update).
  const members = useLiveQuery({ type: 'user', limit: 1 })?.total;
  const assets = useLiveQuery({ type: 'asset', limit: 1 })?.total;
  const [error, took, clearError] = useWriteOutcome();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const accounts: readonly Account[] | undefined = result?.items.map((m) => ({
    id: m.id,
    ...m.attributes,
  }));
  // The counts again whenever the tree or the active account's members or assets change, into
  // the tree the account switcher shows too (session/account-tree.ts: one source, the same
  // counts). Offline the call fails quietly and the last counts stay ('–' before any).
  const shape = JSON.stringify(accounts?.map((a) => [a.id, a.parent_id]) ?? []);
  useEffect(() => {
    if (user !== undefined) void loadAccountTree(user);
  }, [shape, user, members, assets]);

  const change = async (id: string, changes: Partial<ModelInput<'account'>>) =>
    took(await syncWorker().writes.update('account', id, changes));

  const create = async () => {
    const root = accounts?.find((a) => a.parent_id === null);
    const under = parent === '' ? root?.id : parent;
    const answer = await syncWorker().writes.create('account', {
      name,
      ...(under === undefined ? {} : { parent_id: under }),
    });
    if (took(answer)) setName('');
  };

  if (accounts === undefined) {
    return (
      <Text c="dimmed">
        <Trans>Loading accounts…</Trans>
      </Text>
    );
  }
  const rows = treeRows(accounts, (id) => accountCounts(nodes, id));
  const current = rows[0]?.account;

  return (
    <Stack gap="md" data-testid="accounts-page">
      <Title order={1}>
        <Trans>Account list</Trans>
      </Title>
      {error === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={clearError}>
          {error}
        </Alert>
      )}
      {mayEdit ? (
        <Paper withBorder p="sm" maw={720}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            <Group align="flex-end">
              <TextInput
                label={t`New subaccount`}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
              />
              <NativeSelect
                label={t`Under`}
                value={parent === '' ? (current?.id ?? '') : parent}
                data={rows.map((r) => ({ value: r.account.id, label: r.account.name }))}
                onChange={(e) => setParent(e.currentTarget.value)}
              />
              <Button type="submit">
                <Trans>Create subaccount</Trans>
              </Button>
            </Group>
          </form>
        </Paper>
      ) : null}
      <Table data-testid="accounts-tree">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Account</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Users</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Assets</Trans>
            </Table.Th>
            {mayEdit ? (
              <Table.Th>
                <Trans>Active</Trans>
              </Table.Th>
            ) : null}
            {mayEdit ? (
              <Table.Th>
                <Trans>Move under</Trans>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ account: a, depth, counts: n }) => (
            <Table.Tr key={a.id} data-testid="account-row" data-name={a.name}>
              <Table.Td style={{ paddingInlineStart: 12 + depth * 20 }}>
                <Group gap="xs">
                  <Anchor component={Link} to={`/app/accounts/${a.id}/details/${a.id}`}>
                    <Name>{a.name}</Name>
                  </Anchor>
                  {a.active ? null : (
                    <Badge color="gray" variant="light">
                      <Trans>Deactivated</Trans>
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td data-testid="account-users">{n?.users ?? '–'}</Table.Td>
              <Table.Td data-testid="account-assets">{n?.assets ?? '–'}</Table.Td>
              {mayEdit ? (
                <Table.Td>
                  <Switch
                    aria-label={t`${isolate(a.name)} is active`}
                    checked={a.active}
                    disabled={a.id === current?.id}
                    onChange={(e) => void change(a.id, { active: e.currentTarget.checked })}
                  />
                </Table.Td>
              ) : null}
              {mayEdit ? (
                <Table.Td>
                  {a.id === current?.id ? null : (
                    <NativeSelect
                      size="xs"
                      aria-label={t`Move ${isolate(a.name)} under`}
                      value=""
                      data={[
                        { value: '', label: t`Choose…` },
                        ...rows
                          .filter((o) => o.account.id !== a.id)
                          .map((o) => ({ value: o.account.id, label: o.account.name })),
                      ]}
                      onChange={(e) => {
                        if (e.currentTarget.value !== '') {
                          void change(a.id, { parent_id: e.currentTarget.value });
                        }
                      }}
                    />
                  )}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The account of the route, live from the local store. */
function useAccount(): ModelState<'account'> {
  const { accountid = '' }: { accountid?: string } = useParams({ strict: false });
  return useLiveModel('account', accountid);
}

function AccountState(props: { readonly state: ModelState<'account'> }) {
  return props.state.name === 'loading' ? (
    <Text c="dimmed">
      <Trans>Loading…</Trans>
    </Text>
  ) : (
    <Alert color="red">
      <Trans>Account not found.</Trans>
    </Alert>
  );
}

/** /app/accounts/{accountid}/details: the account's name and whether it is active. */
export function AccountDetailsPage() {
  const { t } = useLingui();
  const can = useCan();
  const mayEdit = can(ACCOUNT_EDIT_PERMISSION);
  const state = useAccount();
  const page = usePageState();
  const [name, setName] = useState<string | null>(null);
  const { changed, saving } = useUnsaved();
  const activeId = useAtomValue(activeAccountIdAtom);
  if (state.name !== 'found') return <AccountState state={state} />;
  const account: Account = { id: state.model.id, ...state.model.attributes };
  // Whether an account is active is decided from an account above it (the server says so too).
  const fromAbove = account.id !== activeId;
  const save = async (changes: Partial<ModelInput<'account'>>) => {
    const ended = saving();
    // The name field shows the stored name again only after its own save, and only if nothing
    // was typed meanwhile (the Active switch's save leaves a name being typed as it is).
    if (
      page.took(await syncWorker().writes.update('account', account.id, changes), 'write') &&
      'name' in changes &&
      ended()
    )
      setName(null);
  };
  return (
    <Stack gap="md" maw={520} data-testid="account-details">
      <Title order={1}>
        <Name>{account.name}</Name>
      </Title>
      <AccountScreens id={account.id} />
      {account.active ? null : (
        <Badge color="gray" variant="light">
          <Trans>Deactivated</Trans>
        </Badge>
      )}
      <Group align="flex-end">
        <TextInput
          label={t`Name`}
          value={name ?? account.name}
          disabled={!mayEdit}
          onChange={(e) => {
            setName(e.currentTarget.value);
            changed();
          }}
        />
        <Button disabled={!mayEdit} onClick={() => void save({ name: name ?? account.name })}>
          <Trans>Save</Trans>
        </Button>
      </Group>
      <Switch
        label={t`Active`}
        checked={account.active}
        disabled={!mayEdit || !fromAbove}
        description={fromAbove ? undefined : t`Decided by an administrator of a parent account.`}
        onChange={(e) => void save({ active: e.currentTarget.checked })}
      />
      <PageError error={page.error} />
      <SavedNote saved={page.saved} />
    </Stack>
  );
}

/** The account's other screens, from its page (issue 30 item 3: every screen by clicking). */
function AccountScreens({ id }: { readonly id: string }) {
  const { t } = useLingui();
  const screens = [
    { path: 'roles', label: t`Roles` },
    { path: 'design', label: t`Design` },
    { path: 'integrations', label: t`Integrations` },
    { path: 'services', label: t`Services` },
    { path: 'errorcodelists', label: t`Error code lists` },
    { path: 'security', label: t`Two-factor sign-in` },
  ];
  return (
    <Group component="nav" aria-label={t`The account's screens`} gap="xs">
      {screens.map((s) => (
        <Button
          key={s.path}
          component={Link}
          to={`/app/accounts/${encodeURIComponent(id)}/${s.path}`}
          variant="light"
          size="xs"
        >
          {s.label}
        </Button>
      ))}
    </Group>
  );
}

/**
 * /app/accounts/{accountid}/design (spec 001 §3 Theme, issue 36): the theme the account shows,
 * picked among the themes here (its own, or the one of the account above, "inherited"), with a
 * live preview; the host whose sign-in page shows it, tied from an account above.
 */
export function AccountDesignPage() {
  const { t } = useLingui();
  const can = useCan();
  const mayEdit = can(ACCOUNT_EDIT_PERMISSION);
  const state = useAccount();
  const activeId = useAtomValue(activeAccountIdAtom);
  const page = usePageState(['theme_id', 'host']);
  const themes = useLiveQuery({ type: 'theme', limit: 1000 });
  const [picked, setPicked] = useState<string | null>(null);
  const [host, setHost] = useState<string | null>(null);
  const { changed, saving } = useUnsaved();
  if (state.name !== 'found') return <AccountState state={state} />;
  const account = state.model;
  const a = account.attributes;
  const choice = picked ?? a.theme_id ?? '';
  const local = themes?.items.find((theme) => theme.id === choice);
  // A pick of a theme this user does not hold here (an account above's): shown by its title.
  const options = [
    { value: '', label: t`The theme of the account above` },
    ...(themes?.items ?? []).map((theme) => ({ value: theme.id, label: theme.attributes.title })),
    ...(a.theme_id !== null && !(themes?.items ?? []).some((theme) => theme.id === a.theme_id)
      ? [{ value: a.theme_id, label: a.theme.title ?? t`A theme of an account above` }]
      : []),
  ];
  const preview =
    local !== undefined
      ? designOfTheme(local.id, local.attributes)
      : choice === (a.theme_id ?? '')
        ? a.theme
        : NO_DESIGN;
  const save = async () => {
    const changes: Partial<ModelInput<'account'>> = {
      theme_id: choice === '' ? null : choice,
      ...(host === null ? {} : { host: host.trim() === '' ? null : host.trim() }),
    };
    const ended = saving();
    // The stored choice shows again unless one was changed while this was written.
    if (
      page.took(await syncWorker().writes.update('account', account.id, changes), 'write') &&
      ended()
    ) {
      setPicked(null);
      setHost(null);
    }
  };
  // Tied from above: an account's own admins do not take a host for it (the server says so too).
  const fromAbove = account.id !== activeId;
  return (
    <Stack gap="sm" maw={720} data-testid="account-design">
      <Title order={1}>
        <Trans>Design</Trans>
      </Title>
      <NativeSelect
        label={t`Theme`}
        data={options}
        value={choice}
        disabled={!mayEdit}
        onChange={(e) => {
          setPicked(e.currentTarget.value);
          changed();
        }}
        error={page.fields.theme_id}
        data-testid="account-theme"
      />
      {local === undefined ? null : (
        <Anchor component={Link} to={`/app/themes/${encodeURIComponent(local.id)}`} size="sm">
          <Trans>Edit this theme</Trans>
        </Anchor>
      )}
      <ThemePreview design={preview} />
      <TextInput
        label={t`Host of its sign-in page`}
        description={
          fromAbove
            ? t`Its users see this theme on the sign-in page at this address, like portal.example.com.`
            : t`Decided by an administrator of a parent account.`
        }
        value={host ?? a.host ?? ''}
        disabled={!mayEdit || !fromAbove}
        onChange={(e) => {
          setHost(e.currentTarget.value);
          changed();
        }}
        error={page.fields.host}
        data-testid="account-host"
      />
      <PageError error={page.error} />
      <Group>
        <Button disabled={!mayEdit} onClick={() => void save()} data-testid="account-design-save">
          <Trans>Save</Trans>
        </Button>
        <SavedNote saved={page.saved} />
      </Group>
    </Stack>
  );
}
