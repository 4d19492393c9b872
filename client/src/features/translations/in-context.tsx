import './catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useLingui } from '@lingui/react';
import { useSetAtom } from 'jotai';
import type { TranslationLanguage } from '@plant/shared-schema';
import { editTextsAtom } from '../../i18n/words-atoms';
import { useLiveQuery } from '../../sync/hooks';
import { allMessages } from './all-catalogues';
import { messageText } from './words';
import { WordsEditor } from './words-editor';
import classes from './in-context.module.css';

/**
 * "Edit texts on the screens" (issue 36 item 2): while it is on, a click on a text of any screen
 * opens the words of the product's text it shows (found by its words in the active language), to
 * change them for the account; other clicks go on as usual. A bar says so and turns it off.
 */
export function InContextEditing() {
  const { i18n } = useLingui();
  const stop = useSetAtom(editTextsAtom);
  const own = useLiveQuery({ type: 'translation', limit: 10_000 });
  const [picked, setPicked] = useState<{ key: string; others: readonly string[] } | null>(null);
  const [product, setProduct] = useState<Partial<Record<TranslationLanguage, string>> | null>(null);
  const [missed, setMissed] = useState(false);

  // The texts on screen by their words now: the active language's messages read back.
  const byWords = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const [key, message] of Object.entries(i18n.messages)) {
      const words = messageText(message).trim();
      if (words === '') continue;
      map.set(words, [...(map.get(words) ?? []), key]);
    }
    return map;
    // i18n.messages changes with the language and with the account's words.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [i18n.locale, i18n.messages]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target = event.target as HTMLElement | null;
      // Its own bar and dialogs (the words editor is one) work as usual.
      if (target === null || target.closest('[data-edit-texts-ui], [role="dialog"]') !== null)
        return;
      const words = (target.textContent ?? '').trim();
      const keys = byWords.get(words);
      if (keys === undefined || keys.length === 0) {
        setMissed(words !== '');
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      setMissed(false);
      setPicked({ key: keys[0] ?? '', others: keys.slice(1) });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [byWords]);

  useEffect(() => {
    if (picked === null) return;
    let closed = false;
    setProduct(null);
    void Promise.all([
      allMessages('en'),
      allMessages('de'),
      allMessages('pt'),
      allMessages('ru'),
    ]).then(([en, de, pt, ru]) => {
      if (closed) return;
      setProduct({
        en: messageText(en[picked.key]),
        de: messageText(de[picked.key]),
        pt: messageText(pt[picked.key]),
        ru: messageText(ru[picked.key]),
      });
    });
    return () => {
      closed = true;
    };
  }, [picked]);

  return (
    <div data-edit-texts-ui>
      <Paper
        className={classes.bar}
        shadow="md"
        p="sm"
        withBorder
        role="region"
        aria-label="Edit texts"
      >
        <Group gap="sm" justify="space-between">
          <Text size="sm" role="status">
            {missed ? (
              <Trans>
                These words are no text of the product (or they hold a value): click another.
              </Trans>
            ) : (
              <Trans>Editing texts: click a text on the screen to change its words.</Trans>
            )}
          </Text>
          <Button
            size="xs"
            variant="default"
            onClick={() => stop(false)}
            data-testid="edit-texts-stop"
          >
            <Trans>Stop editing texts</Trans>
          </Button>
        </Group>
      </Paper>
      {picked === null || product === null ? null : (
        <WordsEditor
          textKey={picked.key}
          product={product}
          own={own?.items.find((m) => m.attributes.key === picked.key)}
          also={picked.others.map((key) => ({
            key,
            own: own?.items.find((m) => m.attributes.key === key),
          }))}
          onClose={() => setPicked(null)}
        />
      )}
    </div>
  );
}
