import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  TRANSLATION_TEXTS,
  type InheritedTexts,
  type ModelUpdate,
  uuidv7,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';

/*
 * Translations on the server (issue 36 item 2): an account's words for a text of the product, at
 * least one language, one per text and account; every member reads the words of its account and
 * of those above it (the nearest wins, language by language); a change moves the `texts_version`
 * of the account model of every account below, which their browsers follow.
 */
let s: TestServer;
let admin = '';
let ids: { root: string; north: string; south: string };
let adminId = '';

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  ids = await s.demoAccountIds();
  adminId = dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token: admin })).id;
});
afterAll(() => s.close());

const post = (json: object, token = admin) =>
  s.call('POST', apiPaths.collection('translations'), { token, json: { id: uuidv7(), ...json } });
const errorsOf = (answer: Answer) =>
  (JSON.parse(answer.text) as { errors?: Record<string, string[]> }).errors ?? {};
const switchTo = (account: string) =>
  s.call('POST', apiPaths.setActiveAccount(adminId, account), { token: admin });
const inherited = async (token = admin) =>
  dataOf<InheritedTexts>(await s.call('GET', apiPaths.inheritedTexts(), { token }));

describe('translations', () => {
  it('need at least one text, and one translation per text and account', async () => {
    const none = await post({ key: 'Abc123', texts: { de: '  ' } });
    expect(none.status).toBe(422);
    expect(errorsOf(none).texts).toEqual([TRANSLATION_TEXTS.atLeastOne]);
    expect((await post({ key: 'Abc123', texts: { de: 'Anlagenpark' } })).status).toBe(201);
    const again = await post({ key: 'Abc123', texts: { pt: 'Parque' } });
    expect(errorsOf(again).key).toEqual([TRANSLATION_TEXTS.keyTaken]);
    expect(errorsOf(await post({ key: 'with space', texts: { de: 'x' } })).key).toEqual([
      TRANSLATION_TEXTS.key,
    ]);
  });

  it('reach the accounts below, where the nearest account’s words win language by language', async () => {
    expect((await post({ key: 'Xyz789', texts: { de: 'Oben', pt: 'Acima' } })).status).toBe(201);
    await switchTo(ids.north);
    // North's own German beats the account above; its Portuguese comes from above.
    expect((await post({ key: 'Xyz789', texts: { de: 'Norden' } })).status).toBe(201);
    const words = await inherited();
    expect(words.find((w) => w.key === 'Xyz789')?.texts).toEqual({ de: 'Norden', pt: 'Acima' });
    expect(words.find((w) => w.key === 'Abc123')?.texts).toEqual({ de: 'Anlagenpark' });

    // A change above moves North's account model (texts_version), which its browsers follow.
    const since = Date.now() - 1;
    const before = dataOf<{ texts_version: number }>(
      await s.call('GET', 'user/account', { token: admin }),
    ).texts_version;
    await switchTo(ids.root);
    const rows = await s.db
      .selectFrom('models')
      .select(['id', 'attributes'])
      .where('type', '=', 'translation')
      .where('account_id', '=', ids.root)
      .execute();
    const above = rows.find((r) => r.attributes.includes('Xyz789'));
    const changed = await s.call('PUT', apiPaths.model('translations', above?.id ?? ''), {
      token: admin,
      json: { texts: { de: 'Oben', pt: 'Em cima' } },
    });
    expect(changed.status).toBe(200);
    await switchTo(ids.north);
    const read = await s.call('GET', apiPaths.mqttlogs(since), { token: admin });
    const log = (read.json as { data: { msg: ModelUpdate }[] }).data.map((e) => e.msg);
    const moved = log.find((u) => u.type === 'account' && u.id === ids.north);
    expect(moved?.attributes?.texts_version).toBeGreaterThan(before);
    expect((await inherited()).find((w) => w.key === 'Xyz789')?.texts).toEqual({
      de: 'Norden',
      pt: 'Em cima',
    });
    await switchTo(ids.root);
  });

  it('are read by every member, and written only with translation::edit', async () => {
    const tech = await s.signIn(DEMO_USERS.tech);
    expect((await inherited(tech)).some((w) => w.key === 'Abc123')).toBe(true);
    expect((await post({ key: 'Tech01', texts: { de: 'x' } }, tech)).status).toBe(403);
  });
});
