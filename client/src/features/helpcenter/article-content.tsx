import { Fragment, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Anchor, Image, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  parseInline,
  readableBlocks,
  type ArticleBlock,
  type ArticleListItem,
  type InlineNode,
  type Language,
} from '@plant/shared-schema';
import { useFileUrl } from '../../sync/files';
import { helpArticlePath } from './helpcenter-paths';
import classes from './article-content.module.css';

/*
 * Our own renderer of an article's Editor.js document (issue 33 item 3): blocks and their inline
 * markup become React elements; no HTML string reaches the page. The document is normalised
 * again before it is shown (normalizeDocument: the allowlist of the server's write, whatever the
 * store holds), and its inline markup parsed by the same allowlist (parseInline).
 */

function Inline({
  nodes,
  lang,
}: {
  readonly nodes: readonly InlineNode[];
  readonly lang: Language;
}) {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'br':
        return <br key={i} />;
      case 'b':
        return (
          <b key={i}>
            <Inline nodes={node.children} lang={lang} />
          </b>
        );
      case 'i':
        return (
          <i key={i}>
            <Inline nodes={node.children} lang={lang} />
          </i>
        );
      case 'code':
        return (
          <code key={i} className={classes.code}>
            <Inline nodes={node.children} lang={lang} />
          </code>
        );
      case 'mark':
        return (
          <mark key={i}>
            <Inline nodes={node.children} lang={lang} />
          </mark>
        );
      case 'a': {
        const children = <Inline nodes={node.children} lang={lang} />;
        const article = /^help\/(\d+)$/.exec(node.href)?.[1];
        if (article !== undefined)
          return (
            <Anchor key={i} component={Link} to={helpArticlePath(lang, Number(article))}>
              {children}
            </Anchor>
          );
        return (
          <Anchor key={i} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {children}
          </Anchor>
        );
      }
    }
  });
}

function InlineText({ html, lang }: { readonly html: string; readonly lang: Language }) {
  return <Inline nodes={parseInline(html)} lang={lang} />;
}

function ListBlock(props: {
  readonly items: readonly ArticleListItem[];
  readonly ordered: boolean;
  readonly lang: Language;
}) {
  return (
    <List type={props.ordered ? 'ordered' : 'unordered'} withPadding spacing={4}>
      {props.items.map((item, i) => (
        <List.Item key={i}>
          <InlineText html={item.content} lang={props.lang} />
          {item.items.length > 0 ? (
            <ListBlock items={item.items} ordered={props.ordered} lang={props.lang} />
          ) : null}
        </List.Item>
      ))}
    </List>
  );
}

function ImageBlock({
  block,
  lang,
}: {
  readonly block: Extract<ArticleBlock, { type: 'image' }>;
  readonly lang: Language;
}) {
  const { file, caption, withBorder, stretched, withBackground } = block.data;
  const url = useFileUrl(file.file_id, 'content');
  const className = [
    classes.figure,
    withBorder ? classes.border : '',
    stretched ? classes.stretched : '',
    withBackground ? classes.background : '',
  ].join(' ');
  const alt = parseInline(caption)
    .map((n) => (n.kind === 'text' ? n.text : ''))
    .join('');
  return (
    <figure className={className} data-testid="article-image">
      {url === null ? (
        <Text size="sm" c="dimmed">
          <Trans>Picture not available</Trans>
        </Text>
      ) : url.name === 'loading' ? (
        <Skeleton height={160} />
      ) : url.name === 'failed' ? (
        <Text size="sm" c="dimmed">
          <Trans>The picture could not be loaded.</Trans>
        </Text>
      ) : (
        <Image src={url.url} alt={alt} fit="contain" />
      )}
      {caption.length > 0 ? (
        <figcaption>
          <Text size="sm" c="dimmed">
            <InlineText html={caption} lang={lang} />
          </Text>
        </figcaption>
      ) : null}
    </figure>
  );
}

function Block({ block, lang }: { readonly block: ArticleBlock; readonly lang: Language }) {
  switch (block.type) {
    case 'paragraph':
      return (
        <Text component="p" className={classes.paragraph}>
          <InlineText html={block.data.text} lang={lang} />
        </Text>
      );
    case 'header': {
      // The article's title is the page's h1: its headers start at h2.
      const order = Math.min(6, Math.max(2, block.data.level + 1)) as 2 | 3 | 4 | 5 | 6;
      return (
        <Title order={order}>
          <InlineText html={block.data.text} lang={lang} />
        </Title>
      );
    }
    case 'list':
      return (
        <ListBlock items={block.data.items} ordered={block.data.style === 'ordered'} lang={lang} />
      );
    case 'image':
      return <ImageBlock block={block} lang={lang} />;
    case 'unknown':
      return <UnknownBlock />;
  }
}

function UnknownBlock() {
  return (
    <Text size="sm" c="dimmed" fs="italic" data-testid="article-unknown-block">
      <Trans>This part of the article cannot be shown here.</Trans>
    </Text>
  );
}

/** An article's document as React elements; a document that is not one shows a quiet note. */
export function ArticleContent(props: { readonly content: unknown; readonly lang: Language }) {
  // Each block normalised on its own (a bad one a quiet note, the rest readable).
  const blocks = readableBlocks(props.content);
  let body: ReactNode;
  if (blocks === null) body = <UnknownBlock />;
  else
    body = blocks.map((block, i) =>
      block === null ? <UnknownBlock key={i} /> : <Block key={i} block={block} lang={props.lang} />,
    );
  return (
    <Stack gap="sm" className={classes.article} data-testid="article-content">
      {body}
    </Stack>
  );
}
