import './catalogues';
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import {
  mayChangeTicketField,
  personName,
  TICKET_PROGRESS,
  ticketMovesFrom,
  ticketRolesOf,
  type TicketAttributes,
  type TicketMove,
  type TicketProgress,
  type TicketRole,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { EmptyState } from '../../components/empty-state';
import { Name } from '../../components/name';
import { useCan } from '../../permissions/permissions';
import { sessionAtom } from '../../state/session';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { useWriteOutcome } from '../../sync/write-outcome';
import {
  ACTION_WORDS,
  BOARD_WORDS,
  IMPORTANCE_WORDS,
  PROGRESS_WORDS,
  STATE_COLORS,
  STATE_WORDS,
} from './feedback-texts';
import { feedbackPaths } from './paths';
import { TicketPhotos } from './ticket-photo';

/**
 * /app/feedback/{board}/{ticketid}: one problem or feature request, live: its report, the answer
 * its reporter was given, its progress, the moves the shared table allows this user (and only
 * those), its messages and its votes. Everything is written to the worker first.
 */
export function TicketPage() {
  const { ticketid = '' }: { ticketid?: string } = useParams({ strict: false });
  const state = useLiveModel('ticket', ticketid);
  if (state.name === 'loading') return null;
  if (state.name === 'missing')
    return <EmptyState title={<Trans>This ticket does not exist (any more).</Trans>} />;
  return <TicketView ticket={state.model} />;
}

function TicketView({ ticket }: { readonly ticket: LocalModel<'ticket'> }) {
  const { i18n } = useLingui();
  const can = useCan();
  const userId = useAtomValue(sessionAtom)?.user.id ?? null;
  // A ticket made here and not yet synced is this user's report (the server stamps it so).
  const a =
    ticket.pending && ticket.attributes.reported_by === null
      ? { ...ticket.attributes, reported_by: userId }
      : ticket.attributes;
  const roles = ticketRolesOf(a, userId, can);
  // The account's members (the assignee's choices, the messages' authors), read once.
  const members = useLiveQuery({ type: 'user', limit: 1000 })?.items;
  const [error, took] = useWriteOutcome();
  const update = async (change: Partial<TicketAttributes>) =>
    took(await syncWorker().writes.update('ticket', ticket.id, change));
  return (
    <Stack gap="md" data-testid="ticket-page" maw={900}>
      <Anchor component={Link} to={feedbackPaths.board(a.board)} size="sm">
        {i18n._(BOARD_WORDS[a.board])}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Title order={1}>
          <Name testId="ticket-heading">{a.title}</Name>
        </Title>
        <Group gap="xs">
          <Badge color={STATE_COLORS[a.state]} variant="light" size="lg" data-testid="ticket-state">
            {i18n._(STATE_WORDS[a.state])}
          </Badge>
          {a.kind === 'problem' ? (
            <Badge variant="outline">{i18n._(IMPORTANCE_WORDS[a.importance])}</Badge>
          ) : null}
          {a.technical ? (
            <Badge color="grape" variant="light">
              <Trans>Technical problem</Trans>
            </Badge>
          ) : null}
          {a.forwarded_to !== null ? (
            <Badge color="grape" variant="outline" data-testid="ticket-forwarded">
              <Trans>Forwarded to the development team</Trans>
            </Badge>
          ) : null}
          {a.forwarded_from !== null ? (
            <Badge color="grape" variant="outline">
              <Trans>From a customer’s account</Trans>
            </Badge>
          ) : null}
          {ticket.pending ? (
            <Badge color="orange" variant="light">
              <Trans>Not synced yet</Trans>
            </Badge>
          ) : null}
        </Group>
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="ticket-description">
        {a.description}
      </Text>
      <TicketPhotos
        ticketId={ticket.id}
        title={a.title}
        mayAdd={roles.has('admin') || (roles.has('reporter') && a.state === 'new')}
      />
      {a.answer !== '' ? (
        <Alert
          color={a.state === 'declined' ? 'red' : 'teal'}
          variant="light"
          title={a.state === 'declined' ? <Trans>Declined</Trans> : <Trans>Answer</Trans>}
          data-testid="ticket-answer"
        >
          <Text style={{ whiteSpace: 'pre-wrap' }}>{a.answer}</Text>
        </Alert>
      ) : null}
      {a.kind === 'problem' ? (
        <Progress ticket={a} roles={roles} onChange={(progress) => void update({ progress })} />
      ) : (
        <FeatureStatus ticket={ticket} mayChange={roles.has('admin')} onChange={update} />
      )}
      <Moves ticket={a} roles={roles} userId={userId} members={members} onMove={update} />
      {roles.has('admin') && a.kind === 'problem' ? (
        <Checkbox
          label={<Trans>Technical problem: forward it to the development team</Trans>}
          checked={a.technical}
          onChange={(e) => void update({ technical: e.currentTarget.checked })}
          data-testid="ticket-technical"
        />
      ) : null}
      {error === null ? null : (
        <Alert color="red" variant="light" role="alert" data-testid="ticket-error">
          {error}
        </Alert>
      )}
      <Messages ticketId={ticket.id} members={members} />
    </Stack>
  );
}

function Progress(props: {
  readonly ticket: TicketAttributes;
  readonly roles: ReadonlySet<TicketRole>;
  readonly onChange: (progress: TicketProgress) => void;
}) {
  const { t, i18n } = useLingui();
  const { ticket } = props;
  const may = mayChangeTicketField('progress', ticket.state, props.roles);
  if (!may)
    return (
      <Text data-testid="ticket-progress">
        <Trans>Progress:</Trans> {i18n._(PROGRESS_WORDS[ticket.progress])}
      </Text>
    );
  return (
    <Select
      label={t`Progress`}
      value={ticket.progress}
      onChange={(v) => v !== null && v !== ticket.progress && props.onChange(v)}
      data={TICKET_PROGRESS.map((p) => ({ value: p, label: i18n._(PROGRESS_WORDS[p]) }))}
      allowDeselect={false}
      maw={420}
      data-testid="ticket-progress-select"
    />
  );
}

function FeatureStatus(props: {
  readonly ticket: LocalModel<'ticket'>;
  readonly mayChange: boolean;
  readonly onChange: (change: Partial<TicketAttributes>) => Promise<boolean>;
}) {
  const userId = useAtomValue(sessionAtom)?.user.id ?? null;
  const votes = useLiveQuery({
    type: 'ticket_vote',
    parent: { type: 'ticket', id: props.ticket.id },
    limit: 1000,
  });
  const [error, took] = useWriteOutcome();
  const mine = votes?.items.find((v) => v.attributes.user_id === userId);
  const selected = props.ticket.attributes.feature_status === 'selected_for_development';
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Text data-testid="ticket-votes">
          <Trans>Votes: {votes?.items.length ?? 0}</Trans>
        </Text>
        <Button
          size="xs"
          variant={mine === undefined ? 'filled' : 'default'}
          onClick={() => {
            const writes = syncWorker().writes;
            void (
              mine === undefined
                ? writes.create('ticket_vote', { ticket_id: props.ticket.id })
                : writes.remove('ticket_vote', mine.id)
            ).then(took);
          }}
          data-testid="ticket-vote"
        >
          {mine === undefined ? <Trans>Vote for it</Trans> : <Trans>Take my vote back</Trans>}
        </Button>
        {selected ? (
          <Badge color="green" data-testid="feature-selected">
            <Trans>Selected for development</Trans>
          </Badge>
        ) : null}
      </Group>
      {props.mayChange ? (
        <Checkbox
          label={<Trans>Selected for development</Trans>}
          checked={selected}
          onChange={(e) =>
            void props.onChange({
              feature_status: e.currentTarget.checked ? 'selected_for_development' : null,
            })
          }
        />
      ) : null}
      {error === null ? null : (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

/** The table's moves this user may make from the ticket's state, with what each needs. */
function Moves(props: {
  readonly ticket: TicketAttributes;
  readonly roles: ReadonlySet<TicketRole>;
  readonly userId: string | null;
  readonly members: readonly LocalModel<'user'>[] | undefined;
  readonly onMove: (change: Partial<TicketAttributes>) => Promise<boolean>;
}) {
  const { t, i18n } = useLingui();
  const moves = ticketMovesFrom(props.ticket.state, props.roles);
  const [answer, setAnswer] = useState('');
  const [assignee, setAssignee] = useState<string | null>(props.userId);
  const [missing, setMissing] = useState<string | null>(null);
  if (moves.length === 0) return null;
  const needsAnswer = moves.some((m) => m.needs === 'answer');
  const needsAssignee = moves.some(
    (m) => m.needs === 'assignee' && props.ticket.assigned_to === null,
  );
  const people = (props.members ?? []).map((m) => ({
    value: m.id,
    label: personName(m.attributes),
  }));
  if (props.userId !== null && !people.some((p) => p.value === props.userId))
    people.unshift({ value: props.userId, label: t`Me` });
  const move = async (m: TicketMove) => {
    const change: Partial<TicketAttributes> = { state: m.to };
    if (m.needs === 'answer') {
      if (answer.trim() === '') {
        setMissing(t`An answer to the reporter is required.`);
        return;
      }
      change.answer = answer;
    }
    if (m.needs === 'assignee' && props.ticket.assigned_to === null) {
      if (assignee === null) {
        setMissing(t`Choose who it is assigned to.`);
        return;
      }
      change.assigned_to = assignee;
    }
    if (m.needs === 'no_assignee' && props.ticket.assigned_to !== null) change.assigned_to = null;
    setMissing(null);
    if (await props.onMove(change)) setAnswer('');
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="ticket-moves">
      <Stack gap="sm">
        {needsAnswer ? (
          <Textarea
            label={t`Answer to the reporter`}
            autosize
            minRows={2}
            maxLength={10_000}
            value={answer}
            onChange={(e) => setAnswer(e.currentTarget.value)}
            data-testid="ticket-answer-input"
          />
        ) : null}
        {needsAssignee ? (
          <Select
            label={t`Assign to`}
            value={assignee}
            onChange={setAssignee}
            data={people}
            searchable
            maw={320}
            data-testid="ticket-assignee"
          />
        ) : null}
        {missing === null ? null : (
          <Text c="red" size="sm" role="alert">
            {missing}
          </Text>
        )}
        <Group gap="xs">
          {moves.map((m) => (
            <Button
              key={`${m.from}-${m.to}`}
              variant={m.to === 'declined' ? 'light' : 'filled'}
              {...(m.to === 'declined' ? { color: 'red' } : {})}
              onClick={() => void move(m)}
              data-testid={`move-${m.to}`}
            >
              {i18n._(ACTION_WORDS[m.action])}
            </Button>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

function Messages({
  ticketId,
  members,
}: {
  readonly ticketId: string;
  readonly members: readonly LocalModel<'user'>[] | undefined;
}) {
  const { t } = useLingui();
  const messages = useLiveQuery({
    type: 'ticket_message',
    parent: { type: 'ticket', id: ticketId },
    limit: 1000,
  });
  const [text, setText] = useState('');
  const [error, took] = useWriteOutcome();
  const nameOf = (id: string | null) => {
    const m = members?.find((x) => x.id === id);
    return m === undefined ? null : `${m.attributes.firstname} ${m.attributes.lastname}`.trim();
  };
  const send = async () => {
    if (text.trim() === '') return;
    if (took(await syncWorker().writes.create('ticket_message', { ticket_id: ticketId, text })))
      setText('');
  };
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        <Trans>Messages</Trans>
      </Title>
      {(messages?.items ?? []).length === 0 ? (
        <Text c="dimmed" size="sm">
          <Trans>No messages yet.</Trans>
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0 }}>
          {(messages?.items ?? []).map((m) => (
            <Paper key={m.id} component="li" withBorder p="sm" data-testid="ticket-message">
              <Text size="xs" c="dimmed">
                {nameOf(m.attributes.author_id) ?? <Trans>A member</Trans>}
                {m.attributes.at === null
                  ? null
                  : ` · ${new Date(m.attributes.at).toLocaleString()}`}
              </Text>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{m.attributes.text}</Text>
            </Paper>
          ))}
        </Stack>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <Stack gap="xs">
          <Textarea
            label={t`Write a message`}
            autosize
            minRows={2}
            maxLength={4000}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            data-testid="ticket-message-input"
          />
          {error === null ? null : (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group>
            <Button type="submit" disabled={text.trim() === ''} data-testid="ticket-message-send">
              <Trans>Send</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
