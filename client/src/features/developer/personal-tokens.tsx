import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  OAUTH_TEXTS,
  PERSONAL_TOKEN_MAX_DAYS,
  personalTokenCreateSchema,
  type PersonalTokenCreated,
  type RoleView,
  type ScopeView,
  type TokenWithClient,
  isolate,
} from '@plant/shared-schema';
import { developerApi } from './developer-api';
import { DAY_MS, dateValue, expiryOf } from './developer-rules';
import { DialogForm, SecretButtons, ShownOnceAlert, useDialogForm } from './dialog-form';
import { scopeDescription } from './developer-texts';
import { ConfirmButton } from './confirm-button';
import { DataTable } from '../../components/data-table';

const FIELDS = ['name', 'scopes', 'role_id', 'expires_at'] as const;

/** Names of the roles by id, for the list's Role column. */
function roleName(roles: readonly RoleView[], id: string | null): string {
  if (id === null) return '–';
  return roles.find((r) => r.id === id)?.name ?? id;
}

/** Personal access tokens (spec 000 §3): the list, "Create new token" and Revoke per row. */
export function PersonalTokens(props: {
  readonly tokens: readonly TokenWithClient[];
  readonly roles: readonly RoleView[];
  readonly scopes: readonly ScopeView[];
  readonly changed: () => void;
}) {
  const { t, i18n } = useLingui();
  const [creating, setCreating] = useState(false);
  const tokens = props.tokens.filter((token) => !token.revoked);
  const headingId = useId();

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid="personal-tokens">
      <Group justify="space-between">
        <Title order={2} size="h3" id={headingId}>
          <Trans>Personal access tokens</Trans>
        </Title>
        <Button onClick={() => setCreating(true)}>
          <Trans>Create new token</Trans>
        </Button>
      </Group>
      <DataTable
        rows={tokens}
        columns={[
          { id: 'name', header: t`Name`, cell: (token) => <bdi>{token.name ?? ''}</bdi> },
          {
            id: 'scopes',
            header: t`Scopes`,
            cell: (token) => (token.scopes.length === 0 ? '–' : token.scopes.join(', ')),
          },
          {
            id: 'role',
            header: t`Role`,
            cell: (token) => <bdi>{roleName(props.roles, token.role_id)}</bdi>,
          },
          {
            id: 'expires',
            header: t`Expires`,
            cell: (token) => i18n.date(new Date(token.expires_at), { dateStyle: 'medium' }),
          },
          {
            id: 'actions',
            header: t`Actions`,
            cell: (token) => <RevokeToken token={token} done={props.changed} />,
          },
        ]}
        rowKey={(token) => token.id}
        rowData={() => ({ 'data-testid': 'token-row' })}
        name={{ labelledBy: headingId }}
        empty={
          <Text c="dimmed">
            <Trans>You have not created any personal access tokens.</Trans>
          </Text>
        }
      />
      <Modal
        opened={creating}
        onClose={() => {
          setCreating(false);
          props.changed();
        }}
        title={t`Create new token`}
        size="lg"
      >
        {creating ? (
          <CreateTokenForm
            roles={props.roles}
            scopes={props.scopes}
            close={() => {
              setCreating(false);
              props.changed();
            }}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}

function RevokeToken(props: { readonly token: TokenWithClient; readonly done: () => void }) {
  const { t } = useLingui();
  // Isolated in the texts that mix it with ours (a name's U+202E reorders nothing).
  const name = isolate(props.token.name ?? '');
  return (
    <ConfirmButton
      label={t`Revoke`}
      ariaLabel={t`Revoke ${name}`}
      title={t`Revoke ${name}?`}
      confirm={t`Revoke token`}
      action={() => developerApi.revokePersonalToken(props.token.id)}
      done={props.done}
    >
      <Trans>Programs that use this token can no longer reach the platform.</Trans>
    </ConfirmButton>
  );
}

function CreateTokenForm(props: {
  readonly roles: readonly RoleView[];
  readonly scopes: readonly ScopeView[];
  readonly close: () => void;
}) {
  const { t, i18n } = useLingui();
  const [now] = useState(() => Date.now());
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [roleId, setRoleId] = useState(props.roles[0]?.id ?? '');
  const [day, setDay] = useState(() => dateValue(new Date(now + PERSONAL_TOKEN_MAX_DAYS * DAY_MS)));
  const form = useDialogForm(FIELDS);
  const [created, setCreated] = useState<PersonalTokenCreated | null>(null);

  if (created !== null) return <CreatedToken created={created} close={props.close} />;

  const submit = async () => {
    const expires = expiryOf(day, Date.now());
    const checked = form.check(
      personalTokenCreateSchema.safeParse({
        name,
        scopes,
        ...(roleId === '' ? {} : { role_id: roleId }),
        ...(expires === null ? {} : { expires_at: expires }),
      }),
      expires === null ? { expires_at: OAUTH_TEXTS.expiryInvalid } : {},
    );
    if (checked === null) return;
    await form.send(() => developerApi.createPersonalToken(checked), setCreated);
  };
  const error = form.error;

  return (
    <DialogForm
      state={form}
      submit={submit}
      close={props.close}
      submitLabel={<Trans>Create</Trans>}
    >
      <TextInput
        label={t`Name`}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error('name')}
        required
        data-autofocus
      />
      <Checkbox.Group
        label={t`Scopes`}
        description={t`What the token may do; without a scope it may only call routes that need none.`}
        value={scopes}
        onChange={setScopes}
        error={error('scopes')}
      >
        <Stack gap={6} mt={6}>
          {props.scopes.map((scope) => (
            <Checkbox
              key={scope.id}
              value={scope.id}
              label={
                <>
                  <Code>{scope.id}</Code> {scopeDescription(i18n, scope)}
                </>
              }
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <NativeSelect
        label={t`Role`}
        description={t`The token acts with this role's data access.`}
        value={roleId}
        data={props.roles.map((r) => ({ value: r.id, label: r.name }))}
        onChange={(e) => setRoleId(e.currentTarget.value)}
        error={error('role_id')}
      />
      <TextInput
        type="date"
        label={t`Expires`}
        description={t`At most a year from today.`}
        value={day}
        min={dateValue(new Date(now + DAY_MS))}
        max={dateValue(new Date(now + PERSONAL_TOKEN_MAX_DAYS * DAY_MS))}
        onChange={(e) => setDay(e.currentTarget.value)}
        error={error('expires_at')}
        required
      />
    </DialogForm>
  );
}

function CreatedToken(props: {
  readonly created: PersonalTokenCreated;
  readonly close: () => void;
}) {
  const { t } = useLingui();
  const { accessToken, token } = props.created;
  const name = token.name ?? '';
  return (
    <Stack gap="sm" data-testid="created-token">
      <Text>
        <Trans>
          Personal access token <bdi>{name}</bdi> was created.
        </Trans>
      </Text>
      <ShownOnceAlert>
        <Trans>Copy it now and keep it safe: it cannot be shown again.</Trans>
      </ShownOnceAlert>
      <Code block data-testid="token-value" style={{ wordBreak: 'break-all' }}>
        {accessToken}
      </Code>
      <SecretButtons secret={accessToken} copyLabel={t`Copy token`} close={props.close} />
    </Stack>
  );
}
