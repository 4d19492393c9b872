import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { Link, Navigate } from '@tanstack/react-router';
import type { TemplateDemo } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { devicePaths } from '../devices/paths';
import { TemplateDetails } from './template-details-page';
import { templatePaths } from './template-paths';

type DemoState =
  | { readonly name: 'loading' }
  | { readonly name: 'none' }
  | { readonly name: 'found'; readonly template: LocalModel<'template'> };

/**
 * The account's demo template of a kind (the seed's, marked by the server-owned `demo`), from
 * the local store: 'none' once the store has loaded the account's templates without one.
 */
function useDemoTemplate(demo: TemplateDemo): DemoState {
  const can = useCan();
  const result = useLiveQuery(can('template::view') ? { type: 'template', limit: 1000 } : null);
  if (!can('template::view')) return { name: 'none' };
  const template = result?.items.find((t) => t.attributes.demo === demo);
  if (template !== undefined) return { name: 'found', template };
  return result?.complete === true ? { name: 'none' } : { name: 'loading' };
}

/** /app/templates/demo/smartphone: the demo template's details, or why there is none. */
export function DemoTemplatePage() {
  const state = useDemoTemplate('smartphone');
  if (state.name === 'loading') return <DemoSkeleton />;
  if (state.name === 'found') return <TemplateDetails model={state.template} />;
  return (
    <NoDemo>
      <Button component={Link} to={templatePaths.list()} variant="light">
        <Trans>Go to the templates</Trans>
      </Button>
    </NoDemo>
  );
}

/**
 * /app/devices/demo/smartphone: the demo asset's page. The demo asset is the one the demo
 * template was saved from (the seed makes them together), so it is found through the template.
 */
export function DemoDevicePage() {
  const state = useDemoTemplate('smartphone');
  if (state.name === 'loading') return <DemoSkeleton />;
  const assetId = state.name === 'found' ? state.template.attributes.source_asset_id : null;
  if (assetId !== null) return <Navigate to={devicePaths.details(assetId)} replace />;
  return (
    <NoDemo>
      <Button component={Link} to={devicePaths.list()} variant="light">
        <Trans>Go to the assets</Trans>
      </Button>
    </NoDemo>
  );
}

function NoDemo({ children }: { readonly children: ReactNode }) {
  return (
    <Stack gap="md" data-testid="demo-missing">
      <Title order={1}>
        <Trans>Smartphone demo</Trans>
      </Title>
      <EmptyState title={<Trans>This account has no smartphone demo</Trans>}>
        <Text c="dimmed" ta="center" maw={480}>
          <Trans>
            The smartphone demo comes with the demo data of the machine builder's account. Switch to
            that account, or make your own template with “Save as template” on an asset.
          </Trans>
        </Text>
        {children}
      </EmptyState>
    </Stack>
  );
}

function DemoSkeleton() {
  return (
    <Stack gap={10} aria-busy role="status" data-testid="demo-loading">
      <VisuallyHidden>
        <Trans>Loading the demo…</Trans>
      </VisuallyHidden>
      <Skeleton height={36} width="40%" aria-hidden />
      <Skeleton height={96} aria-hidden />
    </Stack>
  );
}
