import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * The question before a delete: what goes with it, the server's refusal if any, "Keep it" (the
 * focused, safe answer) and the red confirmation.
 */
export function ConfirmDelete(props: {
  readonly opened: boolean;
  readonly title: string;
  /** What is deleted with it, and that it cannot be undone. */
  readonly consequences: ReactNode;
  readonly consequencesTestId?: string;
  readonly error: string | null;
  readonly busy?: boolean;
  /** The deletion cannot be done now (the consequences say why): only "Keep it" is offered. */
  readonly disabled?: boolean;
  readonly confirmLabel: ReactNode;
  readonly confirmTestId?: string;
  readonly onClose: () => void;
  readonly onConfirm: () => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <Stack gap="sm">
        <Text size="sm" data-testid={props.consequencesTestId}>
          {props.consequences}
        </Text>
        {props.error === null ? null : (
          <Text c="red" size="sm" role="alert">
            {props.error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} data-autofocus>
            <Trans>Keep it</Trans>
          </Button>
          <Button
            color="red"
            loading={props.busy ?? false}
            disabled={props.disabled ?? false}
            onClick={props.onConfirm}
            data-testid={props.confirmTestId}
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
