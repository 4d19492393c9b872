import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { isolate, apiPaths, terminalAuditSchema, type TerminalAudit } from '@plant/shared-schema';
import type { RemoteUnsubscribe, TerminalMessage } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import { useLiveModel, useWorkerSubscription } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';
import { textOf } from '../devices/asset-texts';
import { DataTable } from '../../components/data-table';

/**
 * /app/gateways/{id}/terminal (spec 000 §2: tag internal): diagnostic commands to the gateway's
 * agent over the broker, and their answers, live for everyone on the page. The allowlist is the
 * server's (help lists it); every command is in the audit list below with who ran it.
 */

/** Spec 000 §3's terminal state: which gateway (key), open or not, the commands typed. */
interface TerminalState {
  readonly key: string;
  readonly isOpen: boolean;
  readonly commands: readonly string[];
  readonly modeltype: 'gateway';
}

export function TerminalPage() {
  const { id = '' }: { id?: string } = useParams({ strict: false });
  const { t, i18n } = useLingui();
  const gateway = useLiveModel('gateway', id);
  const [state, setState] = useState<TerminalState>({
    key: id,
    isOpen: true,
    commands: [],
    modeltype: 'gateway',
  });
  const [line, setLine] = useState('');
  const [historyAt, setHistoryAt] = useState<number | null>(null);
  const [answers, setAnswers] = useState<TerminalMessage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [audit, setAudit] = useState<TerminalAudit | undefined>();
  const input = useRef<HTMLInputElement>(null);

  const loadAudit = useCallback(async () => {
    const answer = await syncWorker().http.call('GET', apiPaths.terminalAudit(id), undefined, {
      quiet: true,
    });
    if ('error' in answer) return;
    const parsed = terminalAuditSchema.safeParse((answer.data as { data?: unknown } | null)?.data);
    if (parsed.success) setAudit(parsed.data);
  }, [id]);
  useEffect(() => {
    void loadAudit();
  }, [loadAudit]);

  useWorkerSubscription<TerminalMessage>(
    `terminal:${id}`,
    (callback) =>
      syncWorker().terminal.watch(id, callback) as Promise<unknown> as Promise<RemoteUnsubscribe>,
    (message) => {
      setAnswers((list) => [...list, message].slice(-200));
      void loadAudit();
    },
  );

  const send = async () => {
    const text = line.trim();
    if (text === '') return;
    setError(null);
    const result = await syncWorker().terminal.send(id, text);
    if ('error' in result) {
      setError(callErrorText(result.error));
      return;
    }
    setState((s) => ({ ...s, commands: [...s.commands, text].slice(-50) }));
    setLine('');
    setHistoryAt(null);
  };

  const recall = (step: -1 | 1) => {
    const { commands } = state;
    if (commands.length === 0) return;
    const at = Math.min(commands.length, Math.max(0, (historyAt ?? commands.length) + step));
    setHistoryAt(at);
    setLine(commands[at] ?? '');
  };

  // Isolated: the name is inside the heading's text.
  const name = gateway.name === 'found' ? isolate(textOf(gateway.model.attributes, 'name')) : '';
  const online = gateway.name === 'found' && gateway.model.attributes.connection === 'online';

  return (
    <Stack gap="md" data-testid="terminal-page">
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Terminal of {name}</Trans>
        </Title>
        <Badge variant="dot" color={online ? 'green' : 'gray'}>
          {online ? <Trans>Online</Trans> : <Trans>Offline</Trans>}
        </Badge>
      </Group>
      {!online && gateway.name === 'found' ? (
        <Alert color="yellow">
          <Trans>The gateway is offline: commands are answered once it is back.</Trans>
        </Alert>
      ) : null}
      <Paper withBorder radius="sm" p="sm" bg="dark.8">
        <ScrollArea h={320} type="auto">
          <div
            role="log"
            aria-live="polite"
            aria-label={t`Terminal output`}
            data-testid="terminal-output"
          >
            {answers.length === 0 ? (
              <Text c="gray.5" size="sm">
                <Trans>Type help for the commands.</Trans>
              </Text>
            ) : null}
            {answers.map((a) => (
              <div key={`${a.id}-${a.at}`} data-testid="terminal-answer" data-ok={a.ok}>
                <Text c="gray.4" size="xs" ff="monospace">
                  {`> ${a.line}`} · {a.user} · {i18n.date(new Date(a.at), { timeStyle: 'medium' })}
                </Text>
                <Code
                  block
                  color={a.ok ? 'dark.7' : 'red.9'}
                  c={a.ok ? 'gray.1' : 'red.1'}
                  mb="xs"
                  data-testid="terminal-answer-output"
                >
                  {a.ok ? a.output : translateServerText(i18n, a.output)}
                </Code>
              </div>
            ))}
          </div>
        </ScrollArea>
      </Paper>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <Group gap="xs" align="flex-end">
          <TextInput
            ref={input}
            label={t`Command`}
            value={line}
            onChange={(e) => setLine(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowUp') {
                e.preventDefault();
                recall(-1);
              } else if (e.key === 'ArrowDown') {
                e.preventDefault();
                recall(1);
              }
            }}
            ff="monospace"
            style={{ flex: 1 }}
            autoComplete="off"
            data-testid="terminal-input"
            error={error ?? undefined}
          />
          <Button type="submit">
            <Trans>Send</Trans>
          </Button>
        </Group>
      </form>
      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>Commands run on this gateway</Trans>
        </Title>
        <DataTable
          rows={audit}
          columns={[
            {
              id: 'time',
              header: t`Time`,
              cell: (row) =>
                i18n.date(new Date(row.at), { dateStyle: 'short', timeStyle: 'medium' }),
            },
            { id: 'user', header: t`User`, cell: (row) => row.user },
            {
              id: 'command',
              header: t`Command`,
              cellProps: { ff: 'monospace' },
              cell: (row) => row.line,
            },
            {
              id: 'result',
              header: t`Result`,
              cell: (row) =>
                row.ok === null ? (
                  <Trans>Waiting</Trans>
                ) : row.ok ? (
                  <Trans>Answered</Trans>
                ) : (
                  <Trans>Refused or failed</Trans>
                ),
            },
          ]}
          rowKey={(row) => row.id}
          rowData={() => ({ 'data-testid': 'terminal-audit-row' })}
          name={{ label: t`Commands run on this gateway` }}
          look={{ striped: true }}
          testId="terminal-audit"
          empty={
            <Text c="dimmed" size="sm">
              <Trans>No commands yet.</Trans>
            </Text>
          }
        />
      </Stack>
    </Stack>
  );
}
