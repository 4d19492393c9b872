import './catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  NativeSelect,
  Paper,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useAtom, useAtomValue } from 'jotai';
import type { Messages } from '@lingui/core';
import {
  TRANSLATION_LANGUAGES,
  translationAttributesSchema,
  uuidv7,
  type TranslationLanguage,
} from '@plant/shared-schema';
import { Name } from '../../components/name';
import { editTextsAtom, inheritedWordsAtom } from '../../i18n/words-atoms';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { allMessages } from './all-catalogues';
import { messageText, wordsFromPo, wordsToPo } from './words';
import { useLanguageNames, WordsEditor } from './words-editor';

type Catalogue = Record<Exclude<TranslationLanguage, 'plain'>, Messages>;

/** One text of the product: its id, the product's words, the account's. */
interface Row {
  readonly key: string;
  readonly product: Partial<Record<TranslationLanguage, string>>;
  readonly words: Partial<Record<TranslationLanguage, string>>;
}

const PAGE = 50;

/** The words a text shows in a language: the account's, else the product's. */
const shownText = (row: Row, lang: TranslationLanguage) =>
  row.words[lang] ?? row.product[lang] ?? '';

/** Every catalogue in the four written languages (Plain has none: it shows the ids). */
function useCatalogue(): Catalogue | null {
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null);
  useEffect(() => {
    void Promise.all([
      allMessages('en'),
      allMessages('de'),
      allMessages('pt'),
      allMessages('ru'),
    ]).then(([en, de, pt, ru]) => setCatalogue({ en, de, pt, ru }));
  }, []);
  return catalogue;
}

/**
 * /app/translations/list (issue 36 item 2): every text of the product with its id and its words
 * in English, German, Portuguese, Russian and Plain, with the account's words over them; how
 * complete each language is; search from 3 characters; the texts missing in a language; an
 * account's words written per text (and on the screens themselves, "Edit texts on the screens"),
 * exported and imported as PO files.
 */
export function TranslationsPage() {
  const { t } = useLingui();
  const names = useLanguageNames();
  const can = useCan();
  const catalogue = useCatalogue();
  const own = useLiveQuery({ type: 'translation', limit: 10_000 });
  const inherited = useAtomValue(inheritedWordsAtom);
  const [query, setQuery] = useState('');
  const [missing, setMissing] = useState<TranslationLanguage | ''>('');
  const [shown, setShown] = useState(PAGE);
  const [editing, setEditing] = useState<Row | null>(null);
  const [editTexts, setEditTexts] = useAtom(editTextsAtom);
  const ownByKey = useMemo(
    () => new Map((own?.items ?? []).map((m) => [m.attributes.key, m])),
    [own],
  );

  const rows = useMemo((): Row[] | null => {
    if (catalogue === null) return null;
    const words = new Map<string, Partial<Record<TranslationLanguage, string>>>();
    const add = (key: string, texts: Readonly<Partial<Record<string, string | undefined>>>) => {
      const merged = { ...(words.get(key) ?? {}) };
      for (const lang of TRANSLATION_LANGUAGES) {
        const text = texts[lang];
        if (text !== undefined && text.trim() !== '') merged[lang] = text;
      }
      words.set(key, merged);
    };
    for (const { key, texts } of inherited) add(key, texts);
    for (const [key, model] of ownByKey) add(key, model.attributes.texts);
    const keys = new Set([...Object.keys(catalogue.en), ...words.keys()]);
    return [...keys]
      .map((key) => ({
        key,
        product: {
          en: messageText(catalogue.en[key]),
          de: messageText(catalogue.de[key]),
          pt: messageText(catalogue.pt[key]),
          ru: messageText(catalogue.ru[key]),
        },
        words: words.get(key) ?? {},
      }))
      .sort((a, b) => (a.product.en ?? '').localeCompare(b.product.en ?? ''));
  }, [catalogue, inherited, ownByKey]);

  const complete = useMemo(() => {
    const out: Partial<Record<TranslationLanguage, number>> = {};
    if (rows === null || rows.length === 0) return out;
    for (const lang of TRANSLATION_LANGUAGES)
      out[lang] = rows.filter((row) => shownText(row, lang).trim() !== '').length / rows.length;
    return out;
  }, [rows]);

  const searching = query.trim().length >= 3;
  const found = useMemo(() => {
    if (rows === null) return [];
    const needle = query.trim().toLowerCase();
    return rows.filter(
      (row) =>
        (missing === '' || shownText(row, missing).trim() === '') &&
        (!searching ||
          row.key.toLowerCase().includes(needle) ||
          TRANSLATION_LANGUAGES.some((lang) =>
            shownText(row, lang).toLowerCase().includes(needle),
          )),
    );
  }, [rows, query, missing, searching]);

  // Export and import as PO files, one language at a time.
  const [poLanguage, setPoLanguage] = useState<TranslationLanguage>('de');
  const [poNote, setPoNote] = useState<{ ok: boolean; text: string } | null>(null);
  const exportPo = () => {
    if (rows === null) return;
    const given = rows.flatMap((row) => {
      const text = row.words[poLanguage];
      return text === undefined ? [] : [{ key: row.key, source: row.product.en ?? '', text }];
    });
    const blob = new Blob([wordsToPo(poLanguage, given)], { type: 'text/x-gettext-translation' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `translations-${poLanguage}.po`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const importPo = async (file: File | null) => {
    if (file === null || rows === null) return;
    const keyOfSource = new Map(rows.map((row) => [row.product.en ?? '', row.key]));
    const { language, words } = wordsFromPo(await file.text(), keyOfSource);
    const lang = (TRANSLATION_LANGUAGES as readonly string[]).includes(language ?? '')
      ? (language as TranslationLanguage)
      : poLanguage;
    const worker = syncWorker();
    let written = 0;
    for (const [key, text] of words) {
      const model = ownByKey.get(key);
      const texts = { ...(model?.attributes.texts ?? {}), [lang]: text };
      const checked = translationAttributesSchema.safeParse({ key, texts });
      if (!checked.success) continue;
      const answer =
        model === undefined
          ? await worker.writes.create('translation', checked.data, uuidv7())
          : await worker.writes.update('translation', model.id, { texts: checked.data.texts });
      if (!('error' in answer)) written += 1;
    }
    const languageName = names[lang];
    const fileName = file.name;
    setPoNote({
      ok: written > 0,
      text:
        written > 0
          ? t`Texts in ${languageName} taken from ${fileName}: ${written}.`
          : t`No text of the product was found in ${file.name}.`,
    });
  };

  const mayEdit = can('translation::edit') && can('translation::create');
  return (
    <Stack gap="md" data-testid="translations-page">
      <Title order={1}>
        <Trans>Translations</Trans>
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" data-testid="translations-complete">
        {TRANSLATION_LANGUAGES.map((lang) => (
          <Paper key={lang} withBorder p="xs" radius="sm" data-language={lang}>
            <Text size="sm" fw={600}>
              {names[lang]}
            </Text>
            {complete[lang] === undefined ? (
              <Skeleton height={8} mt={6} />
            ) : (
              <>
                <Progress
                  value={complete[lang] * 100}
                  mt={6}
                  aria-label={t`${names[lang]} complete`}
                />
                <Text size="xs" c="dimmed" data-testid={`complete-${lang}`}>
                  {Math.floor(complete[lang] * 100)} %
                </Text>
              </>
            )}
          </Paper>
        ))}
      </SimpleGrid>
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t`Search`}
          description={t`From 3 characters: ids and words in every language.`}
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setShown(PAGE);
          }}
          data-testid="translations-search"
          style={{ flex: 1, minWidth: 220 }}
        />
        <NativeSelect
          label={t`Missing in`}
          value={missing}
          onChange={(e) => {
            setMissing(e.currentTarget.value as TranslationLanguage | '');
            setShown(PAGE);
          }}
          data={[
            { value: '', label: t`Any language` },
            ...TRANSLATION_LANGUAGES.map((lang) => ({ value: lang, label: names[lang] })),
          ]}
          data-testid="translations-missing"
        />
      </Group>
      {mayEdit ? (
        <Group gap="sm" align="flex-end">
          <NativeSelect
            label={t`PO file language`}
            value={poLanguage}
            onChange={(e) => setPoLanguage(e.currentTarget.value as TranslationLanguage)}
            data={TRANSLATION_LANGUAGES.map((lang) => ({ value: lang, label: names[lang] }))}
          />
          <Button variant="default" onClick={exportPo} data-testid="translations-export">
            <Trans>Export PO</Trans>
          </Button>
          <FileButton accept=".po,text/x-gettext-translation" onChange={(f) => void importPo(f)}>
            {(button) => (
              <Button {...button} variant="default" data-testid="translations-import">
                <Trans>Import PO</Trans>
              </Button>
            )}
          </FileButton>
          <Switch
            label={t`Edit texts on the screens`}
            description={t`Then a click on a text of any screen opens its words.`}
            checked={editTexts}
            onChange={(e) => setEditTexts(e.currentTarget.checked)}
            data-testid="translations-edit-mode"
          />
        </Group>
      ) : null}
      {poNote === null ? null : (
        <Alert
          color={poNote.ok ? 'green' : 'yellow'}
          role="status"
          withCloseButton
          onClose={() => setPoNote(null)}
        >
          {poNote.text}
        </Alert>
      )}
      {rows === null ? (
        <Skeleton height={240} />
      ) : (
        <>
          <Text size="sm" c="dimmed" role="status">
            {searching || missing !== '' ? (
              <Trans>
                {found.length} of {rows.length} texts
              </Trans>
            ) : (
              <Trans>{rows.length} texts</Trans>
            )}
          </Text>
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover data-testid="translations-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <Trans>Id</Trans>
                  </Table.Th>
                  {TRANSLATION_LANGUAGES.map((lang) => (
                    <Table.Th key={lang}>{names[lang]}</Table.Th>
                  ))}
                  {mayEdit ? <Table.Th /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {found.slice(0, shown).map((row) => (
                  <Table.Tr key={row.key} data-testid="translation-row" data-key={row.key}>
                    <Table.Td>
                      <code>{row.key}</code>
                    </Table.Td>
                    {TRANSLATION_LANGUAGES.map((lang) => (
                      <Table.Td key={lang} lang={lang === 'plain' ? undefined : lang}>
                        <Name>{shownText(row, lang)}</Name>
                        {row.words[lang] === undefined ? null : (
                          <Badge size="xs" variant="light" ml={4}>
                            <Trans>account</Trans>
                          </Badge>
                        )}
                      </Table.Td>
                    ))}
                    {mayEdit ? (
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => setEditing(row)}
                          aria-label={t`Change the words of ${row.key}`}
                        >
                          <Trans>Change</Trans>
                        </Button>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {found.length > shown ? (
            <Button variant="subtle" onClick={() => setShown((n) => n + PAGE)} w="fit-content">
              <Trans>Show more</Trans>
            </Button>
          ) : null}
          {found.length === 0 ? (
            <Text c="dimmed">
              <Trans>No texts found</Trans>
            </Text>
          ) : null}
        </>
      )}
      {editing === null ? null : (
        <WordsEditor
          textKey={editing.key}
          product={editing.product}
          own={ownByKey.get(editing.key)}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
