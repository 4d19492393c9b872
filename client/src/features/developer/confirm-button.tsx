import { useState, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Result } from '@plant/sync-worker/api';
import { dialogProblem, type DialogProblem } from './developer-rules';
import { ProblemAlert } from './developer-texts';

/**
 * A red action that asks first (revoke, delete): the dialog says what happens, and a failure
 * stays in the dialog (spec 000 §5). `done` runs once the action succeeded.
 */
export function ConfirmButton(props: {
  readonly label: string;
  /** The button's accessible name when `label` alone does not say which row it acts on. */
  readonly ariaLabel?: string;
  readonly title: string;
  readonly children: ReactNode;
  readonly confirm: string;
  readonly action: () => Promise<Result<unknown>>;
  readonly done: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<DialogProblem | null>(null);

  const run = async () => {
    setBusy(true);
    const answer = await props.action();
    setBusy(false);
    if ('error' in answer) {
      setProblem(dialogProblem(answer.error));
      return;
    }
    setOpen(false);
    props.done();
  };

  return (
    <>
      <Button
        size="xs"
        variant="light"
        color="red"
        onClick={() => {
          setProblem(null);
          setOpen(true);
        }}
        aria-label={props.ariaLabel}
      >
        {props.label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.title}>
        <Stack gap="sm">
          <Text size="sm">{props.children}</Text>
          <ProblemAlert problem={problem} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button color="red" loading={busy} onClick={() => void run()}>
              {props.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
