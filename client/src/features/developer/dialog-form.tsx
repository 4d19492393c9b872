import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, CopyButton, Group } from '@mantine/core';
import { ModalForm } from '../../components/modal-form';
import type { z } from 'zod';
import type { WorkerError } from '@plant/sync-worker/api';
import { dialogProblem, type DialogProblem } from './developer-rules';
import { ProblemAlert, translateOAuthText } from './developer-texts';
import { firstIssuePerField, type FieldErrors } from '../user/form-errors';

/** A worker call's answer, as the developer API hands it back. */
type Answer<T> = { readonly data: T } | { readonly error: WorkerError };

/** What {@link useDialogForm} gives a dialog's form. */
export interface DialogFormState<F extends string> {
  /** A field's message in the chosen language, for its input's `error`. */
  readonly error: (field: F) => string | undefined;
  /**
   * The data of a parse that succeeded, or null after showing each field's first problem (plus
   * `extra`, the form's own checks, which also stop the call).
   */
  readonly check: <T>(parsed: z.ZodSafeParseResult<T>, extra?: FieldErrors<F>) => T | null;
  /** Makes the call with the button busy; a failed one shows its problem above the fields. */
  readonly send: <T>(call: () => Promise<Answer<T>>, done: (data: T) => void) => Promise<void>;
  readonly problem: DialogProblem | null;
  readonly busy: boolean;
}

/**
 * Submit and field errors of a token or client dialog (spec 000 §5): the shared schema checks the
 * fields before any call (first message per field), the server's refusal is one problem above the
 * fields, and the submit button is busy while the call runs.
 */
export function useDialogForm<F extends string>(fields: readonly F[]): DialogFormState<F> {
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [problem, setProblem] = useState<DialogProblem | null>(null);
  const [busy, setBusy] = useState(false);
  return {
    error: (field) => {
      const text = errors[field];
      return text === undefined ? undefined : translateOAuthText(i18n, text);
    },
    check: (parsed, extra = {}) => {
      setProblem(null);
      const found = parsed.success ? {} : firstIssuePerField(parsed.error.issues, fields);
      setErrors({ ...found, ...extra });
      return parsed.success && Object.keys(extra).length === 0 ? parsed.data : null;
    },
    send: async (call, done) => {
      setBusy(true);
      const answer = await call();
      setBusy(false);
      if ('error' in answer) setProblem(dialogProblem(answer.error));
      else done(answer.data);
    },
    problem,
    busy,
  };
}

/** A dialog's form: its problem, its fields, then Cancel and the submit button. */
export function DialogForm(props: {
  readonly state: Pick<DialogFormState<never>, 'problem' | 'busy'>;
  readonly submit: () => void | Promise<void>;
  readonly close: () => void;
  readonly submitLabel: ReactNode;
  readonly children: ReactNode;
}) {
  return (
    <ModalForm
      onSubmit={async () => props.submit()}
      onCancel={props.close}
      submitLabel={props.submitLabel}
      error={null}
      busy={props.state.busy}
      above={<ProblemAlert problem={props.state.problem} />}
    >
      {props.children}
    </ModalForm>
  );
}

/** Above a secret shown this once: it will not be shown again. */
export function ShownOnceAlert(props: { readonly children: ReactNode }) {
  const { t } = useLingui();
  return (
    <Alert color="yellow" title={t`This is the only time it will be shown`}>
      {props.children}
    </Alert>
  );
}

/** Under a secret shown this once: Copy (when there is one) and Close. */
export function SecretButtons(props: {
  readonly secret: string | null;
  readonly copyLabel: string;
  readonly close: () => void;
}) {
  const { t } = useLingui();
  return (
    <Group justify="flex-end">
      {props.secret === null ? null : (
        <CopyButton value={props.secret}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t`Copied` : props.copyLabel}
            </Button>
          )}
        </CopyButton>
      )}
      <Button onClick={props.close}>
        <Trans>Close</Trans>
      </Button>
    </Group>
  );
}
