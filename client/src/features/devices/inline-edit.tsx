import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import type { I18n } from '@lingui/core';
import type { z } from 'zod';
import { translateServerText } from '../../i18n/server-texts';

export type Validation = { readonly value: string } | { readonly error: string };

/**
 * A field's check by its shared schema (the worker and the server apply the same), its message
 * translated: an inline edit's `validate`.
 */
export function schemaValidator(
  i18n: I18n,
  schema: z.ZodType<string>,
): (draft: string) => Validation {
  return (draft) => {
    const parsed = schema.safeParse(draft);
    if (parsed.success) return { value: parsed.data };
    return { error: translateServerText(i18n, parsed.error.issues[0]?.message ?? '') };
  };
}

export interface InlineEditProps {
  /** The field's name as the user reads it ("Name"): the input's and the button's label. */
  readonly label: string;
  /** The value as it is now (live: the local store's, pending writes included). */
  readonly value: string;
  readonly multiline?: boolean;
  readonly canEdit: boolean;
  /** Checks a draft before anything is sent; answers the value to save or the message. */
  readonly validate: (draft: string) => Validation;
  /** Saves; answers null, or a message when the change was not accepted. */
  readonly save: (value: string) => Promise<string | null>;
  /** How the value looks when not being edited. */
  readonly children: ReactNode;
  readonly testId: string;
}

type Mode =
  | { readonly name: 'view' }
  | { readonly name: 'edit'; readonly draft: string; readonly error: string | null };

/**
 * A value edited in place: the edit button (or a click on the value) turns it into an input;
 * Enter or leaving the field saves, Escape cancels. A draft is checked with the shared schema
 * before it is sent. Afterwards the field shows the live value again, so a change the server
 * refuses (rolled back by the worker) shows the server's state on its own.
 */
export function InlineEdit(props: InlineEditProps) {
  const { label, value, multiline = false, canEdit, validate, save, testId } = props;
  const { t } = useLingui();
  const [mode, setMode] = useState<Mode>({ name: 'view' });
  const busy = useRef(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  // Set once the edit ended (Escape, or saved): the input's blur on its way out saves nothing.
  const ended = useRef(false);

  useEffect(() => {
    if (mode.name === 'view' && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [mode.name]);

  const start = () => {
    if (!canEdit) return;
    ended.current = false;
    setMode({ name: 'edit', draft: value, error: null });
  };
  const cancel = (byKeyboard: boolean) => {
    ended.current = true;
    returnFocus.current = byKeyboard;
    setMode({ name: 'view' });
  };
  const commit = async (draft: string, byKeyboard: boolean) => {
    if (busy.current || ended.current) return;
    const checked = validate(draft);
    if ('error' in checked) {
      setMode({ name: 'edit', draft, error: checked.error });
      return;
    }
    if (checked.value === value) {
      cancel(byKeyboard);
      return;
    }
    busy.current = true;
    const problem = await save(checked.value);
    busy.current = false;
    if (problem !== null) {
      setMode({ name: 'edit', draft, error: problem });
      return;
    }
    ended.current = true;
    returnFocus.current = byKeyboard;
    setMode({ name: 'view' });
  };

  if (mode.name === 'view') {
    return (
      <Group gap={4} wrap="nowrap" align="center" data-testid={testId}>
        {/* A plain element, not a button: a button would hide the value's own meaning (the page's
            heading) from screen readers. The click is a shortcut for the pointer; the edit button
            next to it is the way for the keyboard and assistive technology. */}
        <div
          onClick={canEdit ? start : undefined}
          style={{ cursor: canEdit ? 'text' : undefined, minWidth: 0 }}
          data-testid={`${testId}-value`}
        >
          {props.children}
        </div>
        {canEdit ? (
          <Tooltip label={t`Edit ${label}`}>
            <ActionIcon
              ref={editButton}
              variant="subtle"
              color="gray"
              aria-label={t`Edit ${label}`}
              onClick={start}
              data-testid={`${testId}-edit`}
            >
              <PencilIcon />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    );
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      cancel(true);
    } else if (event.key === 'Enter' && !(multiline && event.shiftKey)) {
      event.preventDefault();
      void commit(event.currentTarget.value, true);
    }
  };
  const field = {
    // The field's visible label is the page's (the title, or the list's term).
    'aria-label': label,
    value: mode.draft,
    error: mode.error,
    autoFocus: true,
    onChange: (event: { currentTarget: { value: string } }) =>
      setMode({ name: 'edit', draft: event.currentTarget.value, error: null }),
    onKeyDown,
    onBlur: (event: { currentTarget: { value: string } }) => {
      void commit(event.currentTarget.value, false);
    },
    description: multiline ? (
      <Trans>Enter saves, Shift+Enter starts a new line, Escape cancels.</Trans>
    ) : (
      <Trans>Enter saves, Escape cancels.</Trans>
    ),
    'data-testid': `${testId}-input`,
  };
  return (
    <div data-testid={testId}>
      {multiline ? (
        <Textarea {...field} autosize minRows={2} maxRows={12} maxLength={5000} />
      ) : (
        <TextInput {...field} />
      )}
    </div>
  );
}

/** A static text value in the page's reading style; an empty one says so. */
export function ValueText({ value, empty }: { readonly value: string; readonly empty: ReactNode }) {
  return value === '' ? (
    <Text c="dimmed" fs="italic">
      {empty}
    </Text>
  ) : (
    <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{value}</Text>
  );
}

function PencilIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d="M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4" />
      <path d="M13.5 6.5l4 4" />
    </svg>
  );
}
