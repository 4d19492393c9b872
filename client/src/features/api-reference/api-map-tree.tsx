import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, type MouseEvent } from 'react';
import { API_BASE } from '@plant/shared-schema';
import classes from './api-reference.module.css';
import { modelLabel } from '../../components/model-labels';
import { modelMap, type MapModel, type ModelMap } from './model-map';

const anchorOf = (type: string) => `model-${type}`;

/** Moves focus (and so a screen reader) to a model's heading, as the link's target. */
function goTo(event: MouseEvent<HTMLAnchorElement>, type: string) {
  const target = document.getElementById(`${anchorOf(type)}-title`);
  if (target === null) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'center' });
  target.focus();
}

/**
 * The map's tree (its page's chunk loads it after the page's first render): the registry's
 * models, whose code (every model's schema module) is most of the page's weight.
 */
export function ApiMapTree() {
  const map = useMemo(() => modelMap(), []);
  return (
    <ul className={classes.tree}>
      {map.roots.map((type) => (
        <ModelItem key={type} type={type} map={map} depth={0} />
      ))}
    </ul>
  );
}

function ModelLink({ type }: { readonly type: string }) {
  const { i18n } = useLingui();
  return (
    <Anchor href={`#${anchorOf(type)}`} onClick={(e) => goTo(e, type)}>
      {modelLabel(i18n, type)}
    </Anchor>
  );
}

function ModelItem({
  type,
  map,
  depth,
}: {
  readonly type: string;
  readonly map: ModelMap;
  readonly depth: number;
}) {
  const { t, i18n } = useLingui();
  const model = map.byType.get(type);
  if (model === undefined) return null;
  const label = modelLabel(i18n, type);
  const order = Math.min(2 + depth, 6) as 2 | 3 | 4 | 5 | 6;
  return (
    <li id={anchorOf(type)} className={classes.model} data-testid="map-model" data-type={type}>
      <Group gap="xs" wrap="wrap">
        <Title order={order} size="h5" id={`${anchorOf(type)}-title`} tabIndex={-1}>
          {label}
        </Title>
        <Code dir="ltr">{type}</Code>
        <Badge variant="light" tt="none" component="span">
          {`${API_BASE}/${model.collection}`}
        </Badge>
        {model.readScope !== undefined && (
          <Badge variant="outline" tt="none" component="span">
            {model.readScope}
          </Badge>
        )}
        {model.managed && (
          <Badge variant="outline" color="gray" component="span">
            <Trans>kept in the server's own tables</Trans>
          </Badge>
        )}
      </Group>
      <Relations model={model} />
      {model.children.length > 0 && (
        <ul aria-label={t`Models under ${label}`}>
          {model.children.map((child) => (
            <ModelItem key={child} type={child} map={map} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Relations({ model }: { readonly model: MapModel }) {
  return (
    <Stack gap={2} mt={4}>
      <Text size="sm">
        {model.parent === null ? (
          <Trans>Parent: the account (an account sits under the account above it).</Trans>
        ) : (
          <Trans>
            Parent: <ModelLink type={model.parent} />
          </Trans>
        )}
      </Text>
      {model.children.length > 0 && (
        <Text size="sm">
          <Trans>Children:</Trans>{' '}
          {model.children.map((child, i) => (
            <span key={child}>
              {i > 0 ? ', ' : ''}
              <ModelLink type={child} />
            </span>
          ))}
        </Text>
      )}
      {model.refs.length > 0 && (
        <Text size="sm" data-testid="map-refs">
          <Trans>References:</Trans>{' '}
          {model.refs.map((ref, i) => (
            <span key={ref.field}>
              {i > 0 ? ', ' : ''}
              <ModelLink type={ref.type} /> (<Code>{ref.field}</Code>)
            </span>
          ))}
        </Text>
      )}
      {model.referencedBy.length > 0 && (
        <Text size="sm">
          <Trans>Referenced by:</Trans>{' '}
          {model.referencedBy.map((ref, i) => (
            <span key={`${ref.type}.${ref.field}`}>
              {i > 0 ? ', ' : ''}
              <ModelLink type={ref.type} /> (<Code>{ref.field}</Code>)
            </span>
          ))}
        </Text>
      )}
    </Stack>
  );
}
