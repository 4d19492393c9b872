import './catalogues';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Badge, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { ArticleContent } from './article-content';
import { useHelpArticle } from './help-data';
import { HELP_CENTER_ID, helpEditorPath } from './helpcenter-paths';
import { useCan } from '../../permissions/permissions';
import { useLiveModel } from '../../sync/hooks';
import { articleModel } from '@plant/shared-schema';
import { useRouteLanguage } from './route-language';
import { HELP_LANGUAGE_NAMES } from './language-names';
import classes from './article-content.module.css';

/**
 * /app/helpcenter/{id}/{lang}/{number}: one article, read from the store (offline too), in the
 * reader's language or, told so, in the first language it was written in. Printing gives the
 * article alone (the shell is not printed).
 */
export function ArticlePage() {
  const can = useCan();
  const lang = useRouteLanguage();
  const { number = '' }: { number?: string } = useParams({ strict: false });
  const entry = useHelpArticle(lang, Number(number));
  const back = `/app/helpcenter/${HELP_CENTER_ID}/${lang}`;
  if (entry === undefined)
    return (
      <Stack gap="sm" aria-busy>
        <Skeleton height={36} width="60%" />
        <Skeleton height={120} />
      </Stack>
    );
  if (entry === null || entry.text === undefined)
    return (
      <Stack gap="md">
        <EmptyState title={<Trans>Article not found</Trans>}>
          <Text size="sm" c="dimmed">
            <Trans>It may not be published, or not be on this device yet.</Trans>
          </Text>
        </EmptyState>
        <Anchor component={Link} to={back}>
          <Trans>All articles</Trans>
        </Anchor>
      </Stack>
    );
  const text = entry.text;
  const { changed_at: changed, changed_by: changedBy } = text.attributes;
  return (
    <Stack gap="md" component="article" data-testid="article-page" data-lang={text.attributes.lang}>
      <Group justify="space-between" className={classes.noPrint}>
        <Anchor component={Link} to={back}>
          <Trans>All articles</Trans>
        </Anchor>
        <Group gap="xs">
          {can(articleModel.permissions.update) ? (
            <Button
              component={Link}
              to={helpEditorPath(lang, entry.article.id)}
              variant="default"
              size="xs"
              data-testid="article-edit"
            >
              <Trans>Edit</Trans>
            </Button>
          ) : null}
          <Button variant="default" size="xs" onClick={() => window.print()}>
            <Trans>Print</Trans>
          </Button>
        </Group>
      </Group>
      <Group gap="xs" align="baseline">
        <Title order={1} lang={text.attributes.lang === 'plain' ? 'en' : text.attributes.lang}>
          <Name>{text.attributes.title}</Name>
        </Title>
        <Text c="dimmed">#{entry.article.attributes.number}</Text>
        {entry.draft ? (
          <Badge variant="light" color="gray">
            <Trans>Draft</Trans>
          </Badge>
        ) : null}
      </Group>
      {entry.fallback ? (
        <Alert
          color="blue"
          variant="light"
          data-testid="article-fallback"
          className={classes.noPrint}
        >
          <Trans>
            This article is not available in {HELP_LANGUAGE_NAMES[lang]}: it is shown in{' '}
            {HELP_LANGUAGE_NAMES[text.attributes.lang]}.
          </Trans>
        </Alert>
      ) : null}
      <div lang={text.attributes.lang === 'plain' ? 'en' : text.attributes.lang}>
        <ArticleContent content={text.attributes.content} lang={lang} />
      </div>
      <Group gap="xs">
        {entry.article.attributes.tags.map((tag) => (
          <Badge key={tag} size="sm" variant="dot">
            <Name>{tag}</Name>
          </Badge>
        ))}
      </Group>
      {changed === null ? null : <Changed at={changed} by={changedBy} />}
    </Stack>
  );
}

/**
 * When the text shown was last changed, and by whom (a member this user may see, by name; the
 * words are the catalogue's "Changed on {0}" and the alarm history's "By").
 */
function Changed({ at, by }: { readonly at: number; readonly by: string | null }) {
  const { t, i18n } = useLingui();
  const user = useLiveModel('user', by ?? '');
  const name =
    by === null || user.name !== 'found'
      ? null
      : `${user.model.attributes.firstname} ${user.model.attributes.lastname}`.trim() ||
        user.model.attributes.email;
  return (
    <Text size="xs" c="dimmed" data-testid="article-changed">
      {t`Changed on ${i18n.date(new Date(at), { dateStyle: 'medium', timeStyle: 'short' })}`}
      {name === null ? null : (
        <>
          {' · '}
          {t`By`} <Name>{name}</Name>
        </>
      )}
    </Text>
  );
}
