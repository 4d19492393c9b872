import { createElement, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import {
  SVG_TEXT_ELEMENTS,
  type DiagramShow,
  type SvgElement,
  type SvgNode,
} from '@plant/shared-schema';
import { reactProps, type SvgPath } from './svg-tree';

/*
 * A process diagram's picture drawn as React elements from the sanitised tree (no markup string
 * reaches the page: the tree is parsed again from the stored markup, and only its allowlisted
 * elements and attributes become elements), with its bound elements live: a text shows its
 * stream's value, a shape's fill follows a state or a raised alarm, and each is a link to its
 * stream, reached by Tab and opened by Enter or a click. In edit mode the picture is drawn as it
 * is, and a click chooses an element.
 */

/** What one bound element shows now. */
export interface BoundView {
  readonly streamId: string;
  readonly show: DiagramShow;
  /** Its accessible name: the stream's name and what the element says of it. */
  readonly label: string;
  /** `value`: the words a text element shows (else a tooltip's). */
  readonly text: string | null;
  /** The fill it takes now; null keeps the picture's own. */
  readonly fill: string | null;
  readonly alarm: boolean;
  readonly onOpen: () => void;
}

export interface DrawingEdit {
  readonly selected: SvgPath | null;
  readonly onSelect: (path: SvgPath) => void;
}

interface Context {
  readonly bound: ReadonlyMap<string, BoundView>;
  readonly edit: DrawingEdit | undefined;
}

const samePath = (a: SvgPath | null, b: SvgPath) =>
  a !== null && a.length === b.length && a.every((index, i) => index === b[i]);

function withBinding(
  node: SvgElement,
  props: Record<string, unknown>,
  children: ReactNode[],
  view: BoundView,
): ReactNode[] {
  const style = (props.style ?? {}) as Record<string, string>;
  props.style = { ...style, cursor: 'pointer', ...(view.fill === null ? {} : { fill: view.fill }) };
  props.tabIndex = 0;
  props.role = 'link';
  props['aria-label'] = view.label;
  props['data-stream'] = view.streamId;
  props['data-show'] = view.show;
  props['data-alarm'] = view.alarm ? 'raised' : 'normal';
  props['data-fill'] = view.fill ?? '';
  props.onClick = view.onOpen;
  props.onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    view.onOpen();
  };
  if (view.text === null) return children;
  // A text shows the value itself; any other element says it in its tooltip.
  if (node.name === 'text' || node.name === 'tspan') return [view.text];
  return [createElement('title', { key: 'value' }, view.text), ...children];
}

function draw(node: SvgNode, path: SvgPath, context: Context, key: number): ReactNode {
  if (node.kind === 'text') return node.text;
  const props = reactProps(node.attributes);
  props.key = key;
  const id = node.attributes.id;
  if (id !== undefined) props['data-id'] = id;
  let children: ReactNode[] = node.children.map((child, index) =>
    draw(child, [...path, index], context, index),
  );
  const { edit } = context;
  if (edit !== undefined) {
    props['data-path'] = path.join('.');
    if (path.length > 0 && samePath(edit.selected, path)) {
      props['data-selected'] = true;
      const style = (props.style ?? {}) as Record<string, string>;
      props.style = { ...style, outline: '2px dashed #1c7ed6', outlineOffset: '2px' };
    }
  } else {
    const view = id === undefined ? undefined : context.bound.get(id);
    if (view !== undefined) {
      props['data-element'] = id;
      children = withBinding(node, props, children, view);
    }
  }
  // Text elements keep their words; others never had any (the sanitiser took them out).
  if (!SVG_TEXT_ELEMENTS.has(node.name)) children = children.filter((c) => typeof c !== 'string');
  return createElement(node.name, props, ...children);
}

/** The picture, its bound elements live (or, editing, chosen by a click). */
export function DiagramDrawing(props: {
  readonly root: SvgElement;
  readonly label: string;
  readonly bound: ReadonlyMap<string, BoundView>;
  readonly edit?: DrawingEdit;
}) {
  const { root, edit } = props;
  const context: Context = { bound: props.bound, edit };
  const rootProps = reactProps(root.attributes);
  const style = (rootProps.style ?? {}) as Record<string, string>;
  const children = root.children.map((child, index) => draw(child, [index], context, index));
  const onClick =
    edit === undefined
      ? undefined
      : (event: MouseEvent) => {
          const target = (event.target as Element).closest('[data-path]');
          const at = target?.getAttribute('data-path') ?? '';
          if (at !== '') edit.onSelect(at.split('.').map(Number));
        };
  return createElement(
    'svg',
    {
      ...rootProps,
      role: 'group',
      'aria-label': props.label,
      'data-testid': 'diagram-drawing',
      'data-editing': edit !== undefined,
      style: { ...style, maxWidth: '100%', height: 'auto', display: 'block' },
      onClick,
    },
    ...children,
  );
}
