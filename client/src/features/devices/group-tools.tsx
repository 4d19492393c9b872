import { useState } from 'react';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { isolate, modelNameField } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useMayEdit } from '../../permissions/may-edit';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import { textOf } from './asset-texts';

type StreamGroup = LocalModel<'datastreamgroup'>;

/**
 * A group's name is checked as its model checks it (the shared name field), without the
 * streams' module and its code rules, which the asset's page would otherwise load at once.
 */
const groupName = modelNameField;

/**
 * A group name as typed, checked: the name to write, or null after `onProblem` got the
 * translated reason (null when it is fine). The new group's form and the settings' rename.
 */
export function checkedGroupName(
  i18n: I18n,
  typed: string,
  onProblem: (problem: string | null) => void,
): string | null {
  const checked = groupName.safeParse(typed);
  onProblem(
    checked.success ? null : translateServerText(i18n, checked.error.issues[0]?.message ?? ''),
  );
  return checked.success ? checked.data : null;
}

/** The drag data of a group being moved (its id). */
export const GROUP_DRAG_TYPE = 'application/x-plant-stream-group';

/**
 * Puts the group at `to` among the asset's groups (spec 001 §3: folders in the user's order):
 * every group whose place changes gets its new `order`, the others are not written.
 */
export async function moveGroup(groups: readonly StreamGroup[], id: string, to: number) {
  const from = groups.findIndex((g) => g.id === id);
  if (from < 0 || to < 0 || to >= groups.length || from === to) return;
  const next = [...groups];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return;
  next.splice(to, 0, moved);
  for (const [index, group] of next.entries()) {
    if (group.attributes.order !== index) {
      await syncWorker().writes.update('datastreamgroup', group.id, { order: index });
    }
  }
}

/** A new folder of streams on the asset, placed last (datastream::create). */
export function NewGroupForm(props: { readonly assetId: string; readonly count: number }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const [name, setName] = useState('');
  const [error, took] = useWriteOutcome();
  const [problem, setProblem] = useState<string | null>(null);
  if (!can('datastream::create')) return null;
  const create = async () => {
    const checked = checkedGroupName(i18n, name, setProblem);
    if (checked === null) return;
    const answer = await syncWorker().writes.create('datastreamgroup', {
      asset_id: props.assetId,
      name: checked,
      order: props.count,
    });
    if (took(answer)) setName('');
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      data-testid="new-stream-group"
    >
      <Group align="flex-start">
        <TextInput
          label={t`New stream group`}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={problem ?? error}
        />
        <Button type="submit" variant="light" mt={25}>
          <Trans>Add group</Trans>
        </Button>
      </Group>
    </form>
  );
}

/**
 * A group's own controls (datastream::edit): move up and down (the keyboard's way of the drag
 * and drop), and its settings: name, collapsible, open by default, and (datastream::delete) the
 * delete, which says its streams go with it.
 */
export function GroupTools(props: {
  readonly group: StreamGroup;
  readonly groups: readonly StreamGroup[];
  readonly index: number;
  readonly settingsOpen: boolean;
  readonly onSettings: () => void;
}) {
  const { t } = useLingui();
  const mayEdit = useMayEdit('datastreamgroup', props.group);
  const open = props.settingsOpen;
  if (!mayEdit) return null;
  const { group, groups, index } = props;
  // Isolated: the name is inside the labels' text.
  const name = isolate(textOf(group.attributes, 'name'));
  return (
    <Group gap={4} wrap="nowrap" pr="sm">
      <ActionIcon
        variant="subtle"
        aria-label={t`Move ${name} up`}
        disabled={index === 0}
        onClick={() => void moveGroup(groups, group.id, index - 1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={t`Move ${name} down`}
        disabled={index === groups.length - 1}
        onClick={() => void moveGroup(groups, group.id, index + 1)}
      >
        ↓
      </ActionIcon>
      <ActionIcon
        variant={open ? 'filled' : 'subtle'}
        aria-label={t`Settings of ${name}`}
        aria-expanded={open}
        onClick={props.onSettings}
        data-testid="stream-group-settings"
      >
        ⚙
      </ActionIcon>
    </Group>
  );
}

/** Moves a stream to another group of its asset (datastream::edit). */
export function MoveStreamSelect(props: {
  readonly stream: LocalModel<'datastream'>;
  readonly groups: readonly StreamGroup[];
}) {
  const { t } = useLingui();
  const mayEdit = useMayEdit('datastream', props.stream);
  if (!mayEdit || props.groups.length < 2) return null;
  const name = isolate(textOf(props.stream.attributes, 'name'));
  return (
    <NativeSelect
      size="xs"
      aria-label={t`Move ${name} to another group`}
      value=""
      data={[
        { value: '', label: t`Move to…` },
        ...props.groups
          .filter((g) => g.id !== props.stream.attributes.group_id)
          .map((g) => ({ value: g.id, label: textOf(g.attributes, 'name') })),
      ]}
      onChange={(e) => {
        const to = e.currentTarget.value;
        if (to !== '') {
          void syncWorker().writes.update('datastream', props.stream.id, { group_id: to });
        }
      }}
    />
  );
}
