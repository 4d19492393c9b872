import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useAtom, useAtomValue } from 'jotai';
import { useHasTag } from '../../permissions/permissions';
import { sessionAtom } from '../../state/session';
import { dismissedRecently, stampDismissed, type BannerKind } from './banner-stamps';
import { appInstalledAtom, installPromptAtom } from './install-prompt';
import { resendSubscription, subscribeToPush } from './push';
import { usePushState } from './use-push-state';
import classes from './banners.module.css';

/** Spec 000 §6: internal users get one of the banners after 5 seconds. */
const INTERNAL_DELAY_MS = 5_000;

/** True once `delayMs` has passed since the user (or the delay) last changed. */
function useDelayOver(delayMs: number, userId: string | null): boolean {
  const [over, setOver] = useState(delayMs === 0);
  useEffect(() => {
    if (delayMs === 0) {
      setOver(true);
      return;
    }
    setOver(false);
    const timer = setTimeout(() => setOver(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs, userId]);
  return over;
}

/**
 * The notification and PWA install banners (spec 000 §4, §6, §8, §9; issue 17 item 7): only for
 * a signed-in user, at most one at a time (notifications first: alarms reach people through
 * them), each away for 7 days once dismissed; internal users see one after 5 seconds, everyone
 * else at once. A region named by its heading, with real buttons; it never takes the focus.
 */
export function Banners() {
  const { t } = useLingui();
  const userId = useAtomValue(sessionAtom)?.user.id ?? null;
  const internal = useHasTag()('internal');
  const delayOver = useDelayOver(internal ? INTERNAL_DELAY_MS : 0, userId);
  const [push, refreshPush] = usePushState();
  const [installPrompt, setInstallPrompt] = useAtom(installPromptAtom);
  const installed = useAtomValue(appInstalledAtom);
  const standalone = useMediaQuery('(display-mode: standalone)', false);
  const [dismissed, setDismissed] = useState(() => ({
    notification: dismissedRecently('notification'),
    pwa: dismissedRecently('pwa'),
  }));
  const [busy, setBusy] = useState(false);

  // A subscription this browser holds is sent again once a page for whoever is signed in: the
  // server then sends that user's alarms here (it keeps one row per endpoint).
  const sentFor = useRef<string | null>(null);
  useEffect(() => {
    if (push !== 'subscribed' || userId === null || sentFor.current === userId) return;
    sentFor.current = userId;
    void resendSubscription();
  }, [push, userId]);

  const notificationWanted = push === 'default' || push === 'denied' || push === 'unsubscribed';
  const installWanted = installPrompt !== null && !installed && !standalone;
  // Nothing until push is known, so the install banner never shows for a moment only to give
  // way to the notification banner.
  const showing: BannerKind | null =
    userId === null || !delayOver || push === null
      ? null
      : notificationWanted && !dismissed.notification
        ? 'notification'
        : installWanted && !dismissed.pwa
          ? 'pwa'
          : null;

  const dismiss = (kind: BannerKind) => {
    stampDismissed(kind);
    setDismissed((d) => ({ ...d, [kind]: true }));
  };

  const subscribe = async () => {
    const ok = await subscribeToPush();
    if (ok) sentFor.current = userId;
    notifications.show({
      color: ok ? 'green' : 'red',
      message: ok
        ? t`Successfully subscribed to push notifications!`
        : t`Failed to subscribe to push notifications!`,
    });
  };

  const run = (work: () => Promise<void>) => {
    setBusy(true);
    void work()
      // A permission request that failed: the state read again tells where it stands.
      .catch(() => undefined)
      .finally(() => {
        setBusy(false);
        refreshPush();
      });
  };

  const allow = () =>
    run(async () => {
      // The browser asks; a refusal turns the banner into the "blocked" one.
      if ((await Notification.requestPermission()) === 'granted') await subscribe();
    });

  const install = () => {
    if (installPrompt === null) return;
    // An offer is used once; the browser makes a new one if the user says no.
    setInstallPrompt(null);
    void installPrompt
      .prompt()
      .then(() => installPrompt.userChoice)
      .then(
        // Refused in the browser's own dialog: as "Not now".
        (choice) => {
          if (choice.outcome === 'dismissed') dismiss('pwa');
        },
        () => undefined,
      );
  };

  switch (showing) {
    case null:
      return null;
    case 'notification':
      if (push === 'denied') {
        return (
          <Banner
            kind="notification"
            state="denied"
            title={t`Notifications are blocked`}
            text={t`Your browser's settings block notifications from this site. Check your browser settings to get alarms here.`}
          >
            <Button size="xs" disabled>
              <Trans>Allow</Trans>
            </Button>
            <NotNow onClick={() => dismiss('notification')} />
          </Banner>
        );
      }
      return (
        <Banner
          kind="notification"
          state={push === 'default' ? 'default' : 'unsubscribed'}
          title={t`Get alarms as notifications`}
          text={
            push === 'default'
              ? t`Allow notifications to hear of alarms on this device, even with the app closed.`
              : t`Notifications are allowed. Subscribe to get alarms on this device, even with the app closed.`
          }
        >
          <Button
            size="xs"
            loading={busy}
            onClick={push === 'default' ? allow : () => run(subscribe)}
          >
            {push === 'default' ? <Trans>Allow</Trans> : <Trans>Subscribe</Trans>}
          </Button>
          <NotNow onClick={() => dismiss('notification')} />
        </Banner>
      );
    case 'pwa':
      return (
        <Banner
          kind="pwa"
          state="installable"
          title={t`Install the app`}
          text={t`Install it to open it from your home screen or desktop, in a window of its own, also without a network.`}
        >
          <Button size="xs" onClick={install}>
            <Trans>Install</Trans>
          </Button>
          <NotNow onClick={() => dismiss('pwa')} />
        </Banner>
      );
    default: {
      const never: never = showing;
      return never;
    }
  }
}

function NotNow({ onClick }: { readonly onClick: () => void }) {
  return (
    <Button size="xs" variant="subtle" onClick={onClick}>
      <Trans>Not now</Trans>
    </Button>
  );
}

function Banner(props: {
  readonly kind: BannerKind;
  readonly state: string;
  readonly title: string;
  readonly text: string;
  readonly children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Paper
      className={classes.banner}
      role="region"
      aria-labelledby={titleId}
      data-testid={`${props.kind}-banner`}
      data-state={props.state}
      withBorder
      shadow="md"
      p="md"
    >
      <Title order={2} size="h5" id={titleId}>
        {props.title}
      </Title>
      <Text size="sm" mt={4}>
        {props.text}
      </Text>
      <Group gap="xs" mt="sm">
        {props.children}
      </Group>
    </Paper>
  );
}
