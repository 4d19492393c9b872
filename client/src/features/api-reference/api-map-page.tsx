import './catalogues';
import { Trans } from '@lingui/react/macro';
import { Anchor, Code, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { API_BASE, appPaths } from '@plant/shared-schema';

/** The tree after the page's first render: the model registry is not in the page's first visit. */
const ApiMapTree = lazy(() => import('./api-map-tree').then((m) => ({ default: m.ApiMapTree })));

/**
 * /app/api/map (issue 18 item 5): the registry's models as a tree under the account, each with
 * its write routes' collection, its parent, the models under it, what it references and what
 * references it. Nested lists with a heading per model: a screen reader moves by heading or list,
 * and every relation is a link to the model it names.
 */
export function ApiMapPage() {
  return (
    <Stack gap="lg" maw={1100} data-testid="api-map">
      <Title order={1}>
        <Trans>Map of models</Trans>
      </Title>
      <Text>
        <Trans>
          Every model the app syncs, under the model it belongs to. Each is created, changed and
          deleted through its collection under <Code>{API_BASE}</Code>; a reference is an attribute
          that holds another model's id.
        </Trans>
      </Text>
      <Anchor component={Link} to={appPaths.apiReference()}>
        <Trans>API reference</Trans>
      </Anchor>
      <Suspense
        fallback={
          <Text c="dimmed" role="status">
            <Trans>Loading…</Trans>
          </Text>
        }
      >
        <ApiMapTree />
      </Suspense>
    </Stack>
  );
}
