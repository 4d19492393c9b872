import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  DEPLOYMENT_MOVES,
  deploymentAttributesSchema,
  countStates,
  uuidv7,
  type DeploymentState,
  type DeploymentTargets,
  type GatewayUpdateState,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { UPDATE_STATE_COLORS, UPDATE_STATE_WORDS } from '../states/state-words';
import { ModalForm } from '../../components/modal-form';
import { absoluteTime } from '../../components/time-ago';
import { translateServerText } from '../../i18n/server-texts';
import { useCan } from '../../permissions/permissions';
import { useConfirmedWrite } from '../../sync/confirmed-write';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { GatewayName, RefusalAlert, useRefusal, WhoWhen } from './release-parts';

/*
 * A released version's rollouts (issue 35 item 3): "Roll out" chooses gateways by list, tag or
 * all, the batch size, the failure limit and an optional idle stream; each rollout shows its
 * gateways' states as the server writes them (synced, so live and offline), with pause, resume
 * and cancel. What the server refuses ('Deployment not possible' and why) shows on the form.
 */

export function Deployments({ release }: { readonly release: LocalModel<'release'> }) {
  const can = useCan();
  const result = useLiveQuery({
    type: 'deployment',
    parent: { type: 'release', id: release.id },
    limit: 1000,
  });
  const rows = useMemo(
    () =>
      result === undefined
        ? undefined
        : [...result.items].sort(
            (a, b) => (b.attributes.created_at ?? Infinity) - (a.attributes.created_at ?? Infinity),
          ),
    [result],
  );
  return (
    <Stack gap="sm" data-testid="deployments">
      <Group justify="space-between">
        <Title order={2} size="h3">
          <Trans>Rollouts</Trans>
        </Title>
        {can('release::create') && can('gateway::edit') ? <NewRollout release={release} /> : null}
      </Group>
      {rows === undefined ? (
        <Skeleton height={80} />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="deployments-empty">
          <Trans>Not rolled out yet.</Trans>
        </Text>
      ) : (
        rows.map((d) => <Rollout key={d.id} deployment={d} />)
      )}
    </Stack>
  );
}

function NewRollout({ release }: { readonly release: LocalModel<'release'> }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="rollout-new">
        <Trans>Roll out</Trans>
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t`Roll out ${release.attributes.version}`}
        size="lg"
      >
        {open ? <RolloutForm release={release} onDone={() => setOpen(false)} /> : null}
      </Modal>
    </>
  );
}

type Choice = DeploymentTargets['kind'];

function RolloutForm(props: {
  readonly release: LocalModel<'release'>;
  readonly onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const gateways = useLiveQuery({ type: 'gateway', limit: 1000 });
  const [choice, setChoice] = useState<Choice>('list');
  const [picked, setPicked] = useState<string[]>([]);
  const [tag, setTag] = useState<string | null>(null);
  const [batchSize, setBatchSize] = useState<number | string>(10);
  const [failurePercent, setFailurePercent] = useState<number | string>(20);
  const [idleStream, setIdleStream] = useState('');
  const [idleValue, setIdleValue] = useState('');
  const [checkError, setCheckError] = useState<string | null>(null);
  const write = useConfirmedWrite<Partial<Record<string, string>>>(
    'deployment',
    props.onDone,
    (text) => translateServerText(i18n, text),
  );
  const tags = useMemo(
    () => [...new Set((gateways?.items ?? []).flatMap((g) => g.attributes.tags))].sort(),
    [gateways],
  );

  const submit = async () => {
    setCheckError(null);
    write.setServerErrors({});
    write.setFormError(null);
    const targets: DeploymentTargets =
      choice === 'list'
        ? { kind: 'list', gateway_ids: picked }
        : choice === 'tag'
          ? { kind: 'tag', tag: tag ?? '' }
          : { kind: 'all' };
    const trimmedValue = idleValue.trim();
    const parsed = deploymentAttributesSchema.safeParse({
      release_id: props.release.id,
      targets,
      batch_size: Number(batchSize),
      max_failure_rate: Number(failurePercent) / 100,
      idle_stream: idleStream.trim() === '' ? null : idleStream.trim(),
      idle_value:
        trimmedValue === ''
          ? null
          : Number.isFinite(Number(trimmedValue))
            ? Number(trimmedValue)
            : trimmedValue,
    });
    if (!parsed.success) {
      setCheckError(translateServerText(i18n, parsed.error.issues[0]?.message ?? ''));
      return;
    }
    const id = uuidv7();
    const made = await syncWorker().writes.create('deployment', parsed.data, id);
    if ('error' in made) {
      write.showWorkerError(made.error);
      return;
    }
    write.waitOrClose(id);
  };

  const onField = Object.values(write.serverErrors).find((v) => v !== undefined && v !== '');
  const refused =
    checkError ?? (onField === undefined ? write.formError : translateServerText(i18n, onField));
  return (
    <ModalForm
      testId="rollout-form"
      onSubmit={submit}
      onCancel={props.onDone}
      submitLabel={<Trans>Start rollout</Trans>}
      error={refused}
      busy={write.waitingFor !== null}
    >
      <SegmentedControl
        aria-label={t`Gateways`}
        value={choice}
        onChange={(v) => setChoice(v)}
        data={[
          { value: 'list', label: t`Chosen gateways` },
          { value: 'tag', label: t`By tag` },
          { value: 'all', label: t`All gateways` },
        ]}
        data-testid="rollout-choice"
      />
      {choice === 'list' ? (
        <MultiSelect
          label={t`Gateways`}
          data={(gateways?.items ?? []).map((g) => ({
            value: g.id,
            label: `${g.attributes.name} (${g.attributes.agent?.version ?? t`version unknown`})`,
          }))}
          value={picked}
          onChange={setPicked}
          searchable
          data-testid="rollout-gateways"
        />
      ) : choice === 'tag' ? (
        <Select
          label={t`Tag`}
          data={tags}
          value={tag}
          onChange={setTag}
          searchable
          data-testid="rollout-tag"
        />
      ) : (
        <Text size="sm" c="dimmed">
          <Trans>Every gateway of the account you may manage.</Trans>
        </Text>
      )}
      <SimpleGrid cols={2}>
        <NumberInput
          label={t`Batch size`}
          description={t`Gateways that update at once`}
          min={1}
          max={1000}
          value={batchSize}
          onChange={setBatchSize}
          data-testid="rollout-batch"
        />
        <NumberInput
          label={t`Halt at failures (%)`}
          description={t`Of the gateways done`}
          min={0}
          max={100}
          value={failurePercent}
          onChange={setFailurePercent}
          data-testid="rollout-failures"
        />
        <TextInput
          label={t`Install only while stream`}
          description={t`Optional: a stream of the machine, by name`}
          value={idleStream}
          onChange={(e) => setIdleStream(e.currentTarget.value)}
        />
        <TextInput
          label={t`says`}
          description={t`The value that means idle`}
          value={idleValue}
          onChange={(e) => setIdleValue(e.currentTarget.value)}
          disabled={idleStream.trim() === ''}
        />
      </SimpleGrid>
    </ModalForm>
  );
}

function RolloutStateBadge({ state }: { readonly state: DeploymentState }) {
  const color =
    state === 'running' ? 'blue' : state === 'done' ? 'green' : state === 'halted' ? 'red' : 'gray';
  return (
    <Badge color={color} variant="light" data-testid="rollout-state" data-state={state}>
      {state === 'running' ? (
        <Trans>Running</Trans>
      ) : state === 'paused' ? (
        <Trans>Paused</Trans>
      ) : state === 'halted' ? (
        <Trans>Halted</Trans>
      ) : state === 'cancelled' ? (
        <Trans>Cancelled</Trans>
      ) : (
        <Trans>Done</Trans>
      )}
    </Badge>
  );
}

export function GatewayStateBadge({ state }: { readonly state: GatewayUpdateState }) {
  const { i18n } = useLingui();
  return (
    <Badge
      color={UPDATE_STATE_COLORS[state]}
      variant="light"
      data-testid="gateway-update-state"
      data-state={state}
    >
      {i18n._(UPDATE_STATE_WORDS[state])}
    </Badge>
  );
}

function Rollout({ deployment }: { readonly deployment: LocalModel<'deployment'> }) {
  const { t, i18n } = useLingui();
  const can = useCan();
  const a = deployment.attributes;
  const [refusal, clear] = useRefusal(deployment.id, true);
  const parts = useLiveQuery({
    type: 'deployment_gateway',
    parent: { type: 'deployment', id: deployment.id },
    limit: 1000,
  });
  const total = parts?.items.length ?? 0;
  const counted = countStates((parts?.items ?? []).map((p) => p.attributes.state));
  const done = counted.succeeded + counted.failed + counted.rolled_back;
  const move = async (state: DeploymentState) => {
    clear();
    await syncWorker().writes.update('deployment', deployment.id, { state });
  };
  const moves = can('release::edit') ? DEPLOYMENT_MOVES[a.state] : [];
  return (
    <Paper withBorder p="md" radius="sm" data-testid="rollout" data-id={deployment.id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <RolloutStateBadge state={a.state} />
            <Text size="sm" data-testid="rollout-progress">
              {t`${done} of ${total} done`} · {t`${counted.succeeded} succeeded`} ·{' '}
              {t`${counted.failed + counted.rolled_back} failed`}
            </Text>
            {deployment.pending ? (
              <Badge size="sm" color="orange" variant="light">
                <Trans>Not synced yet</Trans>
              </Badge>
            ) : null}
          </Group>
          <Group gap="xs">
            {moves.includes('paused') ? (
              <Button
                size="xs"
                variant="default"
                onClick={() => void move('paused')}
                data-testid="rollout-pause"
              >
                <Trans>Pause</Trans>
              </Button>
            ) : null}
            {moves.includes('running') ? (
              <Button
                size="xs"
                variant="light"
                onClick={() => void move('running')}
                data-testid="rollout-resume"
              >
                <Trans>Resume</Trans>
              </Button>
            ) : null}
            {moves.includes('cancelled') ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => void move('cancelled')}
                data-testid="rollout-cancel"
              >
                <Trans>Cancel rollout</Trans>
              </Button>
            ) : null}
          </Group>
        </Group>
        <Progress.Root size="lg" aria-label={t`Rollout progress`}>
          <Progress.Section
            value={total === 0 ? 0 : (counted.succeeded / total) * 100}
            color="green"
          />
          <Progress.Section
            value={total === 0 ? 0 : ((counted.failed + counted.rolled_back) / total) * 100}
            color="red"
          />
        </Progress.Root>
        {a.reason === null ? null : (
          <Alert
            color={a.state === 'halted' ? 'red' : 'blue'}
            variant="light"
            data-testid="rollout-reason"
          >
            {translateServerText(i18n, a.reason)}
          </Alert>
        )}
        <RefusalAlert text={refusal} />
        <Text size="xs" c="dimmed">
          {t`Batches of ${a.batch_size}, halts at ${i18n.number(a.max_failure_rate, { style: 'percent' })} failures`}
          {a.idle_stream === null ? null : (
            <> · {t`installs while ${a.idle_stream} says ${String(a.idle_value)}`}</>
          )}
        </Text>
        <WhoWhen label={t`Started`} at={a.created_at} by={a.created_by} />
        {a.changed_at !== a.created_at ? (
          <WhoWhen label={t`Changed`} at={a.changed_at} by={a.changed_by} />
        ) : null}
        <DataTable
          rows={parts?.items}
          name={{ label: t`Gateways of the rollout` }}
          testId="rollout-gateways-table"
          rowKey={(p) => p.id}
          rowData={(p) => ({
            'data-testid': 'rollout-gateway',
            'data-gateway': p.attributes.gateway_id,
            'data-state': p.attributes.state,
          })}
          loading={<Skeleton height={36} />}
          empty={<Text size="sm">–</Text>}
          columns={[
            {
              id: 'gateway',
              header: <Trans>Gateway</Trans>,
              rowHeader: true,
              cell: (p) => (
                <Text size="sm">
                  <GatewayName id={p.attributes.gateway_id} />
                </Text>
              ),
            },
            { id: 'batch', header: <Trans>Batch</Trans>, cell: (p) => p.attributes.batch + 1 },
            {
              id: 'state',
              header: <Trans>State</Trans>,
              cell: (p) => <GatewayStateBadge state={p.attributes.state} />,
            },
            {
              id: 'from',
              header: <Trans>From version</Trans>,
              cell: (p) => p.attributes.from_version ?? '–',
            },
            {
              id: 'message',
              header: <Trans>Message</Trans>,
              cell: (p) =>
                p.attributes.message === null
                  ? ''
                  : translateServerText(i18n, p.attributes.message),
            },
            {
              id: 'changed',
              header: <Trans>Changed</Trans>,
              cell: (p) =>
                p.attributes.changed_at === null
                  ? '–'
                  : absoluteTime(i18n, p.attributes.changed_at),
            },
          ]}
        />
      </Stack>
    </Paper>
  );
}
