import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, Menu, Modal, Text } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useAtom, useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { appPaths, LANGUAGES, type Language } from '@plant/shared-schema';
import type { UploadView } from '@plant/sync-worker/api';
import { IconLogout, IconUser } from '../../components/icons';
import { signOut } from '../../session/session';
import {
  directionAtom,
  languageAtom,
  transitionAtom,
  type Direction,
  type Transition,
} from '../../state/preferences';
import { sessionAtom } from '../../state/session';
import { syncStatusAtom } from '../../sync/status';
import { useUploads } from '../../sync/files';
import { Name } from '../../components/name';

/** Changes in this browser that the server does not have: sign-out deletes them. */
function unsentCount(status: { pendingWrites: number; failedWrites: number }): number {
  return status.pendingWrites + status.failedWrites;
}

/** Files whose bytes wait in this browser for the server (or failed): sign-out deletes them. */
function waitingFiles(uploads: Readonly<Record<string, UploadView>>): number {
  return Object.values(uploads).filter((u) => u.here).length;
}

/**
 * Each language by its own name (an endonym is never translated: whoever cannot read the current
 * language still finds theirs). Plain shows the message ids, for translators (i18n/i18n.ts).
 */
const LANGUAGE_NAMES: Record<Exclude<Language, 'plain'>, string> = {
  en: 'English',
  de: 'Deutsch',
  pt: 'Português',
  ru: 'Русский',
};

const isLanguage = (v: string): v is Language => (LANGUAGES as readonly string[]).includes(v);

/**
 * The signed-in user's menu: who is signed in, the language, the direction (right-to-left
 * mirrors the whole app), the page transition, and signing out (then the sign-in screen). With
 * changes that have not reached the server, signing out asks first: it deletes them.
 */
export function UserMenu() {
  const { t } = useLingui();
  const router = useRouter();
  const user = useAtomValue(sessionAtom)?.user ?? null;
  const [language, setLanguage] = useAtom(languageAtom);
  const [direction, setDirection] = useAtom(directionAtom);
  const [transition, setTransition] = useAtom(transitionAtom);

  const store = useStore();
  const [confirming, setConfirming] = useState(false);
  // This user's files still uploading: their bytes are only here until the server has them.
  const uploads = useUploads();

  const leave = async () => {
    setConfirming(false);
    await signOut();
    await router.navigate({ to: '/user/login' });
  };
  const askToLeave = () => {
    if (unsentCount(store.get(syncStatusAtom)) + waitingFiles(uploads) > 0) setConfirming(true);
    else void leave();
  };

  return (
    <>
      {/* As tall as the window allows, scrolling inside beyond: on a 720 px screen the items
          below the fold (Sign out) were out of reach. */}
      <Menu
        position="bottom-end"
        width={260}
        withinPortal
        middlewares={{ flip: true, shift: true, size: { padding: 8 } }}
      >
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t`User menu`}
            data-testid="user-menu"
          >
            <IconUser size={22} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown data-testid="user-menu-dropdown" style={{ overflowY: 'auto' }}>
          {user === null ? null : (
            <div style={{ padding: '6px 12px' }}>
              <Text size="sm" fw={600} truncate="end">
                <Name>{`${user.firstname} ${user.lastname}`}</Name>
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                <Name>{user.email}</Name>
              </Text>
            </div>
          )}
          {user === null ? null : (
            <>
              <Menu.Item
                onClick={() => void router.navigate({ to: appPaths.userDetails(user.id) })}
              >
                <Trans>Your details</Trans>
              </Menu.Item>
              <Menu.Item
                onClick={() => void router.navigate({ to: appPaths.notificationSettings(user.id) })}
              >
                <Trans>Notifications</Trans>
              </Menu.Item>
              <Menu.Item
                onClick={() => void router.navigate({ to: appPaths.accessTokens(user.id) })}
              >
                <Trans>Access tokens</Trans>
              </Menu.Item>
              <Menu.Item onClick={() => void router.navigate({ to: appPaths.twoFactor(user.id) })}>
                <Trans>Two-factor sign-in</Trans>
              </Menu.Item>
              <Menu.Item onClick={() => void router.navigate({ to: appPaths.apiReference() })}>
                <Trans>API reference</Trans>
              </Menu.Item>
            </>
          )}
          <Menu.Divider />
          <Menu.Label>
            <Trans>Language</Trans>
          </Menu.Label>
          <Menu.RadioGroup value={language} onChange={(v) => isLanguage(v) && setLanguage(v)}>
            {(Object.keys(LANGUAGE_NAMES) as Exclude<Language, 'plain'>[]).map((code) => (
              <Menu.RadioItem key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </Menu.RadioItem>
            ))}
            <Menu.RadioItem value="plain">
              <Trans>Plain (message ids)</Trans>
            </Menu.RadioItem>
          </Menu.RadioGroup>
          <Menu.Divider />
          <Menu.Label>
            <Trans>Direction</Trans>
          </Menu.Label>
          <Menu.RadioGroup value={direction} onChange={(v) => setDirection(v as Direction)}>
            <Menu.RadioItem value="ltr">
              <Trans>Left to right</Trans>
            </Menu.RadioItem>
            <Menu.RadioItem value="rtl">
              <Trans>Right to left</Trans>
            </Menu.RadioItem>
          </Menu.RadioGroup>
          <Menu.Divider />
          <Menu.Label>
            <Trans>Page transition</Trans>
          </Menu.Label>
          <Menu.RadioGroup value={transition} onChange={(v) => setTransition(v as Transition)}>
            <Menu.RadioItem value="fade">
              <Trans>Fade</Trans>
            </Menu.RadioItem>
            <Menu.RadioItem value="slide">
              <Trans>Slide</Trans>
            </Menu.RadioItem>
          </Menu.RadioGroup>
          <Menu.Divider />
          <Menu.Item
            color="red"
            leftSection={
              <IconLogout
                size={16}
                style={{ transform: direction === 'rtl' ? 'scaleX(-1)' : undefined }}
              />
            }
            onClick={askToLeave}
          >
            <Trans>Sign out</Trans>
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <UnsentChangesDialog
        opened={confirming}
        files={waitingFiles(uploads)}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void leave()}
      />
    </>
  );
}

/**
 * Asks before a sign-out that would delete changes or files the server does not have yet.
 * Live: what gets through while the dialog is open is no longer counted.
 */
function UnsentChangesDialog({
  opened,
  files,
  onCancel,
  onConfirm,
}: {
  readonly opened: boolean;
  /** Files still uploading from here. */
  readonly files: number;
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
}) {
  const { t } = useLingui();
  const count = unsentCount(useAtomValue(syncStatusAtom));
  return (
    <Modal opened={opened} onClose={onCancel} title={t`Sign out?`} data-testid="sign-out-dialog">
      {count === 0 && files === 0 ? (
        <Text data-testid="sign-out-unsent">
          <Trans>Every change and file has reached the server now.</Trans>
        </Text>
      ) : null}
      {count === 0 ? null : (
        <Text data-testid="sign-out-unsent">
          <Plural
            value={count}
            one="# change has not reached the server yet. Signing out deletes it from this device."
            other="# changes have not reached the server yet. Signing out deletes them from this device."
          />
        </Text>
      )}
      {files === 0 ? null : (
        <Text data-testid="sign-out-files">
          <Plural
            value={files}
            one="# file has not been uploaded yet. Signing out deletes it from this device."
            other="# files have not been uploaded yet. Signing out deletes them from this device."
          />
        </Text>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} data-autofocus>
          <Trans>Cancel</Trans>
        </Button>
        <Button color="red" onClick={onConfirm}>
          <Trans>Sign out anyway</Trans>
        </Button>
      </Group>
    </Modal>
  );
}
