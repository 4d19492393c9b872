import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { assetAttributesSchema } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { useCan } from '../../permissions/permissions';
import { useMayEdit } from '../../permissions/may-edit';
import { useLiveModel } from '../../sync/hooks';
import { useRecordVisit } from '../../state/recent';
import { syncStatusAtom } from '../../sync/status';
import { syncWorker } from '../../sync/worker';
import { textOf } from './asset-texts';
import { assetStatusOf } from './asset-status-rule';
import { AssetStatusBadge } from './asset-status';
import { translateServerText } from '../../i18n/server-texts';
import { InlineEdit, ValueText, schemaValidator } from './inline-edit';
import { OnlineBadge } from '../gateway-pages/gateway-texts';
import { devicePaths } from './paths';
import { StreamGroups } from './stream-groups';
import { AssetPhoto } from './file-image';
import { AlarmSeverityBadge, useAlarmSummary } from '../alarms/alarm-summary';
import { Name } from '../../components/name';
import { AssetReports } from '../reports/asset-reports';
import { AssetDiagrams } from '../diagrams/asset-diagrams';

/* The alarms' section (with its table and form) is its own chunk: the page shows without it. */
const AlarmsSection = lazy(() =>
  import('../alarms/alarms-section').then((m) => ({ default: m.AlarmsSection })),
);
/* The asset's dashboards (issue 31): a chunk of its own, below the fold. */
const OwnDashboards = lazy(() =>
  import('../dashboards/dashboards-list-page').then((m) => ({ default: m.OwnDashboards })),
);
/*
 * What opens on a click (the asset form, the QR code, saving as a layout, the data wizard) comes in
 * chunks of their own, after the page: the page's first visit stays within its budget
 * (e2e/bundle-budget.test.ts). The buttons show when their chunk has come (the service worker
 * keeps every chunk for offline use).
 */
/* The documents (their table, uploads and kept copies) below the fold: a chunk of their own. */
const AssetDocuments = lazy(() =>
  import('./asset-files').then((m) => ({ default: m.AssetDocuments })),
);
/* The asset's 3D models (issue 32): their tiles and uploads, a chunk of their own. */
const AssetModels = lazy(() =>
  import('../threed/asset-models').then((m) => ({ default: m.AssetModels })),
);
/* Its service booklet and what is due on it (issue 37): a chunk of its own, below the fold. */
const AssetTasks = lazy(() =>
  import('../tasks/asset-tasks').then((m) => ({ default: m.AssetTasks })),
);
const EditAssetButton = lazy(() =>
  import('./asset-form').then((m) => ({ default: m.EditAssetButton })),
);
const DeleteAssetButton = lazy(() =>
  import('./asset-delete').then((m) => ({ default: m.DeleteAssetButton })),
);
const QrCodeButton = lazy(() =>
  import('../qr/qr-code-button').then((m) => ({ default: m.QrCodeButton })),
);
const SaveAsLayoutButton = lazy(() =>
  import('../templates/save-as-layout').then((m) => ({ default: m.SaveAsLayoutButton })),
);
const CollectDataWizard = lazy(() =>
  import('./collect-data-wizard').then((m) => ({ default: m.CollectDataWizard })),
);

/**
 * /app/devices/{id}/details: one asset from the local store, live. Name and description are
 * edited in place; the change lands in the local store at once (offline too) and shows as
 * pending until the server has it.
 */
export function DeviceDetailsPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const state = useLiveModel('asset', id);
  const { bootstrap } = useAtomValue(syncStatusAtom);
  // Home's "Recently opened" (issue 30 item 4): an asset that exists here.
  useRecordVisit('asset', state.name === 'found' ? id : null);
  if (state.name === 'found') return <AssetDetails model={state.model} />;
  // Not in the store yet is not "not found" while the store is still loading the account.
  if (state.name === 'loading' || bootstrap.name === 'idle' || bootstrap.name === 'loading') {
    return <DetailsSkeleton />;
  }
  return <AssetNotFound notLoaded={bootstrap.name === 'error'} />;
}

type EditableField = 'name' | 'description';

function AssetDetails({ model }: { readonly model: LocalModel<'asset'> }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const canEdit = useMayEdit('asset', model);
  const mayEditDescription = useMayEdit('asset', model, 'description');
  const name = textOf(model.attributes, 'name');
  const description = textOf(model.attributes, 'description');
  const mac = textOf(model.attributes, 'mac');
  const gatewayId = model.attributes.gateway_id;
  const [collecting, setCollecting] = useState(false);
  const canCollect = can('gateway::edit') && can('datastream::create');
  const { worstByAsset, raisedByAsset } = useAlarmSummary();

  const save =
    (field: EditableField) =>
    async (value: string): Promise<string | null> => {
      const result = await syncWorker().writes.update('asset', model.id, { [field]: value });
      if (!('error' in result)) return null;
      return translateServerText(i18n, result.error.fields?.[field]?.[0] ?? result.error.message);
    };

  return (
    <Stack gap="lg" data-testid="asset-details" data-id={model.id}>
      {/* The actions wrap under the name on a tablet rather than squeeze it (issue 30 item 12). */}
      <Group justify="space-between" align="flex-start" gap="md">
        <AssetPhoto asset={model} size={96} />
        <Box miw={0} style={{ flex: '1 1 16rem' }}>
          <InlineEdit
            label={t`Name`}
            value={name}
            canEdit={canEdit}
            validate={schemaValidator(i18n, assetAttributesSchema.shape.name)}
            save={save('name')}
            testId="asset-name"
          >
            <Title order={1} style={{ overflowWrap: 'break-word' }}>
              <Name testId="asset-title-name">{name}</Name>
            </Title>
          </InlineEdit>
        </Box>
        <Group gap="xs" wrap="nowrap">
          {model.pending ? (
            <Tooltip
              label={t`Saved on this device. It is sent to the server as soon as the connection allows.`}
              multiline
              w={260}
            >
              <Badge color="orange" variant="light" data-testid="asset-pending">
                <Trans>Not synced yet</Trans>
              </Badge>
            </Tooltip>
          ) : null}
          <AssetStatusBadge
            shown={assetStatusOf(model.attributes, raisedByAsset.get(model.id))}
            size="md"
          />
          <AlarmSeverityBadge severity={worstByAsset.get(model.id)} size="md" />
          <Suspense fallback={null}>
            <QrCodeButton item={{ kind: 'asset', id: model.id }} name={name} />
            <SaveAsLayoutButton asset={model} />
            <EditAssetButton model={model} />
            <DeleteAssetButton model={model} />
          </Suspense>
        </Group>
      </Group>

      <Paper withBorder p="md" radius="sm">
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" m={0}>
          <Field label={<Trans>Description</Trans>} wide>
            <InlineEdit
              label={t`Description`}
              value={description}
              multiline
              canEdit={mayEditDescription}
              validate={schemaValidator(i18n, assetAttributesSchema.shape.description)}
              save={save('description')}
              testId="asset-description"
            >
              <ValueText value={description} empty={<Trans>No description</Trans>} />
            </InlineEdit>
          </Field>
          <Field label={<Trans>Gateway</Trans>}>
            <GatewayField id={typeof gatewayId === 'string' ? gatewayId : null} />
          </Field>
          <Field label={<Trans>MAC address</Trans>}>
            <ValueText value={mac} empty={<Trans>No MAC address</Trans>} />
          </Field>
          <Field label={<Trans>Contacts</Trans>} wide>
            <Contacts contacts={model.attributes.contacts ?? []} />
          </Field>
        </SimpleGrid>
      </Paper>

      <Suspense fallback={<Skeleton height={80} />}>
        <AssetDocuments assetId={model.id} canEdit={canEdit} />
      </Suspense>

      <Suspense fallback={null}>
        <AssetModels owner={{ kind: 'asset', id: model.id }} canEdit={canEdit} />
      </Suspense>

      <Suspense fallback={null}>
        <AssetTasks assetId={model.id} />
      </Suspense>
      <AssetDiagrams assetId={model.id} />

      <Suspense fallback={null}>
        <AlarmsSection assetId={model.id} />
      </Suspense>

      <Suspense fallback={null}>
        <OwnDashboards assetId={model.id} templateId={null} />
      </Suspense>
      <AssetReports assetId={model.id} />

      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            <Trans>Data streams</Trans>
          </Title>
          {canCollect ? (
            <Button variant="light" onClick={() => setCollecting(true)} data-testid="collect-data">
              <Trans>Collect data</Trans>
            </Button>
          ) : null}
        </Group>
        {collecting ? (
          <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}>
            <CollectDataWizard asset={model} onClose={() => setCollecting(false)} />
          </Suspense>
        ) : null}
        <StreamGroups
          assetId={model.id}
          gatewayId={typeof gatewayId === 'string' ? gatewayId : null}
        />
      </Stack>
    </Stack>
  );
}

/** Who to call about the asset: e-mail addresses and phone numbers as links. */
function Contacts(props: {
  readonly contacts: readonly { readonly name: string; readonly value: string }[];
}) {
  if (props.contacts.length === 0) {
    return <ValueText value="" empty={<Trans>No contacts</Trans>} />;
  }
  return (
    <Stack gap={4} data-testid="asset-contact-list">
      {props.contacts.map((c, i) => {
        const href =
          c.value.includes('@') && !c.value.startsWith('@')
            ? `mailto:${c.value}`
            : c.value.startsWith('@')
              ? `https://t.me/${c.value.slice(1)}`
              : `tel:${c.value.replace(/[^+\d]/g, '')}`;
        return (
          <Text key={i} size="sm">
            {c.name === '' ? null : (
              <>
                <Name>{c.name}</Name>:{' '}
              </>
            )}
            <Anchor href={href}>{c.value}</Anchor>
          </Text>
        );
      })}
    </Stack>
  );
}

function Field({
  label,
  wide = false,
  children,
}: {
  readonly label: ReactNode;
  readonly wide?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <Box style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text component="dt" size="sm" c="dimmed" fw={500} mb={4}>
        {label}
      </Text>
      <Box component="dd" m={0}>
        {children}
      </Box>
    </Box>
  );
}

/** The connected gateway by name, linked to its page when the user may see gateways. */
function GatewayField({ id }: { readonly id: string | null }) {
  if (id === null) return <ValueText value="" empty={<Trans>No gateway connected</Trans>} />;
  return <GatewayName id={id} />;
}

function GatewayName({ id }: { readonly id: string }) {
  const can = useCan();
  const state = useLiveModel('gateway', id);
  if (state.name === 'loading') return <Skeleton height={16} width={160} />;
  if (state.name === 'missing') {
    return <ValueText value="" empty={<Trans>A gateway you cannot see</Trans>} />;
  }
  const name = textOf(state.model.attributes, 'name');
  return (
    <Group gap="xs">
      {can('gateway::view') ? (
        <Anchor component={Link} to={devicePaths.gatewayDetails(id)} data-testid="asset-gateway">
          <Name>{name}</Name>
        </Anchor>
      ) : (
        <Text data-testid="asset-gateway">
          <Name>{name}</Name>
        </Text>
      )}
      <OnlineBadge gateway={state.model} size="sm" />
    </Group>
  );
}

function DetailsSkeleton() {
  return (
    <Stack gap={10} aria-busy role="status" data-testid="asset-loading">
      <VisuallyHidden>
        <Trans>Loading the asset…</Trans>
      </VisuallyHidden>
      <Skeleton height={14} width={120} aria-hidden />
      <Skeleton height={36} width="40%" aria-hidden />
      <Skeleton height={96} aria-hidden />
      <Skeleton height={48} aria-hidden />
      <Skeleton height={48} aria-hidden />
    </Stack>
  );
}

function AssetNotFound({ notLoaded }: { readonly notLoaded: boolean }) {
  return (
    <Stack gap="md" data-testid="asset-not-found">
      <Title order={1}>
        <Trans>Asset not found</Trans>
      </Title>
      <EmptyState
        title={
          notLoaded ? (
            <Trans>This asset is not on this device yet</Trans>
          ) : (
            <Trans>There is no such asset in this account</Trans>
          )
        }
      >
        <Text c="dimmed" ta="center">
          {notLoaded ? (
            <Trans>
              The account's data could not be loaded from the server yet. It appears here once the
              connection is back.
            </Trans>
          ) : (
            <Trans>
              It may have been deleted, or the link belongs to another account. Switch the account
              or pick the asset from the list.
            </Trans>
          )}
        </Text>
        <Button component={Link} to={devicePaths.list()} variant="light">
          <Trans>Go to the assets</Trans>
        </Button>
      </EmptyState>
    </Stack>
  );
}
