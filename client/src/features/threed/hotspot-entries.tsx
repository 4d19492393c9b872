import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { HotspotMetadata } from '@plant/shared-schema';
import { Name } from '../../components/name';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { downloadFile } from '../../sync/download-file';
import { useLiveModel } from '../../sync/hooks';
import { dashboardPaths } from '../dashboards/paths';
import { devicePaths } from '../devices/paths';
import { StreamValue } from './hotspot-parts';

/* A hotspot's entries as a reader sees them (issue 32 item 4): the panel's and the edit form's. */

/** One entry as a reader sees it. */
export function EntryView(props: { readonly entry: HotspotMetadata }) {
  const { i18n } = useLingui();
  const { entry } = props;
  switch (entry.kind) {
    case 'stream':
      return (
        <Group gap={4}>
          <StreamValue id={entry.datastream_id} withName />
        </Group>
      );
    case 'file':
      return <FileEntry id={entry.file_id} />;
    case 'text':
      return (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {entry.text}
        </Text>
      );
    case 'position': {
      const where = `${i18n.number(entry.latitude, { maximumFractionDigits: 6 })}, ${i18n.number(entry.longitude, { maximumFractionDigits: 6 })}`;
      return (
        <Text size="sm">
          {entry.label === '' ? null : (
            <>
              <Name>{entry.label}</Name>
              {': '}
            </>
          )}
          <span dir="ltr">{where}</span>
        </Text>
      );
    }
    case 'link':
      return <LinkEntry target={entry.target} id={entry.id} />;
  }
}

function FileEntry(props: { readonly id: string }) {
  const { i18n } = useLingui();
  const state = useLiveModel('file', props.id);
  const [error, setError] = useState<string | null>(null);
  if (state.name !== 'found')
    return state.name === 'missing' ? (
      <Text size="sm" c="dimmed">
        <Trans>The file is no longer here.</Trans>
      </Text>
    ) : null;
  const name = state.model.attributes.name;
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() =>
          void downloadFile(props.id, name).then((failed) =>
            setError(failed === null ? null : translateServerText(i18n, callErrorText(failed))),
          )
        }
      >
        <Name>{name}</Name>
      </Anchor>
      {error === null ? null : (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}

function LinkEntry(props: { readonly target: 'asset' | 'dashboard'; readonly id: string }) {
  const state = useLiveModel(props.target, props.id);
  if (state.name !== 'found')
    return state.name === 'missing' ? (
      <Text size="sm" c="dimmed">
        <Trans>The linked item is no longer here.</Trans>
      </Text>
    ) : null;
  const to =
    state.model.type === 'dashboard'
      ? dashboardPaths.of(state.model.id, state.model.attributes)
      : devicePaths.details(state.model.id);
  return (
    <Anchor component={Link} to={to} size="sm">
      <Name>{String(state.model.attributes.name)}</Name>
    </Anchor>
  );
}
