import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, apiPaths, openApiDocument, openApiDocumentSchema } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { startTestServer, type TestServer } from '../testing/harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
});
afterAll(() => s.close());

describe('GET openapi.json', () => {
  it('answers the reference without a token, the same every time', async () => {
    const first = await s.call('GET', apiPaths.openapi());
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = openApiDocumentSchema.parse(first.json);
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(doc.paths['/openapi.json']?.get?.['x-access']).toEqual({ kind: 'public' });
    const again = await s.call('GET', apiPaths.openapi());
    expect(again.text).toBe(first.text);
  });

  it('documents what the routes really answer (every GET without inputs a caller must give)', async () => {
    const doc = openApiDocument();
    const plain = API_ROUTES.filter((route) => {
      if (route.method !== 'GET' || route.params !== undefined || route.response === undefined)
        return false;
      const op = doc.paths[route.path]?.get;
      return !(op?.parameters ?? []).some((p) => p.required);
    });
    expect(plain.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/user', '/account/roles', '/oauth/clients', '/sync/snapshot']),
    );
    for (const route of plain) {
      const answer = await s.call('GET', route.path.slice(1), { token: admin });
      expect({ path: route.path, status: answer.status }).toEqual({
        path: route.path,
        status: route.status ?? 200,
      });
      const parsed = route.response?.safeParse(answer.json);
      expect({ path: route.path, issues: parsed?.error?.issues ?? [] }).toEqual({
        path: route.path,
        issues: [],
      });
    }
  });
});
