import './catalogues';
import { lazy, Suspense } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { THREED_TEXTS } from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { translateServerText } from '../../i18n/server-texts';
import { useLiveModel } from '../../sync/hooks';
import { ownerOf, sameOwner, type ThreedOwner } from './owner';
import { threedPaths } from './paths';

/* three and @react-three/fiber come with the viewer's chunk, on the 3D routes only. */
const SceneViewer = lazy(() =>
  import('./viewer/scene-viewer').then((m) => ({ default: m.SceneViewer })),
);

/**
 * /app/devices/{id}/3d/{threedmodelid} and /app/templates/{id}/3d/{threedmodelid}: one 3D model
 * of an asset or a template, from the local store (offline too), in the viewer once the server
 * has processed it.
 */
export function ThreedModelPage(props: { readonly of?: ThreedOwner['kind'] }) {
  const { t, i18n } = useLingui();
  const { id = '', threedmodelid = '' }: { id?: string; threedmodelid?: string } = useParams({
    strict: false,
  });
  const owner: ThreedOwner = { kind: props.of ?? 'asset', id };
  const state = useLiveModel('threedmodel', threedmodelid);
  if (state.name === 'loading') return <Loader role="status" aria-label={t`Loading the model…`} />;
  if (state.name !== 'found' || !sameOwner(ownerOf(state.model.attributes), owner)) {
    return (
      <EmptyState title={<Trans>There is no such 3D model here</Trans>}>
        <Anchor component={Link} to={threedPaths.owner(owner)}>
          {owner.kind === 'asset' ? (
            <Trans>Back to the asset</Trans>
          ) : (
            <Trans>Back to the template</Trans>
          )}
        </Anchor>
      </EmptyState>
    );
  }
  const { name, state: processing, reason, levels } = state.model.attributes;
  return (
    <Stack gap="md" data-testid="threed-model-page">
      <Title order={1}>
        <Name>{name}</Name>
      </Title>
      {processing === 'ready' ? (
        <Suspense fallback={<Loader role="status" aria-label={t`Loading the viewer…`} />}>
          <SceneViewer
            name={name}
            camera={null}
            placements={[
              {
                id: threedmodelid,
                name,
                levels,
                position: [0, 0, 0],
                rotation: [0, 0, 0],
                flipX: false,
                quality: 'auto',
              },
            ]}
          />
        </Suspense>
      ) : processing === 'failed' ? (
        <Text c="red" role="alert">
          {translateServerText(i18n, reason ?? THREED_TEXTS.loadFailed)}
        </Text>
      ) : (
        <Text c="dimmed" role="status">
          <Trans>The model is being processed; it shows here once it is ready.</Trans>
        </Text>
      )}
    </Stack>
  );
}

/** /app/templates/{id}/3d/{threedmodelid}: a template's 3D model. */
export function TemplateThreedModelPage() {
  return <ThreedModelPage of="template" />;
}
