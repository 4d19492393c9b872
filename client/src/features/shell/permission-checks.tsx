import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { translateServerText } from '../../i18n/server-texts';

/**
 * `_permissionChecks` of an answer (spec 000 §7: "opens a check dialog"; the spec does not show
 * their shape). Each check is read for what people need: what was checked (its message, name or
 * permission), whether it passed (a boolean under a usual name), and its other fields as a list.
 * Anything else is still shown, as text, never dropped.
 */
export interface CheckView {
  readonly title: string;
  readonly passed: boolean | null;
  readonly details: readonly (readonly [string, string])[];
}

const TITLE_KEYS = ['message', 'title', 'name', 'label', 'text', 'description', 'permission'];
const STATUS_KEYS = ['granted', 'allowed', 'passed', 'ok', 'success', 'valid', 'result'];
const MAX_VALUE_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value);
  return json.length > MAX_VALUE_LENGTH ? `${json.slice(0, MAX_VALUE_LENGTH)}…` : json;
}

export function checkViewOf(check: unknown, index: number, i18n: I18n): CheckView {
  if (!isRecord(check)) {
    if (Array.isArray(check)) {
      return {
        title: `#${index + 1}`,
        passed: null,
        details: check.map((v, i) => [String(i + 1), textOf(v)] as const),
      };
    }
    return { title: textOf(check), passed: null, details: [] };
  }
  const titleKey = TITLE_KEYS.find((k) => typeof check[k] === 'string' && check[k] !== '');
  const statusKey = STATUS_KEYS.find((k) => typeof check[k] === 'boolean');
  const params = isRecord(check['translationParams'])
    ? (check['translationParams'] as Record<string, string | number>)
    : undefined;
  const rawTitle = titleKey === undefined ? `#${index + 1}` : (check[titleKey] as string);
  const skip = new Set([titleKey, statusKey, 'translationParams']);
  return {
    title: titleKey === 'message' ? translateServerText(i18n, rawTitle, params) : rawTitle,
    passed: statusKey === undefined ? null : (check[statusKey] as boolean),
    details: Object.entries(check)
      .filter(([k]) => !skip.has(k))
      .map(([k, v]) => [k, textOf(v)] as const),
  };
}

export function PermissionChecksDialog({
  checks,
  onClose,
}: {
  readonly checks: readonly unknown[] | null;
  readonly onClose: () => void;
}) {
  const { i18n, t } = useLingui();
  const views = (checks ?? []).map((c, i) => checkViewOf(c, i, i18n));
  return (
    <Modal opened={checks !== null} onClose={onClose} title={t`Please check`} size="lg">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          <Trans>The server reported these permission checks for your last action.</Trans>
        </Text>
        <ScrollArea.Autosize mah={420}>
          <ol data-testid="permission-checks" style={{ margin: 0, paddingInlineStart: 20 }}>
            {views.map((view, i) => (
              <li
                key={i}
                data-testid="permission-check"
                data-status={view.passed === null ? 'unknown' : view.passed ? 'passed' : 'failed'}
                style={{ marginBlockEnd: 12 }}
              >
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  {view.passed === null ? null : (
                    <Badge color={view.passed ? 'green' : 'red'} variant="light" size="sm">
                      {view.passed ? <Trans>Allowed</Trans> : <Trans>Denied</Trans>}
                    </Badge>
                  )}
                  <Text size="sm" fw={600}>
                    {view.title}
                  </Text>
                </Group>
                {view.details.length === 0 ? null : (
                  <dl
                    style={{
                      display: 'grid',
                      gridTemplateColumns: 'max-content 1fr',
                      columnGap: 12,
                      rowGap: 2,
                      margin: '4px 0 0',
                      fontSize: 'var(--mantine-font-size-xs)',
                    }}
                  >
                    {view.details.map(([key, value]) => (
                      <div key={key} style={{ display: 'contents' }}>
                        <dt style={{ color: 'var(--mantine-color-dimmed)' }}>{key}</dt>
                        <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            ))}
          </ol>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          <Button onClick={onClose}>
            <Trans>Close</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
