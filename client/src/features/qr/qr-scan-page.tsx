import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Code,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { usePageTitle } from '../user/page-title';
import { parseQrText, parseTypedCode, qrTargetPath, type QrReading } from './qr-payload';
import { useCameraScan, type CameraState } from './use-camera-scan';
import classes from './qr.module.css';

/** A reading the scanner does not follow, shown until another code is read. */
type Refused = Extract<QrReading, { kind: 'unknown' | 'foreign' }>;

/**
 * /app/qr/scan: the device camera (the rear one preferred) decoded in the page. A code of this
 * app opens what it names: an asset's page, or /scan?id= for a gateway (which links it, switching
 * account when needed). Anything else is said and not followed. Without a camera (refused,
 * missing, busy) a code or a gateway's serial number can be typed or pasted instead.
 */
export function QrScanPage() {
  const { t } = useLingui();
  usePageTitle(t`Scan a QR code`);
  const navigate = useNavigate();
  const video = useRef<HTMLVideoElement>(null);
  const [retry, setRetry] = useState(0);
  const [refused, setRefused] = useState<Refused | null>(null);
  const leaving = useRef(false);

  const open = (reading: QrReading) => {
    if (reading.kind === 'unknown' || reading.kind === 'foreign') {
      setRefused((previous) => (previous?.text === reading.text ? previous : reading));
      return;
    }
    // A code stays in view for several frames: one navigation.
    if (leaving.current) return;
    leaving.current = true;
    void navigate({ href: qrTargetPath(reading) });
  };

  const camera = useCameraScan(video, (text) => open(parseQrText(text, location.origin)), retry);
  const live = camera.name === 'starting' || camera.name === 'scanning';

  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>
        <Trans>Scan a QR code</Trans>
      </Title>
      <Text c="dimmed">
        <Trans>
          Hold the QR code of an asset or a gateway in front of the camera. An asset's code opens
          its page; a gateway's code links the gateway.
        </Trans>
      </Text>

      <Box className={classes.viewfinder} hidden={!live} data-testid="qr-viewfinder">
        <video ref={video} muted playsInline aria-label={t`Camera view`} />
      </Box>
      <CameraStatus state={camera} onRetry={() => setRetry((n) => n + 1)} />

      {refused === null ? null : (
        <Alert
          color="orange"
          role="alert"
          title={t`This code is not one of ours`}
          data-testid="qr-refused"
          data-kind={refused.kind}
        >
          <Stack gap={4}>
            <Text size="sm">
              {refused.kind === 'unknown' ? (
                <Trans>
                  It is a link of this app, but not to an asset or a gateway. Scan the code on an
                  asset or a gateway label.
                </Trans>
              ) : refused.host !== null ? (
                <RefusedHost host={refused.host} />
              ) : (
                <Trans>It does not name an asset or a gateway of this app. It reads:</Trans>
              )}
            </Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {refused.text}
            </Code>
          </Stack>
        </Alert>
      )}

      <TypedCode onOpen={(text) => open(parseTypedCode(text, location.origin))} />

      <Text size="sm">
        <Anchor component={Link} to="/app/qr/details">
          <Trans>Print labels with QR codes</Trans>
        </Anchor>
      </Text>
    </Stack>
  );
}

function RefusedHost({ host }: { readonly host: string }) {
  return (
    <Trans>
      It leads to another site ({host}), which this app does not open. Labels printed from another
      address of the platform open on that address.
    </Trans>
  );
}

/** What the camera is doing, or why it is not, with a way on. */
function CameraStatus({
  state,
  onRetry,
}: {
  readonly state: CameraState;
  readonly onRetry: () => void;
}) {
  if (state.name === 'starting' || state.name === 'scanning' || state.name === 'paused') {
    return (
      <Group gap="xs" role="status" data-testid="qr-camera" data-state={state.name}>
        {state.name === 'starting' ? <Loader size="xs" aria-hidden /> : null}
        <Text size="sm">
          {state.name === 'starting' ? (
            <Trans>Starting the camera…</Trans>
          ) : state.name === 'scanning' ? (
            <Trans>Looking for a QR code…</Trans>
          ) : (
            <Trans>The camera is off while the page is hidden.</Trans>
          )}
        </Text>
      </Group>
    );
  }
  let message: ReactNode;
  switch (state.name) {
    case 'denied':
      message = (
        <Trans>
          The camera may not be used. Allow the camera for this site in the browser's settings and
          try again, or type the code below.
        </Trans>
      );
      break;
    case 'no-camera':
      message = <Trans>This device has no camera to scan with. Type the code below instead.</Trans>;
      break;
    case 'busy':
      message = (
        <Trans>
          The camera could not be started; another app may be using it. Close it and try again, or
          type the code below.
        </Trans>
      );
      break;
    case 'unsupported':
      message = (
        <Trans>
          This browser cannot use the camera here (it needs a secure https address). Type the code
          below instead.
        </Trans>
      );
      break;
    default: {
      const never: never = state;
      return never;
    }
  }
  return (
    <Alert color="yellow" role="alert" data-testid="qr-camera" data-state={state.name}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {state.name === 'denied' || state.name === 'busy' ? (
          <Button size="compact-sm" variant="light" onClick={onRetry}>
            <Trans>Try the camera again</Trans>
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** A code typed or pasted in place of a scan: a link of a code, or a gateway's serial number. */
function TypedCode({ onOpen }: { readonly onOpen: (text: string) => void }) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setError(t`Please type or paste a code.`);
      return;
    }
    setError(null);
    onOpen(text);
  };
  return (
    <form onSubmit={submit} noValidate data-testid="qr-typed">
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t`Type or paste a code`}
          description={t`The link a QR code holds, or the serial number printed on a gateway.`}
          value={text}
          maxLength={2000}
          onChange={(event) => setText(event.currentTarget.value)}
          error={error}
          style={{ flex: 1 }}
          data-testid="qr-typed-input"
        />
        <Button type="submit" data-testid="qr-typed-open">
          <Trans>Open</Trans>
        </Button>
      </Group>
    </form>
  );
}
