import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import type { OpenApiParameter } from '@plant/shared-schema';
import { callErrorText, translateServerText } from '../../i18n/server-texts';
import classes from './api-reference.module.css';
import { referenceApi, type TryAnswer, type TryToken } from './reference-api';
import { filledPath } from './try-path';

/** What a sent call came to: its answer, or no answer at all (offline). */
type Outcome =
  | { readonly name: 'idle' }
  | { readonly name: 'sending' }
  | { readonly name: 'answered'; readonly path: string; readonly answer: TryAnswer }
  | { readonly name: 'failed'; readonly message: string };

/** A larger answer is cut here on screen (a year of values can be megabytes). */
const SHOWN_CHARS = 100_000;

/**
 * "Try it" for one GET route: its path and query parameters as fields, sent with the token the
 * page's token choice says; the status and the JSON answer shown as they came.
 */
export function TryIt({
  path,
  parameters,
  token,
}: {
  readonly path: string;
  readonly parameters: readonly OpenApiParameter[];
  readonly token: TryToken | undefined;
}) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<readonly string[]>([]);
  const [outcome, setOutcome] = useState<Outcome>({ name: 'idle' });
  /** How many calls came back (the tests wait for the next one). */
  const [answers, setAnswers] = useState(0);
  const resultId = useId();
  const of = (where: 'path' | 'query') =>
    Object.fromEntries(
      parameters
        .filter((p) => p.in === where)
        .map((p) => [p.name, values[`${where}:${p.name}`] ?? '']),
    );

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (token === undefined) return;
    const filled = filledPath(path, of('path'), of('query'));
    if ('missing' in filled) {
      setMissing(filled.missing);
      return;
    }
    setMissing([]);
    setOutcome({ name: 'sending' });
    const result = await referenceApi.tryGet(filled.path, token);
    setOutcome(
      'error' in result
        ? { name: 'failed', message: translateServerText(i18n, callErrorText(result.error)) }
        : { name: 'answered', path: filled.path, answer: result.data },
    );
    setAnswers((n) => n + 1);
  };

  return (
    <Stack gap="xs" component="form" onSubmit={(e) => void send(e)} aria-label={t`Try it`}>
      {parameters.length > 0 && (
        <Group align="flex-end" gap="sm">
          {parameters.map((p) => {
            const key = `${p.in}:${p.name}`;
            return (
              <TextInput
                key={key}
                size="xs"
                label={p.in === 'path' ? t`${p.name} (in the path)` : t`${p.name} (query)`}
                required={p.required}
                value={values[key] ?? ''}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [key]: value }));
                }}
                error={
                  missing.includes(p.name) && p.in === 'path' ? t`Please fill this in` : undefined
                }
              />
            );
          })}
        </Group>
      )}
      <Group gap="sm">
        <Button
          type="submit"
          size="xs"
          loading={outcome.name === 'sending'}
          disabled={token === undefined}
          aria-describedby={resultId}
        >
          <Trans>Send GET</Trans>
        </Button>
        {token === undefined && (
          <Text size="xs" c="dimmed">
            <Trans>Paste a token above first.</Trans>
          </Text>
        )}
      </Group>
      <div id={resultId} aria-live="polite" data-testid="try-result" data-answers={answers}>
        {outcome.name === 'failed' && (
          <Text size="sm" c="red" role="alert">
            {outcome.message}
          </Text>
        )}
        {outcome.name === 'answered' && <Answer path={outcome.path} answer={outcome.answer} />}
      </div>
    </Stack>
  );
}

function Answer({ path, answer }: { readonly path: string; readonly answer: TryAnswer }) {
  const ok = answer.status >= 200 && answer.status < 300;
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2);
  const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}\n…` : text;
  return (
    <Stack gap={4}>
      <Text size="sm">
        <Trans>
          Status <strong data-testid="try-status">{answer.status}</strong> for GET{' '}
          <Code>/api/v1/{path}</Code>
        </Trans>
      </Text>
      <Code
        block
        className={classes.answer}
        {...(ok ? {} : { color: 'red' })}
        data-testid="try-body"
        dir="ltr"
        lang="en"
      >
        {shown}
      </Code>
    </Stack>
  );
}
