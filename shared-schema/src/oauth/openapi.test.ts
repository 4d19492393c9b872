import { describe, expect, it } from 'vitest';
import { API_ROUTES } from './catalog';
import { openApiDocument, openApiDocumentSchema, openApiPath } from './openapi';

describe('the OpenAPI document', () => {
  const doc = openApiDocument();

  it('is OpenAPI 3.1 under /api/v1 and reads back through its own schema', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(openApiDocumentSchema.parse(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
  });

  it('has one operation per catalog route, at the OpenAPI form of its path', () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.keys(ops));
    expect(operations).toHaveLength(API_ROUTES.length);
    expect(openApiPath('/account/roles/:id/assets/:assetId')).toBe(
      '/account/roles/{id}/assets/{assetId}',
    );
    expect(doc.paths['/datastreams/{id}/values.csv']?.get).toBeDefined();
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('says what each route needs: scopes as bearer scopes and x-access', () => {
    const values = doc.paths['/datastreams/{id}/values']?.get;
    expect(values?.security).toEqual([{ bearer: ['datastreams:read'] }]);
    expect(values?.['x-access']).toEqual({ kind: 'scopes', scopes: ['datastreams:read'] });
    expect(doc.paths['/oauth/clients/{id}']?.delete?.['x-access']).toEqual({
      kind: 'first-party',
    });
    const token = doc.paths['/oauth/token']?.post;
    expect(token?.security).toEqual([]);
    expect(token?.responses['401']).toBeUndefined();
  });

  it('lists path and query parameters with their schemas, and the body and answer', () => {
    const values = doc.paths['/datastreams/{id}/values']?.get;
    const byName = new Map(values?.parameters?.map((p) => [`${p.in} ${p.name}`, p]));
    expect(byName.get('path id')?.required).toBe(true);
    expect(byName.get('query from')?.required).toBe(true);
    expect(byName.get('query points')).toMatchObject({
      required: false,
      schema: { default: 1000 },
    });
    const answer = values?.responses['200']?.content?.['application/json']?.schema;
    expect(answer).toMatchObject({ type: 'object', required: ['data'] });
    const create = doc.paths['/oauth/clients']?.post;
    expect(create?.requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { name: { type: 'string' }, redirect: { type: 'string' } },
    });
    expect(Object.keys(create?.responses ?? {})).toContain('201');
    expect(create?.responses['422']?.content?.['application/json']?.schema).toMatchObject({
      properties: { errors: { type: 'object' } },
    });
  });
});
