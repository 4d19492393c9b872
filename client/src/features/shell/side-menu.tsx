import { useId } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip, useDirection, VisuallyHidden } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useMayEnter } from '../../permissions/permissions';
import { useAlarmSummary } from '../alarms/alarm-summary';
import { useDueTasks } from '../tasks/due-tasks';
import { languageAtom, type MenuState } from '../../state/preferences';
import {
  currentEntryKey,
  menuGroups,
  permittedGroups,
  type MenuEntry,
  type MenuGroup,
} from './menu-entries';
import classes from './side-menu.module.css';

/** The entries the signed-in user may open, for the current path, and which one is current. */
export function useMenu(): { groups: MenuGroup[]; current: string | null } {
  const pathname = useLocation({ select: (l) => l.pathname });
  const language = useAtomValue(languageAtom);
  const mayEnter = useMayEnter();
  const groups = permittedGroups(menuGroups(pathname, language), mayEnter);
  return { groups, current: currentEntryKey(groups, pathname) };
}

/**
 * The menu's groups and links. `state` is how the menu is drawn: in the rail (icons, closed
 * overlay) every label stays in the link for screen readers and shows as a tooltip.
 */
export function SideMenuLinks({
  state,
  onNavigate,
}: {
  readonly state: MenuState;
  readonly onNavigate?: () => void;
}) {
  const { groups, current } = useMenu();
  return (
    <div className={classes.scroll}>
      {groups.map((group) => (
        <MenuGroupList
          key={group.key}
          group={group}
          current={current}
          withTooltips={state === 'icons'}
          {...(onNavigate === undefined ? {} : { onNavigate })}
        />
      ))}
    </div>
  );
}

function MenuGroupList({
  group,
  current,
  withTooltips,
  onNavigate,
}: {
  readonly group: MenuGroup;
  readonly current: string | null;
  readonly withTooltips: boolean;
  readonly onNavigate?: () => void;
}) {
  const { i18n } = useLingui();
  const headingId = useId();
  return (
    <div className={classes.group}>
      <p className={classes.heading} id={headingId}>
        {i18n._(group.label)}
      </p>
      <ul className={classes.list} aria-labelledby={headingId}>
        {group.entries.map((entry) => (
          <li key={entry.key}>
            <MenuLink
              entry={entry}
              current={entry.key === current}
              withTooltip={withTooltips}
              {...(onNavigate === undefined ? {} : { onNavigate })}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

function MenuLink({
  entry,
  current,
  withTooltip,
  onNavigate,
}: {
  readonly entry: MenuEntry;
  readonly current: boolean;
  readonly withTooltip: boolean;
  readonly onNavigate?: () => void;
}) {
  const { i18n } = useLingui();
  const { dir } = useDirection();
  const label = i18n._(entry.label);
  const Icon = entry.icon;
  // An entry's count is its description, not part of its name: the link is named by its label.
  const countId = useId();
  const link = (
    <Link
      aria-label={label}
      aria-describedby={entry.badge === undefined ? undefined : countId}
      to={entry.to}
      className={entry.nested === true ? `${classes.link} ${classes.nested}` : classes.link}
      // The router marks only exact matches; the menu marks the section the page belongs to.
      activeOptions={{ exact: true }}
      aria-current={current ? 'page' : undefined}
      data-menu-entry={entry.key}
      onClick={onNavigate}
    >
      <Icon className={classes.icon} />
      <span className={classes.label} data-menu-label>
        {label}
      </span>
      {entry.badge === 'alarms' ? <AlarmCount id={countId} /> : null}
      {entry.badge === 'tasks' ? <DueTaskCount id={countId} /> : null}
    </Link>
  );
  if (!withTooltip) return link;
  return (
    <Tooltip label={label} position={dir === 'rtl' ? 'left' : 'right'} withArrow>
      {link}
    </Tooltip>
  );
}

/** The alarms that need someone (raised, unacknowledged, not shelved), live from the local store. */
function AlarmCount(props: { readonly id: string }) {
  const { t } = useLingui();
  const { attention } = useAlarmSummary();
  return (
    <EntryCount id={props.id} count={attention} color="red" testId="menu-alarm-count">
      {t`${attention} need attention`}
    </EntryCount>
  );
}

/** How many tasks are due for the user (issue 37), beside the Tasks entry. */
function DueTaskCount(props: { readonly id: string }) {
  const { t } = useLingui();
  const due = useDueTasks()?.length ?? 0;
  return (
    <EntryCount id={props.id} count={due} color="orange" testId="menu-task-count">
      {t`Tasks due: ${due}`}
    </EntryCount>
  );
}

/** An entry's live count: a badge for the eye, words for a screen reader; nothing at zero. */
function EntryCount(props: {
  readonly id: string;
  readonly count: number;
  readonly color: string;
  readonly testId: string;
  readonly children: string;
}) {
  if (props.count === 0) return null;
  return (
    <>
      <Badge
        color={props.color}
        size="sm"
        circle={props.count < 10}
        className={classes.count}
        data-testid={props.testId}
        data-count={props.count}
        aria-hidden
      >
        {props.count}
      </Badge>
      <VisuallyHidden id={props.id}>{props.children}</VisuallyHidden>
    </>
  );
}
