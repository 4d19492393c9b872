import { lazy, Suspense, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, CopyButton, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { qrTextOf, type QrItem } from './qr-payload';
import classes from './qr.module.css';
import { isolate } from '@plant/shared-schema';

/* The code's drawing (its encoder, 9 KB) loads as the dialog opens, not with the page. */
const QrCode = lazy(() => import('./qr-code').then((m) => ({ default: m.QrCode })));

/**
 * "QR code" on an asset's or a gateway's page: its code in a dialog (made in the browser, offline
 * too), the link it holds, and the way to its printable label.
 */
export function QrCodeButton({ item, name }: { readonly item: QrItem; readonly name: string }) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  const text = qrTextOf(item, location.origin);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)} data-testid="qr-code-button">
        <Trans>QR code</Trans>
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t`QR code of ${{ name: isolate(name) }}`}
        data-testid="qr-code-dialog"
      >
        <Stack gap="sm">
          <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading…`} />}>
            <QrCode
              text={text}
              label={t`QR code of ${{ name: isolate(name) }}`}
              className={classes.singleCode}
            />
          </Suspense>
          <Text size="sm" c="dimmed">
            {item.kind === 'asset' ? (
              <Trans>Scanning this code opens the asset's page.</Trans>
            ) : (
              <Trans>Scanning this code links the gateway and opens its page.</Trans>
            )}
          </Text>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {text}
          </Code>
          <Group justify="flex-end" gap="xs">
            <CopyButton value={text}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? <Trans>Copied</Trans> : <Trans>Copy the link</Trans>}
                </Button>
              )}
            </CopyButton>
            <Button
              component={Link}
              href={`/app/qr/details?${new URLSearchParams({ [item.kind]: item.id }).toString()}`}
              data-testid="qr-print-label"
            >
              <Trans>Print a label</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
