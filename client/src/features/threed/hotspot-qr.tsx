import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack } from '@mantine/core';
import { isolate } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { QrCode } from '../qr/qr-code';
import qr from '../qr/qr.module.css';
import { useSceneOwner } from './owner';
import { threedPaths } from './paths';
import classes from './threed.module.css';

/**
 * A hotspot's QR label (its dialog's content, a chunk of its own with the QR encoder): the code
 * opens the scene at the hotspot, its description printed above it; Print gives the label alone.
 */
export function HotspotQrLabel(props: { readonly hotspot: LocalModel<'hotspot'> }) {
  const { t } = useLingui();
  const { hotspot } = props;
  const {
    name,
    qr_description: description,
    asset_id: assetId,
    scene_id: sceneId,
  } = hotspot.attributes;
  // The scene on screen's owner (a template's scene's hotspot has no asset).
  const owner = useSceneOwner()?.owner ?? { kind: 'asset', id: assetId ?? '' };
  const text = `${location.origin}${threedPaths.scene(owner, sceneId)}?hotspot=${encodeURIComponent(hotspot.id)}`;
  return (
    <Stack gap="sm">
      <figure
        className={`${qr.label} ${classes.printable}`}
        style={{ margin: 0 }}
        data-testid="hotspot-qr-label"
      >
        {description === '' ? null : (
          <figcaption className={qr.labelName} data-testid="hotspot-qr-description">
            {description}
          </figcaption>
        )}
        <QrCode text={text} label={t`QR code of ${isolate(name)}`} className={qr.labelCode} />
      </figure>
      <Group justify="flex-end">
        <Button onClick={() => window.print()} data-testid="hotspot-qr-print">
          <Trans>Print</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
