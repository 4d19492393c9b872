import './catalogues';
import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  ColorInput,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  BLANK_DIAGRAM_SVG,
  DIAGRAM_ALARM_COLOR,
  DIAGRAM_SHOWS,
  DIAGRAM_SVG_MAX_BYTES,
  DIAGRAM_TEXTS,
  diagramAttributesSchema,
  diagramSvgBytes,
  isolate,
  parseSvg,
  serializeSvg,
  SVG_LIMITS,
  type DiagramBinding,
  type DiagramShow,
  type SvgElement,
  type SvgRemoval,
  type SvgRemovalKind,
} from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { usePageState } from '../../components/page-state';
import { translateServerText } from '../../i18n/server-texts';
import { syncWorker } from '../../sync/worker';
import { streamShapeOf, valueText } from '../devices/stream-values';
import { DiagramDrawing } from './diagram-drawing';
import {
  addShape,
  elementAt,
  elementsWithIds,
  freeId,
  GEOMETRY,
  newShape,
  removeAt,
  setAttributes,
  setText,
  SHAPES,
  textOf,
  type Shape,
  type SvgPath,
} from './svg-tree';

/*
 * The editor of a process diagram (issue 37 item 4), a chunk of its own: an SVG file uploaded
 * (sanitised here first, so the page says what was removed; the schema cleans it again wherever
 * it is written), or basic shapes drawn onto the picture; an element chosen by a click or from
 * the list, bound to one of the asset's streams with what it shows. Save writes the diagram
 * through the worker: at once here, queued while offline.
 */

const NO_BINDINGS: readonly DiagramBinding[] = [];
const NOTHING = '';

const SHAPE_WORDS: Record<Shape, MessageDescriptor> = {
  rect: msg`Rectangle`,
  circle: msg`Circle`,
  line: msg`Line`,
  text: msg`Text`,
};

/** The geometry fields' labels (svg-tree.ts GEOMETRY), by attribute. */
const GEOMETRY_WORDS: Readonly<Record<string, MessageDescriptor>> = {
  x: msg`X`,
  y: msg`Y`,
  width: msg`Width`,
  height: msg`Height`,
  cx: msg`Centre X`,
  cy: msg`Centre Y`,
  r: msg`Radius`,
  rx: msg`Radius X`,
  ry: msg`Radius Y`,
  x1: msg`Start X`,
  y1: msg`Start Y`,
  x2: msg`End X`,
  y2: msg`End Y`,
  'font-size': msg`Font size`,
};

const SHOW_WORDS: Record<DiagramShow, MessageDescriptor> = {
  value: msg`Its value with the unit (a text)`,
  state: msg`A colour per state`,
  alarm: msg`Red while an alarm of the stream is raised`,
};

function removalWords(kind: SvgRemovalKind, name: string): MessageDescriptor {
  switch (kind) {
    case 'element':
      return msg`The element ${name} with what it held`;
    case 'attribute':
      return msg`The attribute ${name}`;
    case 'link':
      return msg`A reference to outside the picture in ${name}`;
    case 'style':
      return msg`The style property ${name}`;
    case 'comment':
      return msg`Comments`;
    case 'declaration':
      return msg`The declaration ${name}`;
    case 'instruction':
      return msg`The processing instruction ${name}`;
    case 'malformed':
      return msg`Markup that does not end, from ${name}`;
    case 'limit':
      return msg`What went past the limit of ${name}`;
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** What the sanitiser took out of an uploaded file, in words. */
function Removed(props: { readonly removed: readonly SvgRemoval[] }) {
  const { i18n } = useLingui();
  if (props.removed.length === 0) {
    return (
      <Alert color="green" data-testid="svg-removed" data-count={0}>
        <Trans>The picture was taken as it was: nothing had to be removed.</Trans>
      </Alert>
    );
  }
  return (
    <Alert
      color="yellow"
      title={<Trans>Removed from the picture, for safety</Trans>}
      data-testid="svg-removed"
      data-count={props.removed.length}
    >
      <Stack component="ul" gap={2} m={0} pl="md">
        {props.removed.map((r) => (
          <li key={`${r.kind} ${r.name}`} data-kind={r.kind} data-name={r.name}>
            {i18n._(removalWords(r.kind, isolate(r.name)))}
            {r.count > 1 ? ` (${i18n.number(r.count)}×)` : ''}
          </li>
        ))}
      </Stack>
    </Alert>
  );
}

/** The values a state colour can be given for: a boolean's two, a state stream's texts. */
function stateKeys(stream: LocalModel<'datastream'>): string[] {
  const keys = Object.keys(stream.attributes.state_texts);
  if (stream.attributes.type === 'boolean') return [...new Set(['0', '1', ...keys])];
  return keys;
}

export function DiagramEditor(props: {
  readonly diagram: LocalModel<'diagram'>;
  readonly streams: readonly LocalModel<'datastream'>[];
  readonly onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const { diagram, streams } = props;
  const [tree, setTree] = useState<SvgElement>(
    () => parseSvg(diagram.attributes.svg).root ?? parseSvg(BLANK_DIAGRAM_SVG).root!,
  );
  const [bindings, setBindings] = useState<readonly DiagramBinding[]>(
    diagram.attributes.bindings ?? NO_BINDINGS,
  );
  const [name, setName] = useState(diagram.attributes.name);
  const [selected, setSelected] = useState<SvgPath | null>(null);
  const [removed, setRemoved] = useState<readonly SvgRemoval[] | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const page = usePageState(['name', 'svg', 'bindings']);
  // What was last saved: 'Saved.' shows only while nothing has changed since.
  const [savedAs, setSavedAs] = useState<string | null>(null);
  const current = useMemo(
    () => JSON.stringify([name, serializeSvg(tree), bindings]),
    [name, tree, bindings],
  );
  const fileInput = useRef<HTMLInputElement>(null);
  const withIds = useMemo(() => elementsWithIds(tree), [tree]);
  const element = selected === null ? undefined : elementAt(tree, selected);
  const elementId = element?.attributes.id;
  const binding = bindings.find((b) => b.element === elementId && elementId !== undefined);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (file === undefined) return;
    setRemoved(null);
    if (file.size > SVG_LIMITS.inputChars) {
      setUploadError(t`The file is too large: at most 1 MB.`);
      return;
    }
    const parsed = parseSvg(await file.text());
    if (parsed.root === null) {
      setUploadError(translateServerText(i18n, DIAGRAM_TEXTS.noSvg));
      return;
    }
    if (diagramSvgBytes(serializeSvg(parsed.root)) > DIAGRAM_SVG_MAX_BYTES) {
      setUploadError(translateServerText(i18n, DIAGRAM_TEXTS.tooLarge));
      return;
    }
    const ids = new Set(elementsWithIds(parsed.root).map((e) => e.id));
    setUploadError(null);
    setTree(parsed.root);
    setSelected(null);
    setBindings((list) => list.filter((b) => ids.has(b.element)));
    setRemoved(parsed.removed);
  };

  const draw = (kind: Shape) => {
    const shape = newShape(kind, tree, freeId(tree, kind), i18n._(SHAPE_WORDS.text));
    const added = addShape(tree, shape);
    setTree(added.root);
    setSelected(added.path);
  };

  const remove = () => {
    if (selected === null) return;
    setTree(removeAt(tree, selected));
    if (elementId !== undefined) setBindings((list) => list.filter((b) => b.element !== elementId));
    setSelected(null);
  };

  /** Binds the chosen element (giving it an id if it has none) or unbinds it. */
  const bind = (streamId: string) => {
    if (selected === null || element === undefined) return;
    let id = elementId;
    if (id === undefined) {
      id = freeId(tree, element.name);
      setTree(setAttributes(tree, selected, { id }));
    }
    const element_ = id;
    const others = bindings.filter((b) => b.element !== element_);
    if (streamId === NOTHING) {
      setBindings(others);
      return;
    }
    const show: DiagramShow =
      binding?.show ?? (element.name === 'text' || element.name === 'tspan' ? 'value' : 'alarm');
    setBindings([
      ...others,
      { element: element_, stream_id: streamId, show, colors: {}, alarm_color: null },
    ]);
  };

  const changeBinding = (change: Partial<DiagramBinding>) => {
    if (binding === undefined) return;
    setBindings(bindings.map((b) => (b === binding ? { ...b, ...change } : b)));
  };

  const save = async () => {
    const ids = new Set(withIds.map((e) => e.id));
    const checked = page.check(
      diagramAttributesSchema.safeParse({
        asset_id: diagram.attributes.asset_id,
        name,
        svg: serializeSvg(tree),
        bindings: bindings.filter((b) => ids.has(b.element)),
      }),
    );
    if (checked === null) return;
    setBusy(true);
    const answer = await syncWorker().writes.update('diagram', diagram.id, {
      name: checked.name,
      svg: checked.svg,
      bindings: checked.bindings,
    });
    setBusy(false);
    if (page.took(answer, 'write')) setSavedAs(current);
  };

  const stream = streams.find((s) => s.id === binding?.stream_id);
  const geometry = element === undefined ? undefined : GEOMETRY[element.name];
  return (
    <Stack gap="md" data-testid="diagram-editor">
      <TextInput
        label={t`Name`}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={page.fields.name}
        maw={480}
      />
      <Group gap="xs">
        <input
          ref={fileInput}
          type="file"
          accept=".svg,image/svg+xml"
          hidden
          onChange={(e) => void upload(e)}
          data-testid="diagram-upload-input"
        />
        <Button variant="light" onClick={() => fileInput.current?.click()}>
          <Trans>Upload an SVG picture</Trans>
        </Button>
        {SHAPES.map((kind) => (
          <Button
            key={kind}
            variant="default"
            onClick={() => draw(kind)}
            data-testid={`diagram-draw-${kind}`}
          >
            {i18n._(SHAPE_WORDS[kind])}
          </Button>
        ))}
      </Group>
      {uploadError === null ? null : (
        <Alert color="red" data-testid="diagram-upload-error">
          {uploadError}
        </Alert>
      )}
      {removed === null ? null : <Removed removed={removed} />}
      <Paper withBorder p="xs">
        <DiagramDrawing
          root={tree}
          label={t`Diagram ${isolate(name)}`}
          bound={new Map()}
          edit={{ selected, onSelect: setSelected }}
        />
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="xs">
          <Title order={2} size="h4">
            <Trans>Element</Trans>
          </Title>
          <NativeSelect
            label={t`Chosen element`}
            description={t`Or click it in the picture.`}
            value={elementId ?? NOTHING}
            onChange={(e) => {
              const found = withIds.find((w) => w.id === e.currentTarget.value);
              setSelected(found?.path ?? null);
            }}
            data={[
              { value: NOTHING, label: element === undefined ? t`None` : t`Without an id` },
              ...withIds.map((w) => ({ value: w.id, label: `${w.id} (${w.name})` })),
            ]}
            data-testid="diagram-element"
          />
          {element === undefined || selected === null ? null : (
            <>
              {geometry === undefined ? null : (
                <Group gap="xs" align="end">
                  {geometry.map((attribute) => (
                    <TextInput
                      key={attribute}
                      label={
                        GEOMETRY_WORDS[attribute] === undefined
                          ? attribute
                          : i18n._(GEOMETRY_WORDS[attribute])
                      }
                      w={90}
                      inputMode="decimal"
                      value={element.attributes[attribute] ?? ''}
                      onChange={(e) =>
                        setTree(
                          setAttributes(tree, selected, { [attribute]: e.currentTarget.value }),
                        )
                      }
                    />
                  ))}
                </Group>
              )}
              {element.name === 'text' ? (
                <TextInput
                  label={t`Words`}
                  value={textOf(element)}
                  onChange={(e) => setTree(setText(tree, selected, e.currentTarget.value))}
                />
              ) : null}
              <ColorInput
                label={element.name === 'line' ? t`Line colour` : t`Fill colour`}
                format="hex"
                maw={220}
                value={element.attributes[element.name === 'line' ? 'stroke' : 'fill'] ?? ''}
                onChange={(value) =>
                  setTree(
                    setAttributes(tree, selected, {
                      [element.name === 'line' ? 'stroke' : 'fill']:
                        value === '' ? undefined : value,
                    }),
                  )
                }
              />
              {selected.length > 0 ? (
                <Group>
                  <Button variant="subtle" color="red" onClick={remove}>
                    <Trans>Remove this element</Trans>
                  </Button>
                </Group>
              ) : null}
            </>
          )}
        </Stack>
        <Stack gap="xs">
          <Title order={2} size="h4">
            <Trans>Data stream</Trans>
          </Title>
          {element === undefined || selected === null || selected.length === 0 ? (
            <Text size="sm" c="dimmed">
              <Trans>Choose an element to bind it to a data stream of the asset.</Trans>
            </Text>
          ) : (
            <>
              <NativeSelect
                label={t`Bound to`}
                value={binding?.stream_id ?? NOTHING}
                onChange={(e) => bind(e.currentTarget.value)}
                data={[
                  { value: NOTHING, label: t`Not bound` },
                  ...streams.map((s) => ({ value: s.id, label: s.attributes.name })),
                ]}
                data-testid="diagram-stream"
              />
              {binding === undefined ? null : (
                <NativeSelect
                  label={t`Shows`}
                  value={binding.show}
                  onChange={(e) => {
                    const show = DIAGRAM_SHOWS.find((s) => s === e.currentTarget.value);
                    if (show !== undefined) changeBinding({ show });
                  }}
                  data={DIAGRAM_SHOWS.map((s) => ({ value: s, label: i18n._(SHOW_WORDS[s]) }))}
                  data-testid="diagram-show"
                />
              )}
              {binding?.show === 'alarm' ? (
                <ColorInput
                  label={t`Colour while raised`}
                  format="hex"
                  maw={220}
                  placeholder={DIAGRAM_ALARM_COLOR}
                  value={binding.alarm_color ?? ''}
                  onChange={(value) => changeBinding({ alarm_color: value === '' ? null : value })}
                />
              ) : null}
              {binding?.show === 'state' && stream !== undefined ? (
                stateKeys(stream).length === 0 ? (
                  <Text size="sm" c="dimmed">
                    <Trans>This data stream has no states to colour.</Trans>
                  </Text>
                ) : (
                  stateKeys(stream).map((key) => (
                    <ColorInput
                      key={key}
                      label={valueText(i18n, streamShapeOf(stream.attributes), Number(key))}
                      format="hex"
                      maw={220}
                      value={binding.colors[key] ?? ''}
                      onChange={(value) => {
                        const colors = { ...binding.colors };
                        if (value === '') delete colors[key];
                        else colors[key] = value;
                        changeBinding({ colors });
                      }}
                    />
                  ))
                )
              ) : null}
            </>
          )}
        </Stack>
      </SimpleGrid>
      {page.error === null &&
      page.fields.svg === undefined &&
      page.fields.bindings === undefined ? null : (
        <Alert color="red" data-testid="diagram-save-error">
          {page.error ?? page.fields.svg ?? page.fields.bindings}
        </Alert>
      )}
      <Group>
        <Button onClick={() => void save()} loading={busy} data-testid="diagram-save">
          <Trans>Save diagram</Trans>
        </Button>
        <Button variant="default" onClick={props.onDone} data-testid="diagram-done">
          <Trans>Done</Trans>
        </Button>
        {page.saved === null || savedAs !== current ? null : (
          <Text size="sm" c="green" data-testid="diagram-saved">
            {page.saved}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
