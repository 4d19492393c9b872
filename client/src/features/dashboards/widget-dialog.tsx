import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Modal, Radio, SimpleGrid, Stack } from '@mantine/core';
import { WIDGET_TYPES, type DashboardWidget, type WidgetType } from '@plant/shared-schema';
import { useStreamChoices, type DashboardScope } from './stream-choices';
import { WIDGET_DEFAULT_SIZE, WIDGET_LABELS, WidgetSettings } from './widgets';

/**
 * The first step of "Add widget": its type (spec 001 §2's widgets). The new widget is placed at
 * once (one write), and its settings open next, so a widget is never lost to a form left open.
 */
export function AddWidgetDialog(props: {
  readonly opened: boolean;
  readonly onClose: () => void;
  /** The chosen type and its default size (columns, rows). */
  readonly onAdd: (type: WidgetType, size: { readonly w: number; readonly h: number }) => void;
}) {
  const { t, i18n } = useLingui();
  const [type, setType] = useState<WidgetType>('line');
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t`Add widget`}>
      <form
        data-testid="add-widget-form"
        onSubmit={(e) => {
          e.preventDefault();
          props.onAdd(type, WIDGET_DEFAULT_SIZE[type]);
        }}
      >
        <Stack gap="md">
          <Radio.Group
            label={t`Type of widget`}
            value={type}
            onChange={(v) => {
              const picked = WIDGET_TYPES.find((x) => x === v);
              if (picked !== undefined) setType(picked);
            }}
          >
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {WIDGET_TYPES.map((w) => (
                <Radio key={w} value={w} label={i18n._(WIDGET_LABELS[w])} />
              ))}
            </SimpleGrid>
          </Radio.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" data-testid="add-widget-submit">
              <Trans>Add widget</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A widget's own settings (title, streams, options: the widgets' `WidgetSettings`), offered only
 * the streams the user sees of the dashboard's asset (all assets for the account's; the
 * template's streams by key for a template's).
 */
export function WidgetSettingsDialog(props: {
  readonly widget: DashboardWidget | null;
  readonly scope: DashboardScope;
  readonly onClose: () => void;
  readonly onSave: (widget: DashboardWidget) => void;
}) {
  const { t, i18n } = useLingui();
  const { widget } = props;
  const title = widget === null ? '' : i18n._(WIDGET_LABELS[widget.type]);
  return (
    <Modal
      opened={widget !== null}
      onClose={props.onClose}
      title={t`Settings of the widget: ${title}`}
      size="lg"
    >
      {widget === null ? null : (
        <SettingsBody
          widget={widget}
          scope={props.scope}
          onClose={props.onClose}
          onSave={props.onSave}
        />
      )}
    </Modal>
  );
}

function SettingsBody(props: {
  readonly widget: DashboardWidget;
  readonly scope: DashboardScope;
  readonly onClose: () => void;
  readonly onSave: (widget: DashboardWidget) => void;
}) {
  const { t } = useLingui();
  const streams = useStreamChoices(props.scope);
  if (streams === undefined) {
    return <Loader size="sm" role="status" aria-label={t`Loading the data streams…`} />;
  }
  return (
    <div data-testid="widget-settings">
      <WidgetSettings
        type={props.widget.type}
        widget={props.widget}
        streams={streams}
        onCancel={props.onClose}
        onSave={(settings) => props.onSave({ ...props.widget, ...settings })}
      />
    </div>
  );
}
