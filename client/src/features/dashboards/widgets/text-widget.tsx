import { Fragment, type ReactNode } from 'react';
import { Anchor, Code, List, Stack, Text, Title } from '@mantine/core';
import { widgetOptions } from '@plant/shared-schema';
import { parseMarkdown, type Inline } from './markdown';
import type { WidgetProps } from './widget-props';

/*
 * The text widget: its text with a small markdown subset (markdown.ts) rendered as React
 * elements. Nothing is ever set as HTML: a `<script>` in the text is shown as typed.
 */

function inline(nodes: readonly Inline[]): ReactNode {
  return nodes.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return <Fragment key={i}>{n.text}</Fragment>;
      case 'code':
        return <Code key={i}>{n.text}</Code>;
      case 'strong':
        return <strong key={i}>{inline(n.children)}</strong>;
      case 'em':
        return <em key={i}>{inline(n.children)}</em>;
      case 'link': {
        const external = !n.href.startsWith('/');
        return (
          <Anchor
            key={i}
            href={n.href}
            {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}
          >
            {inline(n.children)}
          </Anchor>
        );
      }
    }
  });
}

export function TextWidget({ widget }: WidgetProps) {
  const { text } = widgetOptions('text', widget.options);
  const blocks = parseMarkdown(text);
  return (
    <Stack gap={6} data-testid="widget-text" dir="auto">
      {blocks.map((b, i) => {
        if (b.kind === 'heading') {
          return (
            <Title key={i} order={(b.level + 2) as 3 | 4 | 5} size={b.level === 1 ? 'h4' : 'h5'}>
              {inline(b.children)}
            </Title>
          );
        }
        if (b.kind === 'list') {
          return (
            <List key={i} type={b.ordered ? 'ordered' : 'unordered'} size="sm">
              {b.items.map((item, k) => (
                <List.Item key={k}>{inline(item)}</List.Item>
              ))}
            </List>
          );
        }
        return (
          <Text key={i} size="sm">
            {inline(b.children)}
          </Text>
        );
      })}
    </Stack>
  );
}
