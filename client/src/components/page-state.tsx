import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import type { z } from 'zod';
import type { Result } from '@plant/sync-worker/api';
import { callErrorText, translateServerText } from '../i18n/server-texts';
import { syncStatusAtom } from '../sync/status';
import {
  firstIssuePerField,
  serverFieldErrors,
  translatedErrors,
  type FieldErrors,
} from '../features/user/form-errors';

/**
 * How a success is confirmed: `write`, a write of the synced models ("Saved." when connected, else
 * that it waits on this device, until it has been sent), `call`, a call the server answered
 * ("Saved."), or none.
 */
export type SavedKind = 'write' | 'call' | 'none';

/** What {@link usePageState} gives an admin page. */
export interface PageState<F extends string> {
  /** The messages on the page's fields, translated. */
  readonly fields: FieldErrors<F>;
  /** The page's one message (what failed and is not a field's), translated, or null. */
  readonly error: string | null;
  /** The confirmation of the last success ("Saved."), or null. */
  readonly saved: string | null;
  /**
   * A shared schema's parse: its data, or null after showing its messages (on the fields that
   * have them, else its first as the page's message). Clears the confirmation.
   */
  readonly check: <T>(parsed: z.ZodSafeParseResult<T>) => T | null;
  /**
   * Whether a write or call succeeded. A failure is shown on the fields the server named, else as
   * the page's message (the first field's message or the error's); a success clears the messages
   * and confirms as `saved` says.
   */
  readonly took: (answer: Result<unknown>, saved?: SavedKind) => boolean;
  /** Shows a text of the page's own (already in the user's language) as the page's message. */
  readonly fail: (text: string) => void;
  /** Forgets the messages and the confirmation. */
  readonly clear: () => void;
}

/**
 * The admin pages' messages in one place: field errors, the page's error and the 'Saved.'
 * confirmation, each from a shared schema's check or a worker answer and translated alike.
 */
export function usePageState<F extends string = never>(
  formFields: readonly F[] = [],
): PageState<F> {
  const { t, i18n } = useLingui();
  const status = useAtomValue(syncStatusAtom);
  const online = status.connection.name === 'connected';
  const [fields, setFields] = useState<FieldErrors<F>>({});
  const [error, setError] = useState<string | null>(null);
  // What was confirmed: 'waiting', a write made offline, says so until the server has it (the
  // failed writes counted then: one refused since is no 'Saved.', the sync indicator shows it).
  type Confirmed =
    { readonly kind: 'saved' } | { readonly kind: 'waiting'; readonly failed: number };
  const [confirmed, setSaved] = useState<Confirmed | null>(null);
  const translate = (text: string) => translateServerText(i18n, text);
  const show = (onFields: FieldErrors<F>, otherwise: string) => {
    const any = Object.keys(onFields).length > 0;
    setFields(translatedErrors(onFields, translate));
    setError(any ? null : translate(otherwise));
  };
  const confirmation = (kind: SavedKind): Confirmed | null =>
    kind === 'none'
      ? null
      : kind === 'call' || online
        ? { kind: 'saved' }
        : { kind: 'waiting', failed: status.failedWrites };
  // A write made offline is 'Saved.' once back online with nothing left to send or refused.
  const landed =
    confirmed?.kind === 'waiting' &&
    online &&
    status.pendingWrites === 0 &&
    status.failedWrites <= confirmed.failed;
  return {
    fields,
    error,
    saved:
      confirmed === null
        ? null
        : confirmed.kind === 'saved' || landed
          ? t`Saved.`
          : t`Saved on this device: it goes to the server once online.`,
    check: (parsed) => {
      setSaved(null);
      if (parsed.success) return parsed.data;
      const issues = parsed.error.issues;
      show(
        firstIssuePerField(issues, formFields),
        issues[0]?.message ?? 'The given data was invalid.',
      );
      return null;
    },
    took: (answer, kind = 'none') => {
      if ('error' in answer) {
        setSaved(null);
        const first = Object.values(answer.error.fields ?? {})[0]?.[0];
        show(
          serverFieldErrors(answer.error.fields, formFields),
          first ?? callErrorText(answer.error),
        );
        return false;
      }
      setFields({});
      setError(null);
      setSaved(confirmation(kind));
      return true;
    },
    fail: (text) => {
      setSaved(null);
      setError(text);
    },
    clear: () => {
      setFields({});
      setError(null);
      setSaved(null);
    },
  };
}

/** The page's message, a red alert (closable when `onClose` is given). */
export function PageError(props: { readonly error: string | null; readonly onClose?: () => void }) {
  if (props.error === null) return null;
  return props.onClose === undefined ? (
    <Alert color="red" role="alert">
      {props.error}
    </Alert>
  ) : (
    <Alert color="red" role="alert" withCloseButton onClose={props.onClose}>
      {props.error}
    </Alert>
  );
}

/** The confirmation, a live region that is always there (screen readers hear it change). */
export function SavedNote(props: { readonly saved: string | null }) {
  return (
    <Text role="status" size="sm" c="green">
      {props.saved}
    </Text>
  );
}

/** What a page loads from the server before it shows: loading, failed (translated), or loaded. */
export type Loaded<T> =
  | { readonly name: 'loading' }
  | { readonly name: 'failed'; readonly error: string }
  | { readonly name: 'loaded'; readonly data: T };

/**
 * Loads once per `key` (and again when it changes); `replace` puts what a save answered in its
 * place. An answer that comes after the key changed is dropped.
 */
export function useLoaded<T>(
  key: string,
  load: () => Promise<Result<T>>,
): [Loaded<T>, (data: T) => void] {
  const { i18n } = useLingui();
  const [state, setState] = useState<Loaded<T>>({ name: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ name: 'loading' });
    void load().then((answer) => {
      if (!live) return;
      setState(
        'error' in answer
          ? { name: 'failed', error: translateServerText(i18n, callErrorText(answer.error)) }
          : { name: 'loaded', data: answer.data },
      );
    });
    return () => {
      live = false;
    };
    // The key says what is loaded; `load` is a new function on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return [state, (data) => setState({ name: 'loaded', data })];
}

/** A page while it loads ("Loading…"), or what failed. */
export function LoadState(props: { readonly state: Loaded<unknown> }) {
  return props.state.name === 'failed' ? (
    <Alert color="red">{props.state.error}</Alert>
  ) : (
    <Text c="dimmed">
      <Trans>Loading…</Trans>
    </Text>
  );
}
