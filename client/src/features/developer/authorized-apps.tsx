import { useId } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Table, Title } from '@mantine/core';
import { isolate, type TokenWithClient } from '@plant/shared-schema';
import { developerApi } from './developer-api';
import { ConfirmButton } from './confirm-button';

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
      <Table aria-labelledby={headingId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <Trans>Name</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Scopes</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Actions</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {apps.map((app) => {
            const raw = app.client.name;
            // Isolated in the texts that mix it with ours (a name's U+202E reorders nothing).
            const name = isolate(raw);
            return (
              <Table.Tr key={app.id} data-testid="app-row">
                <Table.Td>
                  <bdi>{raw}</bdi>
                </Table.Td>
                <Table.Td>{app.scopes.join(', ')}</Table.Td>
                <Table.Td>
                  <ConfirmButton
                    label={t`Revoke`}
                    ariaLabel={t`Revoke ${name}`}
                    title={t`Revoke ${name}?`}
                    confirm={t`Revoke access`}
                    action={() => developerApi.revokeAppToken(app.id)}
                    done={props.changed}
                  >
                    <Trans>
                      The application loses its access and its refresh tokens; it must ask you
                      again.
                    </Trans>
                  </ConfirmButton>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
