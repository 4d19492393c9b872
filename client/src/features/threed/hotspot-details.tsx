import { lazy, Suspense, useState } from 'react';
import { HelpLink } from '../../components/help-link';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { isolate, type SceneCamera } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { Name } from '../../components/name';
import { EntryView } from './hotspot-entries';
import { HotspotGlyph } from './hotspot-icons';

/* Edit mode's form and the QR label load when used: the scene page's first visit stays small. */
const HotspotForm = lazy(() => import('./hotspot-form').then((m) => ({ default: m.HotspotForm })));
const HotspotQrLabel = lazy(() =>
  import('./hotspot-qr').then((m) => ({ default: m.HotspotQrLabel })),
);

/*
 * One hotspot's panel (issue 32 item 4): its data (live streams, files, places, links, text),
 * its view to jump to, and its QR code with the description printed above it. In edit mode the
 * same panel changes them: name, icon (from the icon font), the view, the entries, the QR
 * description, and deletes it.
 */

export function HotspotDetails(props: {
  readonly hotspot: LocalModel<'hotspot'>;
  readonly editing: boolean;
  /** The viewer's view now, for "Use the current view". */
  readonly useView: () => SceneCamera | null;
  readonly onGoTo: () => void;
  readonly onDeleted: () => void;
}) {
  const { t } = useLingui();
  const { hotspot } = props;
  const { name, icon, metadata } = hotspot.attributes;
  return (
    <Paper withBorder p="sm" data-testid="hotspot-details" data-id={hotspot.id}>
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <HotspotGlyph icon={icon} />
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
            <Name>{name}</Name>
          </Title>
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={props.onGoTo} data-testid="hotspot-go">
            <Trans>Go to its view</Trans>
          </Button>
          <HotspotQr hotspot={hotspot} />
        </Group>
        <HelpLink number={hotspot.attributes.help_article} />
        {props.editing ? (
          <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading the form…`} />}>
            <HotspotForm hotspot={hotspot} useView={props.useView} onDeleted={props.onDeleted} />
          </Suspense>
        ) : metadata.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>Nothing attached to this hotspot yet.</Trans>
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {metadata.map((entry, index) => (
              <li key={index} data-testid="hotspot-entry" data-kind={entry.kind}>
                <EntryView entry={entry} />
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** The hotspot's QR code button and dialog (its content loads when opened). */
function HotspotQr(props: { readonly hotspot: LocalModel<'hotspot'> }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const { name } = props.hotspot.attributes;
  return (
    <>
      <Button size="xs" variant="default" onClick={() => setOpen(true)} data-testid="hotspot-qr">
        <Trans>QR code</Trans>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t`QR code of ${isolate(name)}`}>
        {open ? (
          <Suspense fallback={<Loader role="status" aria-label={t`Loading…`} />}>
            <HotspotQrLabel hotspot={props.hotspot} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
