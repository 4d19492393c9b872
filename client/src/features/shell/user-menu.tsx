import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Menu, Text } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useAtom, useAtomValue } from 'jotai';
import { LANGUAGES, type Language } from '@plant/shared-schema';
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
 * mirrors the whole app), the page transition, and signing out (then the sign-in screen).
 */
export function UserMenu() {
  const { t } = useLingui();
  const router = useRouter();
  const user = useAtomValue(sessionAtom)?.user ?? null;
  const [language, setLanguage] = useAtom(languageAtom);
  const [direction, setDirection] = useAtom(directionAtom);
  const [transition, setTransition] = useAtom(transitionAtom);

  const leave = async () => {
    await signOut();
    await router.navigate({ to: '/user/login' });
  };

  return (
    <Menu position="bottom-end" width={260} withinPortal>
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
      <Menu.Dropdown data-testid="user-menu-dropdown">
        {user === null ? null : (
          <div style={{ padding: '6px 12px' }}>
            <Text size="sm" fw={600} truncate="end">
              {user.firstname} {user.lastname}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {user.email}
            </Text>
          </div>
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
          onClick={() => void leave()}
        >
          <Trans>Sign out</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
