import { useCallback, useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  ColorSwatch,
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
import { z } from 'zod';
import {
  ACCOUNT_EDIT_PERMISSION,
  accountDesignSchema,
  accountTreeNodeSchema,
  accountViewSchema,
  apiPaths,
  type AccountDesign,
  type AccountTreeNode,
  type AccountView,
} from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { callApi } from '../../session/api';
import { firstIssuePerField, translatedErrors } from '../user/form-errors';

const treeSchema = z.array(accountTreeNodeSchema);

/** Depth of each node in the flat tree (its parents are before it). */
function depths(nodes: readonly AccountTreeNode[]): Map<string, number> {
  const depth = new Map<string, number>();
  for (const n of nodes) {
    depth.set(n.id, n.parent_id === null ? 0 : (depth.get(n.parent_id) ?? 0) + 1);
  }
  return depth;
}

/**
 * /app/accounts/list (spec 000 §3): the account tree with its subaccounts; with account::edit a
 * subaccount is made under any of them, and each is renamed, moved or (de)activated in place.
 * Deactivated accounts say 'Deactivated'.
 */
export function AccountsListPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const mayEdit = can(ACCOUNT_EDIT_PERMISSION);
  const [nodes, setNodes] = useState<readonly AccountTreeNode[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const fail = (e: WorkerError) => setError(translateServerText(i18n, callErrorText(e)));

  const load = useCallback(async () => {
    const answer = await callApi('GET', apiPaths.userAccounts(), treeSchema);
    if ('error' in answer) setError(callErrorText(answer.error));
    else setNodes(answer.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const change = async (id: string, body: object) => {
    const answer = await callApi('PUT', apiPaths.accountById(id), accountViewSchema, { body });
    if ('error' in answer) fail(answer.error);
    else {
      setError(null);
      await load();
    }
  };

  const create = async () => {
    const answer = await callApi('POST', apiPaths.subaccounts(), accountViewSchema, {
      body: { name, ...(parent === '' ? {} : { parent_id: parent }) },
    });
    if ('error' in answer) {
      fail(answer.error);
      return;
    }
    setError(null);
    setName('');
    await load();
  };

  if (nodes === null) {
    return error === null ? (
      <Text c="dimmed">
        <Trans>Loading accounts…</Trans>
      </Text>
    ) : (
      <Alert color="red">{error}</Alert>
    );
  }
  const depth = depths(nodes);
  const current = nodes.find((n) => n.current);

  return (
    <Stack gap="md" data-testid="accounts-page">
      <Title order={1}>
        <Trans>Account list</Trans>
      </Title>
      {error === null ? null : (
        <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
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
                data={nodes.map((n) => ({ value: n.id, label: n.text }))}
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
          {nodes.map((n) => (
            <Table.Tr key={n.id} data-testid="account-row" data-name={n.text}>
              <Table.Td style={{ paddingInlineStart: 12 + (depth.get(n.id) ?? 0) * 20 }}>
                <Group gap="xs">
                  <Anchor component={Link} to={`/app/accounts/${n.id}/details/${n.id}`}>
                    {n.text}
                  </Anchor>
                  {n.value.active ? null : (
                    <Badge color="gray" variant="light">
                      <Trans>Deactivated</Trans>
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{n.value.userCount}</Table.Td>
              <Table.Td>{n.value.assetCount}</Table.Td>
              {mayEdit ? (
                <Table.Td>
                  <Switch
                    aria-label={t`${n.text} is active`}
                    checked={n.value.active}
                    onChange={(e) => void change(n.id, { active: e.currentTarget.checked })}
                  />
                </Table.Td>
              ) : null}
              {mayEdit ? (
                <Table.Td>
                  {n.current ? null : (
                    <NativeSelect
                      size="xs"
                      aria-label={t`Move ${n.text} under`}
                      value=""
                      data={[
                        { value: '', label: t`Choose…` },
                        ...nodes
                          .filter((o) => o.id !== n.id)
                          .map((o) => ({ value: o.id, label: o.text })),
                      ]}
                      onChange={(e) => {
                        if (e.currentTarget.value !== '') {
                          void change(n.id, { parent_id: e.currentTarget.value });
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

function useAccount(): [AccountView | null, (next: AccountView) => void, string | null] {
  const { accountid = '' }: { accountid?: string } = useParams({ strict: false });
  const [account, setAccount] = useState<AccountView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void callApi('GET', apiPaths.accountById(accountid), accountViewSchema).then((answer) => {
      if ('error' in answer) setError(callErrorText(answer.error));
      else setAccount(answer.data);
    });
  }, [accountid]);
  return [account, setAccount, error];
}

/** /app/accounts/{accountid}/details: the account's name and whether it is active. */
export function AccountDetailsPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const mayEdit = can(ACCOUNT_EDIT_PERMISSION);
  const [account, setAccount, loadError] = useAccount();
  const [name, setName] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (account === null) {
    return loadError === null ? (
      <Text c="dimmed">
        <Trans>Loading…</Trans>
      </Text>
    ) : (
      <Alert color="red">{loadError}</Alert>
    );
  }
  const save = async (body: object) => {
    setStatus(null);
    const answer = await callApi('PUT', apiPaths.accountById(account.id), accountViewSchema, {
      body,
    });
    if ('error' in answer) {
      setError(translateServerText(i18n, callErrorText(answer.error)));
      return;
    }
    setError(null);
    setAccount(answer.data);
    setStatus(t`Saved.`);
  };
  return (
    <Stack gap="md" maw={520} data-testid="account-details">
      <Title order={1}>{account.name}</Title>
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
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Button disabled={!mayEdit} onClick={() => void save({ name: name ?? account.name })}>
          <Trans>Save</Trans>
        </Button>
      </Group>
      <Switch
        label={t`Active`}
        checked={account.active}
        disabled={!mayEdit}
        onChange={(e) => void save({ active: e.currentTarget.checked })}
      />
      {error === null ? null : (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Text role="status" size="sm" c="green">
        {status}
      </Text>
    </Stack>
  );
}

/**
 * /app/accounts/{accountid}/design (spec 001 §3 Theme): Color1, Color2, login image, mobile
 * logo, desktop logo, title; the account's style and the sign-in screen use them.
 */
export function AccountDesignPage() {
  const { t, i18n } = useLingui();
  const can = useCan();
  const mayEdit = can(ACCOUNT_EDIT_PERMISSION);
  const [account, setAccount, loadError] = useAccount();
  const [design, setDesign] = useState<AccountDesign | null>(null);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [status, setStatus] = useState<string | null>(null);
  if (account === null) {
    return loadError === null ? (
      <Text c="dimmed">
        <Trans>Loading…</Trans>
      </Text>
    ) : (
      <Alert color="red">{loadError}</Alert>
    );
  }
  const value = design ?? account.theme;
  const set = (field: keyof AccountDesign, text: string) =>
    setDesign({ ...value, [field]: text === '' ? null : text });
  const save = async () => {
    setStatus(null);
    const checked = accountDesignSchema.safeParse(value);
    if (!checked.success) {
      const fields = Object.keys(accountDesignSchema.shape) as (keyof AccountDesign)[];
      setErrors(
        translatedErrors(firstIssuePerField(checked.error.issues, fields), (text) =>
          translateServerText(i18n, text),
        ),
      );
      return;
    }
    const answer = await callApi('PUT', apiPaths.accountDesign(account.id), accountViewSchema, {
      body: checked.data,
    });
    if ('error' in answer) {
      setErrors({ form: translateServerText(i18n, callErrorText(answer.error)) });
      return;
    }
    setErrors({});
    setAccount(answer.data);
    setDesign(null);
    setStatus(t`Saved.`);
  };
  const text = (field: keyof AccountDesign, label: string) => (
    <TextInput
      label={label}
      value={value[field] ?? ''}
      disabled={!mayEdit}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errors[field]}
    />
  );
  // A plain field (#rrggbb) with a swatch: what is typed is what is checked.
  const colour = (field: 'color1' | 'color2', label: string) => (
    <TextInput
      label={label}
      value={value[field] ?? ''}
      disabled={!mayEdit}
      placeholder="#0b5394"
      leftSection={<ColorSwatch color={value[field] ?? 'transparent'} size={18} />}
      onChange={(e) => set(field, e.currentTarget.value.trim())}
      error={errors[field]}
    />
  );
  return (
    <Stack gap="sm" maw={520} data-testid="account-design">
      <Title order={1}>
        <Trans>Design</Trans>
      </Title>
      {colour('color1', t`Color1`)}
      {colour('color2', t`Color2`)}
      {text('title', t`Title`)}
      {text('loginImage', t`Login image`)}
      {text('logoMobile', t`Mobile logo`)}
      {text('logoDesktop', t`Desktop logo`)}
      {errors.form === undefined ? null : (
        <Alert color="red" role="alert">
          {errors.form}
        </Alert>
      )}
      <Group>
        <Button disabled={!mayEdit} onClick={() => void save()}>
          <Trans>Save</Trans>
        </Button>
        <Text role="status" size="sm" c="green">
          {status}
        </Text>
      </Group>
    </Stack>
  );
}
