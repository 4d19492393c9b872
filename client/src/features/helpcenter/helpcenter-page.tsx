import './catalogues';
import { useEffect, useMemo, useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Button,
  Chip,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import {
  apiPaths,
  articleModel,
  articleSearchAnswerSchema,
  searchable,
  type ArticleSearchHit,
  type Language,
} from '@plant/shared-schema';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { callApi } from '../../session/api';
import { serverReachableAtom } from '../../sync/status';
import type { HelpListEntry } from '@plant/sync-worker/api';
import { useHelpList } from './help-data';
import { Highlight } from './highlight';
import { HELP_CENTER_ID, helpArticlePath, helpEditorPath } from './helpcenter-paths';
import { useCan } from '../../permissions/permissions';
import { useWriteOutcome } from '../../sync/write-outcome';
import { syncWorker } from '../../sync/worker';
import { HELP_LANGUAGES, HELP_LANGUAGE_NAMES } from './language-names';
import { useRouteLanguage } from './route-language';

/** A list without bullets (each row a card). */
const PLAIN_LIST = { listStyle: 'none', padding: 0, margin: 0 } as const;

type Found =
  | { readonly state: 'idle' }
  | { readonly state: 'searching' }
  | {
      readonly state: 'done';
      readonly hits: readonly {
        number: number | null;
        title: string;
        snippet: string;
        lang: Language;
        draft: boolean;
      }[];
      readonly offline: boolean;
    };

/**
 * The search: the server's full-text index while it is reachable, else the same matching over the
 * articles in the store. Answers for the query it was asked.
 */
function useSearch(query: string, lang: Language): Found {
  const reachable = useAtomValue(serverReachableAtom);
  const [found, setFound] = useState<{ key: string; found: Found }>({
    key: '',
    found: { state: 'idle' },
  });
  const key = `${lang}|${query}|${reachable}`;
  useEffect(() => {
    if (!searchable(query)) return;
    let closed = false;
    // Offline (or the server's search failing): MiniSearch over the store, in the worker.
    const local = async () => {
      const hits = await syncWorker().help.search(query, lang);
      if (!closed)
        setFound({
          key,
          found: {
            state: 'done',
            offline: true,
            hits: hits.map((h) => ({ ...h, draft: false })),
          },
        });
    };
    setFound({ key, found: { state: 'searching' } });
    const timer = setTimeout(() => {
      if (!reachable) {
        void local();
        return;
      }
      void callApi(
        'GET',
        apiPaths.articleSearch(query, lang),
        articleSearchAnswerSchema.shape.data,
      ).then((answer) => {
        if (closed) return;
        if ('error' in answer) {
          void local();
          return;
        }
        const hits = answer.data.map((h: ArticleSearchHit) => ({ ...h, draft: false }));
        setFound({ key, found: { state: 'done', offline: false, hits } });
      });
    }, 250);
    return () => {
      closed = true;
      clearTimeout(timer);
    };
  }, [key, query, lang, reachable]);
  return found.key === key ? found.found : { state: 'idle' };
}

/** /app/helpcenter/{helpcenterid}/{helpcenterlang}: the articles, a search, the language. */
export function HelpCenterPage() {
  const { t } = useLingui();
  const lang = useRouteLanguage();
  const navigate = useNavigate();
  const entries = useHelpList(lang);
  const [text, setText] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const query = text.trim();
  const found = useSearch(query, lang);
  const categories = useMemo(
    () => [...new Set((entries ?? []).flatMap((e) => e.categories))].sort(),
    [entries],
  );
  // By number already (the worker's order).
  const listed = (entries ?? []).filter(
    (e) => category === null || e.categories.includes(category),
  );
  return (
    <Stack gap="md" data-testid="helpcenter-page">
      <Group justify="space-between" align="flex-end">
        <Group gap="sm">
          <Title order={1}>
            <Trans>Help center</Trans>
          </Title>
          <NewArticleButton lang={lang} />
        </Group>
        <SegmentedControl
          aria-label={t`Language of the articles`}
          value={lang}
          onChange={(next) => void navigate({ to: `/app/helpcenter/${HELP_CENTER_ID}/${next}` })}
          data={HELP_LANGUAGES.map((l) => ({ value: l, label: HELP_LANGUAGE_NAMES[l] }))}
          data-testid="help-language"
        />
      </Group>
      <TextInput
        type="search"
        label={t`Search articles`}
        description={t`From 3 characters`}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={
          query.length > 0 && !searchable(query) ? t`Search needs at least 3 characters` : undefined
        }
        maw={480}
        data-testid="help-search"
      />
      {searchable(query) ? (
        <SearchResults found={found} query={query} lang={lang} />
      ) : entries === undefined ? (
        <Stack gap={8} aria-busy>
          <Skeleton height={48} />
          <Skeleton height={48} />
        </Stack>
      ) : entries.length === 0 ? (
        <EmptyState title={<Trans>No articles yet</Trans>}>
          <Text size="sm" c="dimmed">
            <Trans>Articles of your machine builder show here once they are published.</Trans>
          </Text>
        </EmptyState>
      ) : (
        <Stack gap="sm">
          {categories.length > 0 ? (
            <Chip.Group
              value={category ?? ''}
              onChange={(v) =>
                setCategory(typeof v === 'string' && v !== '' && v !== category ? v : null)
              }
            >
              <Group gap="xs" role="group" aria-label={t`Categories`}>
                {categories.map((c) => (
                  <Chip key={c} value={c} size="sm">
                    {c}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          ) : null}
          <Stack gap="xs" component="ul" style={PLAIN_LIST} data-testid="help-list">
            {listed.map((entry) => (
              <ArticleRow key={entry.id} entry={entry} lang={lang} />
            ))}
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

/** For authors: makes a draft article in the route's language and opens it in the editor. */
function NewArticleButton({ lang }: { readonly lang: Language }) {
  const can = useCan();
  const navigate = useNavigate();
  const [error, took] = useWriteOutcome();
  if (!can(articleModel.permissions.create)) return null;
  const make = async () => {
    const answer = await syncWorker().writes.create('article', { languages: [lang] });
    if (took(answer) && 'data' in answer)
      await navigate({ to: helpEditorPath(lang, answer.data.id) });
  };
  return (
    <Group gap="xs">
      <Button size="xs" onClick={() => void make()} data-testid="article-new">
        <Trans>New article</Trans>
      </Button>
      {error === null ? null : (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
    </Group>
  );
}

function ArticleRow({ entry, lang }: { readonly entry: HelpListEntry; readonly lang: Language }) {
  const can = useCan();
  const { number } = entry;
  const title = entry.title ?? undefined;
  const author = can(articleModel.permissions.update);
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      data-testid="help-row"
      data-number={number ?? ''}
    >
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Group gap="xs">
          {author && (number === null || entry.draft) ? (
            <Anchor component={Link} to={helpEditorPath(lang, entry.id)} fw={600}>
              {title === undefined ? <Trans>Untitled</Trans> : <Name>{title}</Name>}
            </Anchor>
          ) : number === null ? (
            <Text fw={600}>
              {title === undefined ? <Trans>Untitled</Trans> : <Name>{title}</Name>}
            </Text>
          ) : (
            <Anchor component={Link} to={helpArticlePath(lang, number)} fw={600}>
              {title === undefined ? <Trans>Untitled</Trans> : <Name>{title}</Name>}
            </Anchor>
          )}
          {entry.draft ? (
            <Badge size="sm" variant="light" color="gray">
              <Trans>Draft</Trans>
            </Badge>
          ) : null}
          {entry.fallback && entry.lang !== null ? (
            <Badge size="sm" variant="outline" title={HELP_LANGUAGE_NAMES[entry.lang]}>
              {entry.lang.toUpperCase()}
            </Badge>
          ) : null}
          {entry.pending ? (
            <Badge size="sm" color="orange" variant="light">
              <Trans>Not synced yet</Trans>
            </Badge>
          ) : null}
        </Group>
        {number === null ? null : (
          <Text size="sm" c="dimmed">
            #{number}
          </Text>
        )}
      </Group>
      {entry.tags.length > 0 ? (
        <Group gap={4} mt={4}>
          {entry.tags.map((tag) => (
            <Badge key={tag} size="xs" variant="dot">
              <Name>{tag}</Name>
            </Badge>
          ))}
        </Group>
      ) : null}
    </Paper>
  );
}

function SearchResults(props: {
  readonly found: Found;
  readonly query: string;
  readonly lang: Language;
}) {
  const { found, query, lang } = props;
  if (found.state !== 'done')
    return (
      <Stack gap={8} aria-busy data-testid="help-searching">
        <Skeleton height={48} />
      </Stack>
    );
  return (
    <Stack gap="xs" data-testid="help-results" data-offline={found.offline}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {found.offline ? (
          <Trans>Searched the articles on this device (offline).</Trans>
        ) : (
          <Plural value={found.hits.length} one="# article found" other="# articles found" />
        )}
      </Text>
      {found.hits.length === 0 ? (
        <EmptyState title={<Trans>No articles found</Trans>} />
      ) : (
        <Stack gap="xs" component="ul" style={PLAIN_LIST}>
          {found.hits.map((hit) => (
            <Paper
              component="li"
              key={`${hit.number}-${hit.lang}`}
              withBorder
              p="sm"
              radius="md"
              data-testid="help-hit"
            >
              <Group gap="xs">
                {hit.number === null ? (
                  <Text fw={600}>
                    <Highlight text={hit.title} query={query} />
                  </Text>
                ) : (
                  <Anchor component={Link} to={helpArticlePath(lang, hit.number)} fw={600}>
                    <Highlight text={hit.title} query={query} />
                  </Anchor>
                )}
                {hit.lang !== lang ? (
                  <Badge size="sm" variant="outline" title={HELP_LANGUAGE_NAMES[hit.lang]}>
                    {hit.lang.toUpperCase()}
                  </Badge>
                ) : null}
              </Group>
              <Text size="sm" c="dimmed" data-testid="help-snippet">
                <Highlight text={hit.snippet} query={query} />
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
