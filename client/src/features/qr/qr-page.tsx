import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../user/page-title';

/** /app/qr: the two things QR codes are for here, scanning one and printing labels. */
export function QrPage() {
  const { t } = useLingui();
  usePageTitle(t`QR codes`);
  return (
    <Stack gap="md">
      <Title order={1}>
        <Trans>QR codes</Trans>
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="qr-scan-title">
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h3" id="qr-scan-title">
              <Trans>Scan a code</Trans>
            </Title>
            <Text c="dimmed">
              <Trans>
                Use this device's camera to open an asset from its label, or to link a gateway.
              </Trans>
            </Text>
            <Button component={Link} to="/app/qr/scan" data-testid="qr-go-scan">
              <Trans>Scan</Trans>
            </Button>
          </Stack>
        </Paper>
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="qr-print-title">
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h3" id="qr-print-title">
              <Trans>Print labels</Trans>
            </Title>
            <Text c="dimmed">
              <Trans>
                Choose assets and gateways and print a sheet of labels with their QR codes, to stick
                on the machines.
              </Trans>
            </Text>
            <Button
              component={Link}
              to="/app/qr/details"
              variant="light"
              data-testid="qr-go-labels"
            >
              <Trans>Labels</Trans>
            </Button>
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
