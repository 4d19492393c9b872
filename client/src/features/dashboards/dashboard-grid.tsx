import {
  memo,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import ReactGridLayout, { noCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { DASHBOARD_COLUMNS, isolate, type DashboardWidget } from '@plant/shared-schema';
import { Name } from '../../components/name';
import { nudge, placesOf, widgetsAt, type Direction } from './grid-layout';
import { WIDGET_LABELS, WidgetBody, type WidgetContext } from './widgets';
import classes from './dashboard-grid.module.css';

const ROW_HEIGHT = 32;
const MARGIN = [8, 8] as const;
const KEYS: Readonly<Record<string, Direction>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

/** The grid's width when it was last shown: a dashboard opened again lays out at once. */
let lastWidth = 0;

/**
 * The grid's width, known before its widgets are laid out: read as the grid mounts (before the
 * first paint: a grid laid out at a guessed width and again at its own moves every widget, and
 * each chart is drawn twice), then followed.
 */
function useGridWidth(): { width: number; containerRef: RefObject<HTMLDivElement | null> } {
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(lastWidth);
  useLayoutEffect(() => {
    const el = containerRef.current;
    if (el === null) return;
    const note = (next: number) => {
      const rounded = Math.round(next);
      if (rounded <= 0) return;
      lastWidth = rounded;
      setWidth((was) => (was === rounded ? was : rounded));
    };
    note(el.clientWidth);
    const observer = new ResizeObserver((entries) => {
      const rect = entries.at(-1)?.contentRect;
      if (rect !== undefined) note(rect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { width, containerRef };
}

/**
 * The dashboard's widgets on a 24-column grid (react-grid-layout; its stylesheet comes with this
 * lazy chunk only). While editing, a widget is moved by dragging its title bar and sized by its
 * corner, or, focused, by the keyboard: arrow keys move it one cell, Shift with an arrow changes
 * its size, and a live region says where it is now. A widget covering another's place pushes it
 * down. Every finished change is ONE `onLayout` (one write of the model), never one per step of a
 * drag; nothing is written when nothing moved.
 */
export const DashboardGrid = memo(function DashboardGrid(props: {
  readonly widgets: readonly DashboardWidget[];
  readonly editing: boolean;
  readonly context: WidgetContext;
  readonly onLayout: (widgets: DashboardWidget[]) => void;
  readonly onEdit: (widget: DashboardWidget) => void;
  readonly onRemove: (widget: DashboardWidget) => void;
}) {
  const { t, i18n } = useLingui();
  const { width, containerRef } = useGridWidth();
  const [announcement, setAnnouncement] = useState('');
  const helpId = useId();
  const { widgets, editing } = props;
  const layout = useMemo<Layout>(() => placesOf(widgets), [widgets]);

  const finished = (next: Layout) => {
    const changed = widgetsAt(widgets, next);
    if (changed !== null) props.onLayout(changed);
  };
  const onKey = (widget: DashboardWidget, e: KeyboardEvent<HTMLDivElement>) => {
    const direction = KEYS[e.key];
    if (!editing || direction === undefined || e.target !== e.currentTarget) return;
    e.preventDefault();
    const next = nudge(placesOf(widgets), widget.id, direction, e.shiftKey);
    const place = next.find((p) => p.i === widget.id);
    finished(next);
    if (place === undefined) return;
    const column = place.x + 1;
    const row = place.y + 1;
    const columns = place.w;
    const rows = place.h;
    setAnnouncement(
      e.shiftKey
        ? t`Size: ${plural(columns, { one: '# column', other: '# columns' })} by ${plural(rows, { one: '# row', other: '# rows' })}.`
        : t`Place: column ${column}, row ${row}.`,
    );
  };
  const titleOf = (w: DashboardWidget) =>
    w.title !== null && w.title !== '' ? w.title : i18n._(WIDGET_LABELS[w.type]);

  return (
    <div
      ref={containerRef}
      className={classes.grid}
      data-testid="dashboard-grid"
      data-editing={editing}
    >
      <VisuallyHidden id={helpId}>
        <Trans>Arrow keys move the widget, Shift and arrow keys size it.</Trans>
      </VisuallyHidden>
      <div aria-live="polite" className={classes.live} data-testid="dashboard-announcement">
        {announcement}
      </div>
      {width > 0 ? (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: DASHBOARD_COLUMNS, rowHeight: ROW_HEIGHT, margin: MARGIN }}
          dragConfig={{ enabled: editing, handle: `.${classes.handle}`, cancel: 'button' }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          compactor={noCompactor}
          onDragStop={(next) => finished(next)}
          onResizeStop={(next) => finished(next)}
        >
          {widgets.map((w) => {
            const title = titleOf(w);
            return (
              <div
                key={w.id}
                className={classes.cell}
                data-testid="dashboard-widget"
                data-id={w.id}
                data-type={w.type}
                data-place={`${w.x},${w.y},${w.w},${w.h}`}
                tabIndex={editing ? 0 : undefined}
                role="group"
                aria-label={t`Widget ${isolate(title)}`}
                aria-describedby={editing ? helpId : undefined}
                onKeyDown={(e) => onKey(w, e)}
              >
                <div className={classes.paper}>
                  <div className={editing ? `${classes.head} ${classes.handle}` : classes.head}>
                    <div className={classes.title}>
                      <Name>{title}</Name>
                    </div>
                    {editing ? (
                      <div className={classes.actions}>
                        <Tooltip label={t`Edit widget ${isolate(title)}`}>
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-label={t`Edit widget ${isolate(title)}`}
                            onClick={() => props.onEdit(w)}
                          >
                            ✎
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t`Remove widget ${isolate(title)}`}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            size="sm"
                            aria-label={t`Remove widget ${isolate(title)}`}
                            onClick={() => props.onRemove(w)}
                          >
                            ✕
                          </ActionIcon>
                        </Tooltip>
                      </div>
                    ) : null}
                  </div>
                  <div className={classes.body}>
                    <WidgetBody widget={w} context={props.context} />
                  </div>
                </div>
              </div>
            );
          })}
        </ReactGridLayout>
      ) : null}
    </div>
  );
});
