import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
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
  clientCreateSchema,
  clientUpdateSchema,
  type ClientCreated,
  type OAuthClientView,
  type RoleView,
  isolate,
} from '@plant/shared-schema';
import { developerApi } from './developer-api';
import { DialogForm, SecretButtons, ShownOnceAlert, useDialogForm } from './dialog-form';
import { ConfirmButton } from './confirm-button';
import { DataTable } from '../../components/data-table';

const FIELDS = ['name', 'redirect', 'confidential', 'role_id'] as const;

/**
 * What the client dialog shows: a new client's form, an existing one's (name and redirect only),
 * or the new secret just made for a client.
 */
type Editing =
  | { readonly name: 'new' }
  | { readonly name: 'edit'; readonly client: OAuthClientView }
  | { readonly name: 'secret'; readonly created: ClientCreated };

/**
 * OAuth clients (spec 000 §3): the list, create, edit (name, redirect), a new secret and delete.
 * A client whose secret a password reset ended says so: it gets no token until its new secret.
 */
export function OAuthClients(props: {
  readonly clients: readonly OAuthClientView[];
  readonly roles: readonly RoleView[];
  readonly changed: () => void;
}) {
  const { t } = useLingui();
  const [editing, setEditing] = useState<Editing | null>(null);
  const headingId = useId();
  const clients = props.clients.filter((c) => !c.revoked);
  const close = () => {
    setEditing(null);
    props.changed();
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid="oauth-clients">
      <Group justify="space-between">
        <Title order={2} size="h3" id={headingId}>
          <Trans>OAuth clients</Trans>
        </Title>
        <Button onClick={() => setEditing({ name: 'new' })}>
          <Trans>Create new client</Trans>
        </Button>
      </Group>
      <DataTable
        rows={clients}
        columns={[
          { id: 'id', header: t`Client ID`, cell: (client) => <Code>{client.id}</Code> },
          { id: 'name', header: t`Name`, cell: (client) => <bdi>{client.name}</bdi> },
          {
            id: 'redirect',
            header: t`Redirect`,
            cellProps: { style: { wordBreak: 'break-all' } },
            cell: (client) => <bdi>{client.redirect}</bdi>,
          },
          {
            id: 'confidential',
            header: t`Confidential`,
            cell: (client) => (
              <>
                {client.confidential ? t`Yes` : t`No`}
                {client.needs_new_secret ? (
                  <Badge color="red" variant="light" ml="xs" data-testid="needs-new-secret">
                    <Trans>Needs a new secret</Trans>
                  </Badge>
                ) : null}
              </>
            ),
          },
          {
            id: 'actions',
            header: t`Actions`,
            cell: (client) => (
              <ClientActions client={client} edit={setEditing} changed={props.changed} />
            ),
          },
        ]}
        rowKey={(client) => client.id}
        rowData={() => ({ 'data-testid': 'client-row' })}
        name={{ labelledBy: headingId }}
        empty={
          <Text c="dimmed">
            <Trans>You have not created any OAuth clients.</Trans>
          </Text>
        }
      />
      <Modal
        opened={editing !== null}
        onClose={close}
        title={
          editing?.name === 'edit'
            ? t`Edit client`
            : editing?.name === 'secret'
              ? t`New client secret`
              : t`Create new client`
        }
        size="lg"
      >
        {editing === null ? null : editing.name === 'secret' ? (
          <CreatedClient created={editing.created} renewed close={close} />
        ) : (
          <ClientForm editing={editing} roles={props.roles} close={close} />
        )}
      </Modal>
    </Stack>
  );
}

/** Edit, a new secret (confidential clients) and delete, for one client's row. */
function ClientActions(props: {
  readonly client: OAuthClientView;
  readonly edit: (editing: Editing) => void;
  readonly changed: () => void;
}) {
  const { t } = useLingui();
  // Isolated in the texts that mix it with ours (a name's U+202E reorders nothing).
  const name = isolate(props.client.name);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        onClick={() => props.edit({ name: 'edit', client: props.client })}
        aria-label={t`Edit ${name}`}
      >
        <Trans>Edit</Trans>
      </Button>
      {props.client.confidential ? (
        <ConfirmButton
          label={t`New secret`}
          ariaLabel={t`New secret for ${name}`}
          title={t`A new secret for ${name}?`}
          confirm={t`Make a new secret`}
          action={async () => {
            const answer = await developerApi.newClientSecret(props.client.id);
            if (!('error' in answer)) {
              props.edit({ name: 'secret', created: answer.data });
            }
            return answer;
          }}
          done={() => undefined}
        >
          <Trans>
            The current secret stops working at once, and the tokens the client got with it end.
            Give the application the new one.
          </Trans>
        </ConfirmButton>
      ) : null}
      <ConfirmButton
        label={t`Delete`}
        ariaLabel={t`Delete ${name}`}
        title={t`Delete ${name}?`}
        confirm={t`Delete client`}
        action={() => developerApi.deleteClient(props.client.id)}
        done={props.changed}
      >
        <Trans>
          Applications that use this client can no longer sign in, and the tokens given to it stop
          working.
        </Trans>
      </ConfirmButton>
    </Group>
  );
}

function ClientForm(props: {
  readonly editing: Exclude<Editing, { name: 'secret' }>;
  readonly roles: readonly RoleView[];
  readonly close: () => void;
}) {
  const { t } = useLingui();
  const { editing } = props;
  const existing = editing.name === 'edit' ? editing.client : null;
  const [name, setName] = useState(existing?.name ?? '');
  const [redirect, setRedirect] = useState(existing?.redirect ?? '');
  const [confidential, setConfidential] = useState(true);
  const [roleId, setRoleId] = useState('');
  const form = useDialogForm(FIELDS);
  const [created, setCreated] = useState<ClientCreated | null>(null);

  if (created !== null) return <CreatedClient created={created} close={props.close} />;

  const submit = async () => {
    if (existing !== null) {
      const checked = form.check(clientUpdateSchema.safeParse({ name, redirect }));
      if (checked !== null)
        await form.send(() => developerApi.updateClient(existing.id, checked), props.close);
      return;
    }
    const checked = form.check(
      clientCreateSchema.safeParse({
        name,
        redirect,
        confidential,
        ...(confidential && roleId !== '' ? { role_id: roleId } : {}),
      }),
    );
    if (checked !== null) await form.send(() => developerApi.createClient(checked), setCreated);
  };
  const error = form.error;

  return (
    <DialogForm
      state={form}
      submit={submit}
      close={props.close}
      submitLabel={existing === null ? <Trans>Create</Trans> : <Trans>Save</Trans>}
    >
      <TextInput
        label={t`Name`}
        description={t`Users see this name when the application asks for access.`}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error('name')}
        required
        data-autofocus
      />
      <TextInput
        label={t`Redirect URL`}
        description={t`Where users are sent back after they answered: https, or http on this computer only.`}
        value={redirect}
        onChange={(e) => setRedirect(e.currentTarget.value)}
        error={error('redirect')}
        placeholder="https://example.com/callback"
        required
      />
      {existing === null ? (
        <>
          <Checkbox
            label={t`Confidential`}
            description={t`A server that keeps a secret. Leave it off for apps in a browser or on a phone: they use PKCE instead.`}
            checked={confidential}
            onChange={(e) => setConfidential(e.currentTarget.checked)}
            error={error('confidential')}
          />
          <NativeSelect
            label={t`Role for client credentials`}
            description={t`Lets the client get tokens for itself (server to server), acting with this role.`}
            value={confidential ? roleId : ''}
            disabled={!confidential}
            data={[
              { value: '', label: t`None` },
              ...props.roles.map((r) => ({ value: r.id, label: r.name })),
            ]}
            onChange={(e) => setRoleId(e.currentTarget.value)}
            error={error('role_id')}
          />
        </>
      ) : null}
    </DialogForm>
  );
}

/** A client's secret, shown this once: a new client's, or a new secret of an existing one. */
function CreatedClient(props: {
  readonly created: ClientCreated;
  readonly renewed?: boolean;
  readonly close: () => void;
}) {
  const { t } = useLingui();
  const { created } = props;
  const name = created.name;
  const secret = created.plainSecret ?? created.secret;
  return (
    <Stack gap="sm" data-testid="created-client">
      <Text>
        {props.renewed === true ? (
          <Trans>
            Client <bdi>{name}</bdi> has a new secret.
          </Trans>
        ) : (
          <Trans>
            Client <bdi>{name}</bdi> was created.
          </Trans>
        )}
      </Text>
      <Text size="sm" fw={600}>
        <Trans>Client ID</Trans>
      </Text>
      <Code block data-testid="client-id">
        {created.id}
      </Code>
      {secret === null ? (
        <Text size="sm">
          <Trans>This client is public: it has no secret and must use PKCE.</Trans>
        </Text>
      ) : (
        <>
          <ShownOnceAlert>
            <Trans>Copy the client secret now and keep it safe: it cannot be shown again.</Trans>
          </ShownOnceAlert>
          <Text size="sm" fw={600}>
            <Trans>Client secret</Trans>
          </Text>
          <Code block data-testid="client-secret" style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
        </>
      )}
      <SecretButtons secret={secret} copyLabel={t`Copy secret`} close={props.close} />
    </Stack>
  );
}
