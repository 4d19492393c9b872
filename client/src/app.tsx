import { useEffect, type ReactNode } from 'react';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider, createTheme, useDirection } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { Provider, useAtomValue } from 'jotai';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import { activateLanguage, i18n } from './i18n/i18n';
import { NotificationsHost } from './notifications-host';
import { router } from './router';
import { directionAtom, languageAtom } from './state/preferences';
import { appStore } from './state/store';

const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'sm',
});

/** Follows the stored language and direction: catalogue, <html lang/dir>, Mantine's direction. */
function LanguageAndDirection({ children }: { readonly children: ReactNode }) {
  const language = useAtomValue(languageAtom);
  const direction = useAtomValue(directionAtom);
  const { setDirection } = useDirection();
  useEffect(() => {
    void activateLanguage(language);
  }, [language]);
  useEffect(() => {
    document.documentElement.dir = direction;
    setDirection(direction);
  }, [direction, setDirection]);
  return children;
}

export function App() {
  return (
    <Provider store={appStore}>
      <I18nProvider i18n={i18n}>
        <DirectionProvider initialDirection={appStore.get(directionAtom)} detectDirection={false}>
          <MantineProvider theme={theme} defaultColorScheme="light">
            <NotificationsHost />
            <LanguageAndDirection>
              <RouterProvider router={router} />
            </LanguageAndDirection>
          </MantineProvider>
        </DirectionProvider>
      </I18nProvider>
    </Provider>
  );
}
