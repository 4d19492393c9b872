import { useId } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Title } from '@mantine/core';
import { isolate, type TokenWithClient } from '@plant/shared-schema';
import { developerApi } from './developer-api';
import { ConfirmButton } from './confirm-button';
import { DataTable } from '../../components/data-table';

/**
 * The Authorized Applications table (spec 000 §2): shown only when at least one token exists.
 * Name (the client's), Scopes (comma-joined), Revoke; the list is read again after a revoke.
 */
export function AuthorizedApps(props: {
  readonly apps: readonly TokenWithClient[];
  readonly changed: () => void;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const apps = props.apps.filter((a) => !a.revoked);
  if (apps.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid="authorized-apps">
      <Title order={2} size="h3" id={headingId}>
        <Trans>Authorized Applications</Trans>
      </Title>
      <DataTable
        rows={apps}
        columns={[
          { id: 'name', header: t`Name`, cell: (app) => <bdi>{app.client.name}</bdi> },
          { id: 'scopes', header: t`Scopes`, cell: (app) => app.scopes.join(', ') },
          {
            id: 'actions',
            header: t`Actions`,
            cell: (app) => <RevokeApp app={app} done={props.changed} />,
          },
        ]}
        rowKey={(app) => app.id}
        rowData={() => ({ 'data-testid': 'app-row' })}
        name={{ labelledBy: headingId }}
        empty={null}
      />
    </Stack>
  );
}

function RevokeApp(props: { readonly app: TokenWithClient; readonly done: () => void }) {
  const { t } = useLingui();
  // Isolated in the texts that mix it with ours (a name's U+202E reorders nothing).
  const name = isolate(props.app.client.name);
  return (
    <ConfirmButton
      label={t`Revoke`}
      ariaLabel={t`Revoke ${name}`}
      title={t`Revoke ${name}?`}
      confirm={t`Revoke access`}
      action={() => developerApi.revokeAppToken(props.app.id)}
      done={props.done}
    >
      <Trans>The application loses its access and its refresh tokens; it must ask you again.</Trans>
    </ConfirmButton>
  );
}
