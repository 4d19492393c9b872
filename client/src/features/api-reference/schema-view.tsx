import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Code, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './api-reference.module.css';

/*
 * A JSON Schema (as z.toJSONSchema writes the shared schemas) shown as nested lists a person
 * reads: each field with its type, whether it is required, its bounds, and what lies inside it.
 */

type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const schemasOf = (value: unknown): Schema[] =>
  Array.isArray(value) ? value.filter(isSchema) : [];
const deepest = 8;

/** The alternatives of a union; a nullable value is its one alternative "or null". */
function alternatives(schema: Schema): { readonly options: Schema[]; readonly nullable: boolean } {
  if (Array.isArray(schema.type)) {
    // `type: ["string", "null"]`: one option per type, the schema's other keywords with each.
    const types = schema.type.filter((t): t is string => typeof t === 'string');
    return {
      options: types.filter((t) => t !== 'null').map((type) => ({ ...schema, type })),
      nullable: types.includes('null'),
    };
  }
  const all = [...schemasOf(schema.anyOf), ...schemasOf(schema.oneOf)];
  const options = all.filter((s) => s.type !== 'null');
  return { options, nullable: options.length < all.length };
}

function hasFields(schema: Schema): boolean {
  return isSchema(schema.properties) && Object.keys(schema.properties).length > 0;
}

export function SchemaView({ schema }: { readonly schema: Schema }) {
  return (
    <div className={classes.schema}>
      <SchemaBody schema={schema} depth={0} />
    </div>
  );
}

function SchemaBody({ schema, depth }: { readonly schema: Schema; readonly depth: number }) {
  if (depth > deepest) return <Text size="sm">…</Text>;
  if (hasFields(schema)) return <Fields schema={schema} depth={depth} />;
  return (
    <>
      <TypeLine schema={schema} />
      <Inside schema={schema} depth={depth} />
    </>
  );
}

/** What lies inside a value that is not a plain object: a list's items, a union's options. */
function Inside({ schema, depth }: { readonly schema: Schema; readonly depth: number }) {
  const items = isSchema(schema.items) ? schema.items : undefined;
  if (items !== undefined && (hasFields(items) || alternatives(items).options.length > 1)) {
    return (
      <div className={classes.nested}>
        <Text size="xs" c="dimmed">
          <Trans>Each item:</Trans>
        </Text>
        <SchemaBody schema={items} depth={depth + 1} />
      </div>
    );
  }
  const values = isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined;
  if (values !== undefined && hasFields(values)) {
    return (
      <div className={classes.nested}>
        <Text size="xs" c="dimmed">
          <Trans>Each value:</Trans>
        </Text>
        <SchemaBody schema={values} depth={depth + 1} />
      </div>
    );
  }
  const { options } = alternatives(schema);
  const single = options.length === 1 ? options[0] : undefined;
  if (single !== undefined) return <Inside schema={single} depth={depth} />;
  if (options.length > 1 && options.some((o) => hasFields(o) || isSchema(o.items))) {
    return (
      <ol className={classes.options}>
        {options.map((option, i) => (
          <li key={i}>
            <SchemaBody schema={option} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  return null;
}

function Fields({ schema, depth }: { readonly schema: Schema; readonly depth: number }) {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return (
    <ul className={classes.fields}>
      {Object.entries(properties).map(([name, value]) => {
        const field = isSchema(value) ? value : {};
        const nested = hasFields(field) || hasFields(alternatives(field).options[0] ?? {});
        return (
          <li key={name}>
            <Code>{name}</Code> <TypeLine schema={field} />{' '}
            {required.has(name) ? (
              <Badge component="span" size="xs" variant="light" color="orange">
                <Trans>required</Trans>
              </Badge>
            ) : (
              <Badge component="span" size="xs" variant="outline" color="gray">
                <Trans>optional</Trans>
              </Badge>
            )}
            {nested ? (
              <div className={classes.nested}>
                <SchemaBody schema={alternatives(field).options[0] ?? field} depth={depth + 1} />
              </div>
            ) : (
              <Inside schema={field} depth={depth} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** One value's type in a line: `string`, `integer ≥ 0`, `list of string`, `one of: "a", "b"`. */
function TypeLine({ schema }: { readonly schema: Schema }) {
  return (
    <Text span size="sm">
      {typeText(schema)}
      <Bounds schema={schema} />
    </Text>
  );
}

function typeText(schema: Schema): ReactNode {
  const { options, nullable } = alternatives(schema);
  if (options.length > 0) {
    const inner =
      options.length === 1 ? (
        typeText(options[0] ?? {})
      ) : (
        <Trans>
          one of:{' '}
          {options.map((o, i) => (
            <span key={i}>
              {i > 0 ? ' | ' : ''}
              {typeText(o)}
            </span>
          ))}
        </Trans>
      );
    return nullable ? (
      <>
        {inner} <Trans>or null</Trans>
      </>
    ) : (
      inner
    );
  }
  if ('const' in schema) return <Code>{JSON.stringify(schema.const)}</Code>;
  if (Array.isArray(schema.enum)) {
    return (
      <Trans>
        one of:{' '}
        {schema.enum.map((v, i) => (
          <span key={i}>
            {i > 0 ? ', ' : ''}
            <Code>{JSON.stringify(v)}</Code>
          </span>
        ))}
      </Trans>
    );
  }
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  if (type === 'array') {
    const tuple = schemasOf(schema.prefixItems);
    if (tuple.length > 0) {
      return (
        <Trans>
          list of [
          {tuple.map((t, i) => (
            <span key={i}>
              {i > 0 ? ', ' : ''}
              {typeText(t)}
            </span>
          ))}
          ]
        </Trans>
      );
    }
    const items = isSchema(schema.items) ? schema.items : {};
    return hasFields(items) ? (
      <Trans>list of objects</Trans>
    ) : (
      <Trans>list of {typeText(items)}</Trans>
    );
  }
  if (type === 'object' && !hasFields(schema)) {
    const values = isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined;
    return values === undefined ? <Code>object</Code> : <Trans>map of {typeText(values)}</Trans>;
  }
  if (type === undefined) return <Trans>any value</Trans>;
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  return <Code>{`${type}${format}`}</Code>;
}

function Bounds({ schema }: { readonly schema: Schema }) {
  const { t } = useLingui();
  const parts: string[] = [];
  const num = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
  const [min, max] = [num('minimum'), num('maximum')];
  if (min !== undefined) parts.push(`≥ ${min}`);
  if (max !== undefined) parts.push(`≤ ${max}`);
  const [minLength, maxLength] = [num('minLength'), num('maxLength')];
  if (minLength !== undefined || maxLength !== undefined) {
    const from = minLength ?? 0;
    parts.push(
      maxLength === undefined
        ? t`at least ${from} characters`
        : t`${from} to ${maxLength} characters`,
    );
  }
  const maxItems = num('maxItems');
  if (maxItems !== undefined)
    parts.push(t`${plural(maxItems, { one: 'at most # item', other: 'at most # items' })}`);
  if (typeof schema.pattern === 'string') parts.push(t`pattern ${schema.pattern}`);
  if ('default' in schema) parts.push(t`default ${JSON.stringify(schema.default)}`);
  if (parts.length === 0) return null;
  return (
    <Text span size="xs" c="dimmed">
      {' '}
      · {parts.join(' · ')}
    </Text>
  );
}
