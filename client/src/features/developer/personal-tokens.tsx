import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
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
import { DAY_MS, dateValue, dialogProblem, expiryOf, type DialogProblem } from './developer-rules';
import { ProblemAlert, scopeDescription, translateOAuthText } from './developer-texts';
import { ConfirmButton } from './confirm-button';
import { DataTable } from '../../components/data-table';
import { firstIssuePerField, type FieldErrors } from '../user/form-errors';

const FIELDS = ['name', 'scopes', 'role_id', 'expires_at'] as const;
type Field = (typeof FIELDS)[number];

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
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [problem, setProblem] = useState<DialogProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<PersonalTokenCreated | null>(null);

  if (created !== null) return <CreatedToken created={created} close={props.close} />;

  const submit = async () => {
    setProblem(null);
    const expires = expiryOf(day, Date.now());
    const checked = personalTokenCreateSchema.safeParse({
      name,
      scopes,
      ...(roleId === '' ? {} : { role_id: roleId }),
      ...(expires === null ? {} : { expires_at: expires }),
    });
    const found = checked.success ? {} : firstIssuePerField(checked.error.issues, FIELDS);
    if (expires === null) found.expires_at = OAUTH_TEXTS.expiryInvalid;
    setErrors(found);
    if (!checked.success || expires === null) return;
    setBusy(true);
    const answer = await developerApi.createPersonalToken(checked.data);
    setBusy(false);
    if ('error' in answer) setProblem(dialogProblem(answer.error));
    else setCreated(answer.data);
  };
  const error = (field: Field) => {
    const text = errors[field];
    return text === undefined ? undefined : translateOAuthText(i18n, text);
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <ProblemAlert problem={problem} />
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
        <Group justify="flex-end">
          <Button variant="default" onClick={props.close}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={busy}>
            <Trans>Create</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
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
      <Alert color="yellow" title={t`This is the only time it will be shown`}>
        <Trans>Copy it now and keep it safe: it cannot be shown again.</Trans>
      </Alert>
      <Code block data-testid="token-value" style={{ wordBreak: 'break-all' }}>
        {accessToken}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={accessToken}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t`Copied` : t`Copy token`}
            </Button>
          )}
        </CopyButton>
        <Button onClick={props.close}>
          <Trans>Close</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
