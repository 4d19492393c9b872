import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Alert, Button, Group, Stack } from '@mantine/core';

/**
 * The frame of a form in a modal (the asset form, a template's "create an asset", "save as
 * layout", the token and client dialogs): the browser's own validation off (the shared schemas check), the fields, the form's
 * one message, then Cancel and the submit button.
 */
export function ModalForm(props: {
  readonly testId?: string;
  /** Above the fields (a dialog's problem with the server). */
  readonly above?: ReactNode;
  readonly onSubmit: () => Promise<void>;
  readonly onCancel: () => void;
  readonly submitLabel: ReactNode;
  /** What failed that is no field's, translated. */
  readonly error: string | null | undefined;
  readonly busy?: boolean;
  readonly disabled?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
      data-testid={props.testId}
    >
      <Stack gap="sm">
        {props.above}
        {props.children}
        {props.error === null || props.error === undefined ? null : (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" loading={props.busy ?? false} disabled={props.disabled ?? false}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
