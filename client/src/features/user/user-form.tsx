import { useId, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Stack, TextInput, Title } from '@mantine/core';
import { ERROR_TEXTS } from '@plant/shared-schema';
import type { FieldProps } from './use-form';
import { useMounted } from './use-mounted';

export interface Submit {
  readonly busy: boolean;
  /** The failure to show (a text of the server or a shared schema), null when none. */
  readonly error: string | null;
  readonly setError: (error: string | null) => void;
  /** Checks, then sends once at a time; ignored while a send runs or the check fails. */
  readonly submit: () => Promise<void>;
}

/**
 * One send of a user-area form: `check` gives the values (or null, its messages shown), `send`
 * does the work and answers the failure to show, or null. Busy while it runs; a throw is 'An
 * unknown error occured.'; nothing is set once the screen is gone.
 */
export function useSubmit<T>(
  check: () => T | null,
  send: (data: T) => Promise<string | null>,
): Submit {
  const mounted = useMounted();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (busy) return;
    const data = check();
    if (data === null) return;
    setBusy(true);
    setError(null);
    let failure: string | null;
    try {
      failure = await send(data);
    } catch {
      failure = ERROR_TEXTS.unknown;
    }
    if (!mounted.current) return;
    setBusy(false);
    setError(failure);
  };
  return { busy, error, setError, submit };
}

/**
 * The frame of a user-area form: the browser's own validation off (the shared schemas check,
 * with their messages on the fields), named by its heading, busy while it sends.
 */
export function UserForm({
  title,
  busy,
  onSubmit,
  children,
}: {
  readonly title: ReactNode;
  readonly busy: boolean;
  readonly onSubmit: () => Promise<void>;
  readonly children: ReactNode;
}) {
  const titleId = useId();
  return (
    <form
      noValidate
      aria-labelledby={titleId}
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <Stack gap="md">
        <Title order={1} size="h2" id={titleId}>
          {title}
        </Title>
        {children}
      </Stack>
    </form>
  );
}

/** The e-mail field of the user forms, as browsers and password managers expect it. */
export function EmailInput({
  autoComplete,
  ...field
}: FieldProps & { readonly autoComplete: 'username' | 'email' }) {
  const { t } = useLingui();
  return (
    <TextInput
      {...field}
      label={t`Email`}
      type="email"
      inputMode="email"
      autoComplete={autoComplete}
      autoCapitalize="none"
      spellCheck={false}
      required
    />
  );
}
