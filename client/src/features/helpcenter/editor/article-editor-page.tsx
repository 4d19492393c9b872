import '../catalogues';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Tabs,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { articleDraftModel, isolate, type Language } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { EmptyState } from '../../../components/empty-state';
import { useCan } from '../../../permissions/permissions';
import { translateServerText } from '../../../i18n/server-texts';
import { useLiveModel, useLiveQuery } from '../../../sync/hooks';
import { useWriteOutcome } from '../../../sync/write-outcome';
import { syncWorker } from '../../../sync/worker';
import { HELP_CENTER_ID } from '../helpcenter-paths';
import { HELP_LANGUAGES, HELP_LANGUAGE_NAMES } from '../language-names';
import { useRouteLanguage } from '../route-language';
import { BlockEditor, editorClosed, type SavedNow } from './block-editor';
import { publishProblems, type DraftText } from './publish';
import { forgetUnsent, keepUnsent, unsentEdit, type UnsentEdit } from './unsent-edits';

/** Whether two documents hold the same blocks (Editor.js stamps each save with a new time). */
function sameBlocks(a: unknown, b: unknown): boolean {
  const blocks = (doc: unknown) =>
    typeof doc === 'object' && doc !== null ? (doc as { blocks?: unknown }).blocks : undefined;
  return JSON.stringify(blocks(a)) === JSON.stringify(blocks(b));
}

/** How long typing rests before the language's draft is written (the worker keeps it at once). */
const SAVE_AFTER_MS = 800;

type Draft = LocalModel<'article_draft'>;

/**
 * /app/helpcenter/{id}/{lang}/edit/{articleid}: the author's editor (issue 33 item 2). Each
 * language is an `article_draft`, written to the worker as the author types (so a reload or a
 * lost network loses nothing, and the writes land once when the server is back); Publish copies
 * the drafts into the texts readers get.
 */
export function ArticleEditorPage() {
  const { t } = useLingui();
  const can = useCan();
  const lang = useRouteLanguage();
  const { articleid = '' }: { articleid?: string } = useParams({ strict: false });
  const article = useLiveModel('article', articleid);
  const drafts = useLiveQuery({
    type: 'article_draft',
    parent: { type: 'article', id: articleid },
    limit: 10,
  });
  const texts = useLiveQuery({
    type: 'article_text',
    parent: { type: 'article', id: articleid },
    limit: 10,
  });
  const [tab, setTab] = useState<Language>(lang);
  const flushers = useRef(new Map<Language, () => Promise<DraftText>>());
  const onFlusher = useCallback((l: Language, flush: (() => Promise<DraftText>) | null) => {
    if (flush === null) flushers.current.delete(l);
    else flushers.current.set(l, flush);
  }, []);
  // Languages whose tab closed and whose editor is still telling its last blocks.
  const closings = useRef(new Set<Promise<DraftText>>());
  const onClosing = useCallback((done: Promise<DraftText>) => {
    closings.current.add(done);
    const drop = () => closings.current.delete(done);
    done.then(drop, drop);
  }, []);
  if (!can(articleDraftModel.permissions.update))
    return (
      <EmptyState
        title={<Trans>Please ask your administrator for the necessary permissions</Trans>}
      />
    );
  if (article.name === 'loading' || drafts === undefined || texts === undefined)
    return (
      <Stack gap="sm" aria-busy>
        <Skeleton height={36} width="50%" />
        <Skeleton height={200} />
      </Stack>
    );
  if (article.name === 'missing') return <EmptyState title={<Trans>Article not found</Trans>} />;
  return (
    <Stack gap="md" data-testid="article-editor">
      <Group justify="space-between">
        <Title order={1}>
          {article.model.attributes.number === null ? (
            <Trans>New article</Trans>
          ) : (
            <Trans>Article {article.model.attributes.number}</Trans>
          )}
        </Title>
        <Group gap="xs">
          {article.model.pending ? (
            <Badge color="orange" variant="light" data-testid="article-pending">
              <Trans>Not synced yet</Trans>
            </Badge>
          ) : null}
          <Badge
            variant="light"
            color={article.model.attributes.state === 'published' ? 'green' : 'gray'}
          >
            {article.model.attributes.state === 'published' ? t`Published` : t`Draft`}
          </Badge>
        </Group>
      </Group>
      <Tabs value={tab} onChange={(v) => v !== null && setTab(v as Language)} keepMounted={false}>
        <Tabs.List aria-label={t`Languages`}>
          {HELP_LANGUAGES.map((l) => {
            const has = drafts.items.some((d) => d.attributes.lang === l);
            return (
              <Tabs.Tab key={l} value={l} data-testid={`article-tab-${l}`}>
                {HELP_LANGUAGE_NAMES[l]}
                {has ? ' •' : ''}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        {HELP_LANGUAGES.map((l) => (
          <Tabs.Panel key={l} value={l} pt="md">
            <LanguageEditor
              articleId={articleid}
              lang={l}
              draft={drafts.items.find((d) => d.attributes.lang === l)}
              onFlusher={onFlusher}
              onClosing={onClosing}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
      <ArticleFacts article={article.model} />
      <PublishBar
        article={article.model}
        drafts={drafts.items}
        texts={texts.items}
        onProblemIn={setTab}
        flushAll={async () => {
          const closed = await Promise.all(
            [...closings.current].map((done) => done.catch(() => undefined)),
          );
          const open = await Promise.all([...flushers.current.values()].map((f) => f()));
          // A language's open editor started from its closed one's blocks: it has the last word.
          return [
            ...closed.flatMap((c) =>
              c === undefined || open.some((o) => o.lang === c.lang) ? [] : [c],
            ),
            ...open,
          ];
        }}
      />
    </Stack>
  );
}

/**
 * One language's title and blocks, written to its draft as they change (created on the first
 * words). The draft in the store is where the work lives: nothing is held only in this page.
 */
function LanguageEditor(props: {
  readonly articleId: string;
  readonly lang: Language;
  readonly draft: Draft | undefined;
  /** Hands the page this language's "write everything now" (null when it goes). */
  readonly onFlusher: (lang: Language, flush: (() => Promise<DraftText>) | null) => void;
  /** Hands the page, as this language goes, what it holds once its editor's last blocks are in. */
  readonly onClosing: (done: Promise<DraftText>) => void;
}) {
  const { t } = useLingui();
  const { draft, articleId, lang } = props;
  const key = `${articleId}:${lang}`;
  // Edits a reload interrupted before they reached the worker come first (unsent-edits.ts).
  const [leftover] = useState(() => unsentEdit(key));
  const [title, setTitle] = useState(leftover?.title ?? draft?.attributes.title ?? '');
  const [error, took] = useWriteOutcome();
  // The draft's id once made (the store's answer may come after the next keystroke).
  const draftId = useRef<string | undefined>(draft?.id);
  draftId.current ??= draft?.id;
  const pending = useRef<UnsentEdit>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Typed but not yet in the worker (the editor tells its changes a moment after a keystroke).
  const [unsaved, setUnsaved] = useState(leftover !== undefined);
  const writing = useRef<Promise<void>>(Promise.resolve());
  // Keystrokes in the blocks the editor has not told yet (its onChange comes a moment later).
  const untold = useRef(false);
  // What this language holds now, for Publish (the store's draft may be a moment behind).
  const latest = useRef<DraftText>({
    lang,
    title: leftover?.title ?? draft?.attributes.title ?? '',
    content: leftover?.content ?? draft?.attributes.content,
  });
  const saveNow = useRef<(() => Promise<SavedNow>) | null>(null);

  const flush = () => {
    clearTimeout(timer.current);
    const change = pending.current;
    pending.current = {};
    if (Object.keys(change).length === 0) return;
    writing.current = writing.current.then(async () => {
      const writes = syncWorker().writes;
      if (draftId.current === undefined) {
        const answer = await writes.create('article_draft', {
          article_id: articleId,
          lang,
          title: change.title ?? title,
          content: change.content,
        });
        if (took(answer) && 'data' in answer) {
          draftId.current = answer.data.id;
          forgetUnsent(key, change);
        }
      } else if (took(await writes.update('article_draft', draftId.current, change))) {
        forgetUnsent(key, change);
      }
      if (Object.keys(pending.current).length === 0 && !untold.current) setUnsaved(false);
    });
  };
  const schedule = (change: UnsentEdit) => {
    pending.current = { ...pending.current, ...change };
    latest.current = { ...latest.current, ...change };
    keepUnsent(key, change);
    setUnsaved(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, SAVE_AFTER_MS);
  };
  /** Everything typed so far into the worker (the editor asked for its blocks first). */
  const flushNow = async (): Promise<DraftText> => {
    // An editor that cannot say (it failed to load) leaves what it told already.
    const now = await saveNow.current?.().catch(() => undefined);
    if (now !== undefined) {
      untold.current = now.typedSince;
      schedule({ content: now.doc });
    }
    flush();
    await writing.current;
    return latest.current;
  };
  // What a reload interrupted is written now; leaving the tab or the page writes what waits.
  useEffect(() => {
    if (leftover !== undefined) schedule(leftover);
    props.onFlusher(lang, flushNow);
    return () => {
      props.onFlusher(lang, null);
      flush();
      // Its editor tells its last blocks after this (it reads them as it goes, once any picture
      // being kept is in): written at once, and a Publish meanwhile waits for them. Asked a
      // moment later: the editor's own clean-up, which starts its read, runs after this one.
      props.onClosing(
        Promise.resolve()
          .then(() => editorClosed(key))
          .then(async () => {
            flush();
            await writing.current;
            return latest.current;
          }),
      );
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Stack gap="sm" lang={lang === 'plain' ? 'en' : lang}>
      <TextInput
        label={t`Title`}
        value={title}
        onChange={(e) => {
          setTitle(e.currentTarget.value);
          schedule({ title: e.currentTarget.value });
        }}
        onBlur={flush}
        maxLength={200}
        data-testid="article-title"
      />
      <BlockEditor
        key={key}
        docKey={key}
        articleId={articleId}
        initial={leftover?.content ?? draft?.attributes.content}
        label={t`Content (${HELP_LANGUAGE_NAMES[lang]})`}
        onChange={(doc, typedSince) => {
          untold.current = typedSince;
          // The editor tells its blocks on leaving too: the same blocks are not written again.
          if (sameBlocks(doc, latest.current.content)) {
            if (Object.keys(pending.current).length === 0 && !typedSince) setUnsaved(false);
            return;
          }
          schedule({ content: doc });
        }}
        onInput={() => {
          untold.current = true;
          setUnsaved(true);
        }}
        saveNow={saveNow}
      />
      <Group gap="xs">
        <Text size="xs" c="dimmed" data-testid="draft-state">
          {unsaved ? (
            <Trans>Saving…</Trans>
          ) : draft === undefined ? (
            <Trans>Nothing written in this language yet.</Trans>
          ) : draft.pending ? (
            <Trans>Kept on this device; sent when the server can be reached.</Trans>
          ) : (
            <Trans>Saved.</Trans>
          )}
        </Text>
      </Group>
      {error === null ? null : (
        <Alert color="red" variant="light">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

function ArticleFacts({ article }: { readonly article: LocalModel<'article'> }) {
  const { t } = useLingui();
  const [error, took] = useWriteOutcome();
  const write = (change: { tags?: string[]; categories?: string[] }) =>
    void syncWorker().writes.update('article', article.id, change).then(took);
  return (
    <Stack gap="xs">
      <Group grow align="flex-start">
        <TagsInput
          label={t`Tags`}
          value={[...article.attributes.tags]}
          onChange={(tags) => write({ tags })}
          maxTags={20}
          data-testid="article-tags"
        />
        <TagsInput
          label={t`Categories`}
          value={[...article.attributes.categories]}
          onChange={(categories) => write({ categories })}
          maxTags={10}
          data-testid="article-categories"
        />
      </Group>
      {error === null ? null : (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Publish: every language with words needs a title, one language at least; then each draft
 * becomes the language's published text (made or changed), texts of languages no longer written
 * go, and the article is published with its languages. Unpublish takes the texts back.
 */
function PublishBar(props: {
  readonly article: LocalModel<'article'>;
  readonly drafts: readonly Draft[];
  readonly texts: readonly LocalModel<'article_text'>[];
  readonly onProblemIn: (lang: Language) => void;
  /** Writes what the open editors hold and answers it (the store's drafts may be behind). */
  readonly flushAll: () => Promise<DraftText[]>;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const lang = useRouteLanguage();
  const { article, drafts, texts } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const [error, took] = useWriteOutcome();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const back = `/app/helpcenter/${HELP_CENTER_ID}/${lang}`;
  // The store's drafts, texts and article as they are when the editors' blocks are in: a text
  // another author published during that wait is changed, not made twice (which the server
  // refuses: one text per language).
  const now = useRef({ article, drafts, texts });
  now.current = { article, drafts, texts };

  const publish = async () => {
    // Busy from the click: the open editors' blocks are read first (a picture being kept
    // is waited for).
    setBusy(true);
    try {
      const open = await props.flushAll();
      const { article, drafts, texts } = now.current;
      // The drafts as stored, each language an open editor holds as it holds it.
      const given: DraftText[] = [
        ...drafts.map((d) => d.attributes).filter((d) => !open.some((o) => o.lang === d.lang)),
        ...open.filter((o) => o.title.trim() !== '' || o.content !== undefined),
      ];
      const problems = publishProblems(given);
      const first = problems.titles[0];
      if (problems.article !== undefined) {
        setProblem(translateServerText(i18n, problems.article));
        return;
      }
      if (first !== undefined) {
        setProblem(
          t`Title is required` +
            ` (${problems.titles.map((l) => HELP_LANGUAGE_NAMES[l]).join(', ')})`,
        );
        props.onProblemIn(first);
        return;
      }
      setProblem(null);
      const writes = syncWorker().writes;
      const written = given.filter((d) => d.title.trim().length > 0);
      for (const draft of written) {
        const { title, content } = draft;
        const text = texts.find((x) => x.attributes.lang === draft.lang);
        const answer =
          text === undefined
            ? await writes.create('article_text', {
                article_id: article.id,
                lang: draft.lang,
                title,
                content,
              })
            : await writes.update('article_text', text.id, { title, content });
        if (!took(answer)) return;
      }
      for (const text of texts)
        if (!written.some((d) => d.lang === text.attributes.lang))
          if (!took(await writes.remove('article_text', text.id))) return;
      const languages = [
        ...article.attributes.languages.filter((l) => written.some((d) => d.lang === l)),
        ...written.map((d) => d.lang).filter((l) => !article.attributes.languages.includes(l)),
      ];
      took(await writes.update('article', article.id, { state: 'published', languages }));
    } finally {
      setBusy(false);
    }
  };

  const unpublish = async () => {
    setBusy(true);
    try {
      const writes = syncWorker().writes;
      if (!took(await writes.update('article', article.id, { state: 'draft' }))) return;
      for (const text of texts) if (!took(await writes.remove('article_text', text.id))) return;
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (took(await syncWorker().writes.remove('article', article.id))) {
      setDeleting(false);
      await navigate({ to: back });
    }
  };

  const title = drafts.find((d) => d.attributes.title.length > 0)?.attributes.title ?? '';
  return (
    <Stack gap="xs">
      {problem === null && error === null ? null : (
        <Alert color="red" variant="light" role="alert" data-testid="publish-problem">
          {problem ?? error}
        </Alert>
      )}
      <Group justify="space-between">
        <Group gap="xs">
          <Button onClick={() => void publish()} loading={busy} data-testid="article-publish">
            {article.attributes.state === 'published' ? t`Publish changes` : t`Publish`}
          </Button>
          {article.attributes.state === 'published' ? (
            <Button variant="default" onClick={() => void unpublish()} disabled={busy}>
              <Trans>Unpublish</Trans>
            </Button>
          ) : null}
          <Anchor component={Link} to={back}>
            <Trans>All articles</Trans>
          </Anchor>
        </Group>
        <Button color="red" variant="subtle" onClick={() => setDeleting(true)}>
          <Trans>Delete article</Trans>
        </Button>
      </Group>
      <ConfirmDelete
        opened={deleting}
        title={title === '' ? t`Delete this article?` : t`Delete the article ${isolate(title)}?`}
        consequences={<Trans>Its texts in every language go with it. This cannot be undone.</Trans>}
        error={null}
        confirmLabel={<Trans>Delete article</Trans>}
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove()}
      />
    </Stack>
  );
}
