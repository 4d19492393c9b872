import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import {
  TRANSLATION_LANGUAGES,
  translationAttributesSchema,
  uuidv7,
  type TranslationLanguage,
  type TranslationTexts,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { PageError, usePageState } from '../../components/page-state';
import { syncWorker } from '../../sync/worker';

/** The languages by their names in the product. */
export function useLanguageNames(): Record<TranslationLanguage, string> {
  const { t } = useLingui();
  return { en: t`English`, de: t`German`, pt: t`Portuguese`, ru: t`Russian`, plain: t`Plain` };
}

/**
 * The account's words for one text (issue 36 item 2): one field per language, the product's
 * words as the placeholder; saved as the account's translation of the text (made, changed, or,
 * when every field is emptied, removed: the product's words again). Offline it is kept and sent
 * once the network is back, like every write.
 */
export function WordsEditor(props: {
  readonly textKey: string;
  /** The product's words per language (the catalogues'). */
  readonly product: Partial<Record<TranslationLanguage, string>>;
  /** The account's own translation of the text, if it has one. */
  readonly own: LocalModel<'translation'> | undefined;
  /**
   * Other texts with the same words on screen (a click in edit texts mode cannot tell them
   * apart): they get the same words, with the account's translations they have.
   */
  readonly also?: readonly {
    readonly key: string;
    readonly own: LocalModel<'translation'> | undefined;
  }[];
  readonly onClose: () => void;
}) {
  const { t } = useLingui();
  const names = useLanguageNames();
  const page = usePageState(['texts']);
  const [texts, setTexts] = useState<TranslationTexts>(() => props.own?.attributes.texts ?? {});
  const write = async (key: string, own: LocalModel<'translation'> | undefined) => {
    const given = Object.fromEntries(
      Object.entries(texts).filter(([, text]) => text !== undefined && text.trim() !== ''),
    );
    const worker = syncWorker();
    if (Object.keys(given).length === 0 && own !== undefined)
      return page.took(await worker.writes.remove('translation', own.id));
    const checked = page.check(translationAttributesSchema.safeParse({ key, texts: given }));
    if (checked === null) return false;
    const answer =
      own === undefined
        ? await worker.writes.create('translation', checked, uuidv7())
        : await worker.writes.update('translation', own.id, { texts: checked.texts });
    return page.took(answer, 'write');
  };
  const save = async () => {
    if (!(await write(props.textKey, props.own))) return;
    for (const other of props.also ?? []) if (!(await write(other.key, other.own))) return;
    props.onClose();
  };
  return (
    <Modal opened onClose={props.onClose} title={t`Words of this account`} size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm" data-testid="words-editor">
          <Text size="sm">
            <Trans>
              Text <Code>{props.textKey}</Code>: what you write here replaces the product's words
              for this account and the accounts below it. An empty field keeps the product's.
            </Trans>
          </Text>
          {props.also === undefined || props.also.length === 0 ? null : (
            <Text size="sm" c="dimmed">
              <Trans>
                {props.also.length} more texts of the product have these words: they get yours too.
              </Trans>
            </Text>
          )}
          {TRANSLATION_LANGUAGES.map((lang) => (
            <Textarea
              key={lang}
              label={names[lang]}
              autosize
              minRows={1}
              placeholder={props.product[lang] ?? ''}
              value={texts[lang] ?? ''}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setTexts((old) => ({ ...old, [lang]: value }));
              }}
              data-testid={`words-${lang}`}
            />
          ))}
          <PageError error={page.fields.texts ?? page.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" data-testid="words-save">
              <Trans>Save</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
