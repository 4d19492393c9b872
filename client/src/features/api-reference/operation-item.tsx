import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { OpenApiOperation } from '@plant/shared-schema';
import { SchemaView } from './schema-view';
import type { TryToken } from './reference-api';
import { TryIt } from './try-it';

const METHOD_COLOR: Readonly<Record<string, string>> = {
  get: 'blue',
  post: 'green',
  put: 'orange',
  delete: 'red',
  patch: 'grape',
};

/** Who may call a route, as a badge: no token, the app only, any token, or the scopes. */
export function AccessBadges({ access }: { readonly access: OpenApiOperation['x-access'] }) {
  switch (access.kind) {
    case 'public':
      return (
        <Badge component="span" size="sm" variant="outline" color="gray">
          <Trans>No token needed</Trans>
        </Badge>
      );
    case 'first-party':
      return (
        <Badge component="span" size="sm" variant="outline" color="violet">
          <Trans>The app's own sign-in only</Trans>
        </Badge>
      );
    case 'any':
      return (
        <Badge component="span" size="sm" variant="outline" color="teal">
          <Trans>Any token</Trans>
        </Badge>
      );
    case 'scopes':
      return (
        <Group component="span" gap={4} wrap="wrap">
          {access.scopes.map((scope) => (
            <Badge
              key={scope}
              component="span"
              size="sm"
              variant="light"
              tt="none"
              data-testid="route-scope"
            >
              {scope}
            </Badge>
          ))}
        </Group>
      );
    default: {
      const never: never = access;
      return never;
    }
  }
}

/** What the access means, in a sentence, in the opened item. */
function AccessText({ access }: { readonly access: OpenApiOperation['x-access'] }) {
  switch (access.kind) {
    case 'public':
      return <Trans>Anyone may call it, without a token.</Trans>;
    case 'first-party':
      return (
        <Trans>
          Only the app's own sign-in may call it: personal access tokens and applications are
          refused.
        </Trans>
      );
    case 'any':
      return (
        <Trans>
          Any token may call it; what it reads or changes is what the token's role and its user may.
        </Trans>
      );
    case 'scopes': {
      const scopes = access.scopes.join(', ');
      return (
        <Trans>
          A token needs one of these scopes (a write scope includes its read): {scopes}. The user's
          permissions apply besides.
        </Trans>
      );
    }
    default: {
      const never: never = access;
      return never;
    }
  }
}

export function OperationControl({
  method,
  path,
  operation,
}: {
  readonly method: string;
  readonly path: string;
  readonly operation: OpenApiOperation;
}) {
  return (
    <Group component="span" gap="xs" wrap="wrap" data-testid="route">
      <Badge component="span" miw={72} color={METHOD_COLOR[method] ?? 'gray'} variant="filled">
        {method.toUpperCase()}
      </Badge>
      <Code dir="ltr" data-testid="route-path">
        {path}
      </Code>
      <Text component="span" size="sm" lang="en">
        {operation.summary}
      </Text>
      <AccessBadges access={operation['x-access']} />
    </Group>
  );
}

/** The opened item: access, parameters, body, answers, and Try it for a GET. */
export function OperationDetails({
  method,
  path,
  operation,
  token,
}: {
  readonly method: string;
  readonly path: string;
  readonly operation: OpenApiOperation;
  readonly token: TryToken | undefined;
}) {
  const { t } = useLingui();
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody?.content['application/json']?.schema;
  return (
    <Stack gap="md">
      <Text size="sm">
        <AccessText access={operation['x-access']} />
      </Text>
      {parameters.length > 0 && (
        <section>
          <Title order={4}>
            <Trans>Parameters</Trans>
          </Title>
          <Table.ScrollContainer minWidth={480}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t`Name`}</Table.Th>
                  <Table.Th>{t`In`}</Table.Th>
                  <Table.Th>{t`Schema`}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {parameters.map((p) => (
                  <Table.Tr key={`${p.in}:${p.name}`}>
                    <Table.Td>
                      <Code>{p.name}</Code>
                    </Table.Td>
                    <Table.Td>{p.in === 'path' ? t`path` : t`query`}</Table.Td>
                    <Table.Td>
                      <SchemaView schema={p.schema} />
                      {p.required ? (
                        <Text size="xs" c="orange">
                          <Trans>required</Trans>
                        </Text>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </section>
      )}
      {body !== undefined && (
        <section>
          <Title order={4}>
            <Trans>Request body (JSON)</Trans>
          </Title>
          <SchemaView schema={body} />
        </section>
      )}
      <section>
        <Title order={4}>
          <Trans>Answers</Trans>
        </Title>
        <Stack gap="xs">
          {Object.entries(operation.responses).map(([status, response]) => {
            const schema = response.content?.['application/json']?.schema;
            return (
              <div key={status}>
                <Text size="sm">
                  <Badge
                    component="span"
                    size="sm"
                    variant="light"
                    color={status.startsWith('2') ? 'green' : 'red'}
                  >
                    {status}
                  </Badge>{' '}
                  <span lang="en">{response.description}</span>
                </Text>
                {schema !== undefined && <SchemaView schema={schema} />}
              </div>
            );
          })}
        </Stack>
      </section>
      {method === 'get' && (
        <section>
          <Title order={4}>
            <Trans>Try it</Trans>
          </Title>
          <TryIt path={path} parameters={parameters} token={token} />
        </section>
      )}
    </Stack>
  );
}
