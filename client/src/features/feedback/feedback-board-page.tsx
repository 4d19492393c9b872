import './catalogues';
import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import {
  FEEDBACK_PERMISSIONS,
  TICKET_BOARDS,
  TICKET_IMPORTANCE,
  type TicketBoard,
  type TicketImportance,
  type TicketKind,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import {
  BOARD_WORDS,
  IMPORTANCE_WORDS,
  KIND_WORDS,
  PROGRESS_WORDS,
  STATE_COLORS,
  STATE_WORDS,
} from './feedback-texts';
import { feedbackPaths } from './paths';
import { addTicketPhoto, photoProblem, PhotoPick } from './ticket-photo';

/**
 * /app/feedback/{platform|hardware|operations} (issue 34 item 1): a board's problems and feature
 * requests from the local store, live, and the form that reports one (offline too: it is kept
 * in the worker and lands once when the server is back).
 */
export function FeedbackBoardPage() {
  const { t, i18n } = useLingui();
  const board = useRouterState({ select: (s) => boardOfPath(s.location.pathname) });
  const navigate = useNavigate();
  const can = useCan();
  const [kind, setKind] = useState<TicketKind>('problem');
  const [reporting, setReporting] = useState(false);
  const result = useLiveQuery({
    type: 'ticket',
    limit: 1000,
    sort: { field: 'reported_at', direction: 'desc' },
  });
  const votes = useLiveQuery({ type: 'ticket_vote', limit: 1000 });
  const rows = useMemo(
    () => result?.items.filter((x) => x.attributes.board === board && x.attributes.kind === kind),
    [result, board, kind],
  );
  // Each ticket's votes, counted once per change of the votes (not once per row).
  const voteCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const v of votes?.items ?? [])
      counts.set(v.attributes.ticket_id, (counts.get(v.attributes.ticket_id) ?? 0) + 1);
    return counts;
  }, [votes]);
  const mayReport = can(FEEDBACK_PERMISSIONS.view);
  return (
    <Stack gap="md" data-testid="feedback-page">
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Feedback</Trans>
        </Title>
        {mayReport && !reporting ? (
          <Button onClick={() => setReporting(true)} data-testid="ticket-new">
            {kind === 'problem' ? (
              <Trans>Report a problem</Trans>
            ) : (
              <Trans>Request a feature</Trans>
            )}
          </Button>
        ) : null}
      </Group>
      <Tabs
        value={board}
        onChange={(value) => {
          if (value !== null) void navigate({ to: feedbackPaths.board(value as TicketBoard) });
        }}
      >
        <Tabs.List aria-label={t`Boards`}>
          {TICKET_BOARDS.map((b) => (
            <Tabs.Tab key={b} value={b} data-testid={`board-${b}`}>
              {i18n._(BOARD_WORDS[b])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <SegmentedControl
        value={kind}
        onChange={(value) => setKind(value)}
        data={(['problem', 'feature'] as const).map((k) => ({
          value: k,
          label: i18n._(KIND_WORDS[k]),
        }))}
        aria-label={t`Problems or features`}
        maw={320}
        data-testid="ticket-kind"
      />
      {reporting ? (
        <ReportForm
          board={board}
          kind={kind}
          onDone={(id) => {
            setReporting(false);
            if (id !== null) void navigate({ to: feedbackPaths.ticket(board, id) });
          }}
        />
      ) : null}
      <DataTable
        rows={rows}
        name={{ label: kind === 'problem' ? t`Problems` : t`Features` }}
        testId="ticket-list"
        rowKey={(x) => x.id}
        rowData={(x) => ({ 'data-testid': 'ticket-row', 'data-id': x.id })}
        loading={
          <Stack gap={8} aria-busy>
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        }
        empty={
          <EmptyState
            title={
              kind === 'problem' ? (
                <Trans>No problems reported on this board</Trans>
              ) : (
                <Trans>No feature requests on this board</Trans>
              )
            }
          />
        }
        columns={[
          {
            id: 'title',
            header: <Trans>Title</Trans>,
            rowHeader: true,
            cell: (x) => <TicketLink ticket={x} />,
          },
          {
            id: 'state',
            header: <Trans>State</Trans>,
            cell: (x) => (
              <Badge color={STATE_COLORS[x.attributes.state]} variant="light">
                {i18n._(STATE_WORDS[x.attributes.state])}
              </Badge>
            ),
          },
          kind === 'problem'
            ? {
                id: 'importance',
                header: <Trans>Importance</Trans>,
                cell: (x) => i18n._(IMPORTANCE_WORDS[x.attributes.importance]),
              }
            : {
                id: 'votes',
                header: <Trans>Votes</Trans>,
                cell: (x) => voteCounts.get(x.id) ?? 0,
              },
          kind === 'problem'
            ? {
                id: 'progress',
                header: <Trans>Progress</Trans>,
                cell: (x) => i18n._(PROGRESS_WORDS[x.attributes.progress]),
              }
            : {
                id: 'status',
                header: <Trans>Feature status</Trans>,
                cell: (x) =>
                  x.attributes.feature_status === 'selected_for_development' ? (
                    <Trans>Selected for development</Trans>
                  ) : (
                    '–'
                  ),
              },
        ]}
      />
    </Stack>
  );
}

function TicketLink({ ticket }: { readonly ticket: LocalModel<'ticket'> }) {
  return (
    <Group gap="xs">
      <Anchor
        component={Link}
        to={feedbackPaths.ticket(ticket.attributes.board, ticket.id)}
        data-testid="ticket-link"
      >
        <Name>{ticket.attributes.title}</Name>
      </Anchor>
      {ticket.pending ? (
        <Badge size="sm" color="orange" variant="light">
          <Trans>Not synced yet</Trans>
        </Badge>
      ) : null}
    </Group>
  );
}

/** The board a path is on (/app/feedback/{board}/…). */
function boardOfPath(pathname: string): TicketBoard {
  const segment = pathname.split('/')[3] ?? '';
  return (TICKET_BOARDS as readonly string[]).includes(segment)
    ? (segment as TicketBoard)
    : 'platform';
}

/** A new problem or feature request, written to the worker (the server gets it when it can). */
function ReportForm(props: {
  readonly board: TicketBoard;
  readonly kind: TicketKind;
  readonly onDone: (id: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [importance, setImportance] = useState<TicketImportance>('Medium');
  const [photo, setPhoto] = useState<File | null>(null);
  const [problems, setProblems] = useState<
    Partial<Record<'title' | 'description' | 'photo', string | undefined>>
  >({});
  const [error, took] = useWriteOutcome();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const photoWrong = photo === null ? undefined : photoProblem(i18n, photo);
    const found = {
      ...(title.trim() === '' ? { title: t`Title is required` } : {}),
      ...(description.trim() === '' ? { description: t`Description is required` } : {}),
      ...(photoWrong === undefined ? {} : { photo: photoWrong }),
    };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const answer = await syncWorker().writes.create('ticket', {
      kind: props.kind,
      board: props.board,
      title,
      description,
      ...(props.kind === 'problem' ? { importance } : {}),
    });
    if (!took(answer) || !('data' in answer)) {
      setBusy(false);
      return;
    }
    // The ticket first, then its photo (a file under it): the server takes them in this order.
    // The ticket is kept either way: a photo the worker could not keep is added on its page.
    if (photo !== null) await addTicketPhoto(answer.data.id, photo);
    setBusy(false);
    props.onDone(answer.data.id);
  };
  return (
    <Paper withBorder p="md" radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
        data-testid="ticket-form"
      >
        <Stack gap="sm">
          <Text fw={600}>
            {props.kind === 'problem' ? (
              <Trans>Report a problem</Trans>
            ) : (
              <Trans>Request a feature</Trans>
            )}
          </Text>
          <TextInput
            label={t`Title`}
            required
            maxLength={200}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={problems.title}
            data-testid="ticket-title"
          />
          <Textarea
            label={t`Description`}
            required
            autosize
            minRows={3}
            maxLength={10_000}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={problems.description}
            data-testid="ticket-description"
          />
          {props.kind === 'problem' ? (
            <Select
              label={t`Importance`}
              value={importance}
              onChange={(v) => v !== null && setImportance(v)}
              data={TICKET_IMPORTANCE.map((i) => ({
                value: i,
                label: i18n._(IMPORTANCE_WORDS[i]),
              }))}
              allowDeselect={false}
              maw={240}
              data-testid="ticket-importance"
            />
          ) : null}
          {props.kind === 'problem' ? (
            <PhotoPick
              id="ticket-form-photo"
              file={photo}
              error={problems.photo}
              onChange={(file) => {
                setPhoto(file);
                setProblems((p) => ({ ...p, photo: undefined }));
              }}
            />
          ) : null}
          {error === null ? null : (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={busy} data-testid="ticket-send">
              <Trans>Send</Trans>
            </Button>
            <Button variant="default" onClick={() => props.onDone(null)}>
              <Trans>Cancel</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
