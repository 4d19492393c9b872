import type { ReactNode } from 'react';
import { Box, Image } from '@mantine/core';
import type { LocalModel } from '@plant/sync-worker/api';
import { useFileUrl } from '../../sync/files';
import { useLiveModel } from '../../sync/hooks';
import { textOf } from './asset-texts';
import classes from './asset-files.module.css';

/*
 * An asset's photo on its page and its card: small on purpose (the asset list's page loads it),
 * apart from the documents and uploads of asset-files.tsx.
 */

/** An asset's photo (its thumbnail), or its initial when it has none or it cannot be read. */
export function AssetPhoto(props: { readonly asset: LocalModel<'asset'>; readonly size: number }) {
  const photo =
    typeof props.asset.attributes.photo === 'string' ? props.asset.attributes.photo : null;
  const name = textOf(props.asset.attributes, 'name');
  return photo === null ? (
    <Initial name={name} size={props.size} />
  ) : (
    <FileImage
      id={photo}
      alt={name}
      size={props.size}
      fallback={<Initial name={name} size={props.size} />}
    />
  );
}

function Initial(props: { readonly name: string; readonly size: number }) {
  return (
    <Box
      className={classes.photoInitial}
      w={props.size}
      h={props.size}
      aria-hidden
      data-testid="asset-photo-initial"
    >
      {props.name.trim().charAt(0).toUpperCase() || '?'}
    </Box>
  );
}

/** An image file, its thumbnail when the server made one (the image itself until then). */
export function FileImage(props: {
  readonly id: string;
  readonly alt: string;
  readonly size: number;
  readonly fallback: ReactNode;
}) {
  const file = useLiveModel('file', props.id);
  const version =
    file.name === 'found'
      ? `${file.model.attributes.state}:${file.model.attributes.thumbnail}`
      : '';
  const url = useFileUrl(props.id, 'thumbnail', version);
  if (url === null || url.name === 'failed') return props.fallback;
  if (url.name === 'loading') return <Box w={props.size} h={props.size} aria-hidden />;
  return (
    <Image
      src={url.url}
      alt={props.alt}
      w={props.size}
      h={props.size}
      fit="cover"
      radius="sm"
      data-testid="asset-photo"
    />
  );
}
