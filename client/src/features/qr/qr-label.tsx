import { Trans, useLingui } from '@lingui/react/macro';
import { Skeleton, Text } from '@mantine/core';
import { useLiveModel } from '../../sync/hooks';
import { textOf } from '../devices/asset-texts';
import { QrCode } from './qr-code';
import { qrTextOf, type QrItem } from './qr-payload';
import classes from './qr.module.css';
import { Name } from '../../components/name';
import { isolate } from '@plant/shared-schema';

export { qrItemKey, qrTextOf, type QrItem } from './qr-payload';

/** One printable label, read live from the local store: the code, the name, and the MAC or serial. */
export function QrLabel({ item }: { readonly item: QrItem }) {
  return item.kind === 'asset' ? <AssetLabel id={item.id} /> : <GatewayLabel id={item.id} />;
}

function AssetLabel({ id }: { readonly id: string }) {
  const state = useLiveModel('asset', id);
  if (state.name === 'loading') return <LabelSkeleton />;
  if (state.name === 'missing') return <MissingLabel />;
  const { attributes } = state.model;
  return (
    <Label
      item={{ kind: 'asset', id }}
      name={textOf(attributes, 'name')}
      detail={textOf(attributes, 'mac')}
    />
  );
}

function GatewayLabel({ id }: { readonly id: string }) {
  const { t } = useLingui();
  const state = useLiveModel('gateway', id);
  if (state.name === 'loading') return <LabelSkeleton />;
  if (state.name === 'missing') return <MissingLabel />;
  const { attributes } = state.model;
  const serial = textOf(attributes, 'serial');
  return (
    <Label
      item={{ kind: 'gateway', id }}
      name={textOf(attributes, 'name')}
      detail={serial === '' ? '' : t`Serial ${serial}`}
    />
  );
}

function Label({
  item,
  name,
  detail,
}: {
  readonly item: QrItem;
  readonly name: string;
  readonly detail: string;
}) {
  const { t } = useLingui();
  return (
    <figure
      className={classes.label}
      style={{ margin: 0 }}
      data-testid="qr-label"
      data-kind={item.kind}
      data-id={item.id}
    >
      <QrCode
        text={qrTextOf(item, location.origin)}
        label={t`QR code of ${{ name: isolate(name) }}`}
        className={classes.labelCode}
      />
      <figcaption>
        <div className={classes.labelName}>
          <Name>{name}</Name>
        </div>
        {detail === '' ? null : <div className={classes.labelDetail}>{detail}</div>}
      </figcaption>
    </figure>
  );
}

function LabelSkeleton() {
  return <Skeleton height={200} className={classes.noPrint} aria-hidden />;
}

/** A chosen item deleted meanwhile (or gone with an account switch): said, never printed. */
function MissingLabel() {
  return (
    <Text c="dimmed" size="sm" className={classes.noPrint} data-testid="qr-label-missing">
      <Trans>This item no longer exists; it is left out of the print.</Trans>
    </Text>
  );
}
