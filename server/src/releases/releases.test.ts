import { createHash, createPublicKey, verify } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  DEPLOYMENT_TEXTS,
  type DeploymentAttributes,
  type GatewayAttributes,
  type GatewayConfig,
  gatewayConfigSchema,
  gatewayTopics,
  gatewayBrokerLogin,
  type DeploymentGatewayAttributes,
  RELEASE_FILE_TEXTS,
  RELEASE_PERMISSIONS,
  RELEASE_TEXTS,
  releaseSigningText,
  type ReleaseAttributes,
  type ReleaseHistoryEntry,
  type ReleaseKeyInfo,
  type SyncedModel,
  uuidv7,
} from '@plant/shared-schema';
import { configsOf } from '../gateways/gateway-config';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';
import { roleMember, type RoleMember } from '../testing/role-member';
import { uploadArtifact } from '../testing/release-upload';
import { connectGateway, demoGateway, makeGatewayCredentials } from '../testing/gateway-client';
import type { MqttClient } from 'mqtt';

/*
 * Release management on the server (issue 35 items 1, 2 and 5): firmware and boards with the
 * spec's texts; a version made a draft, released once its artifact is stored (the server then
 * writes its SHA-256 and the account's Ed25519 signature, which the public key it serves checks),
 * fixed from then on; who may do what.
 */
let s: TestServer;
let admin = '';
let adminId = '';
let rootId = '';
let viewer: RoleMember;
let editor: RoleMember;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  rootId = (await s.demoAccountIds()).root;
  adminId = dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token: admin })).id;
  const member = (name: string, permissions: readonly string[]) =>
    roleMember(s, {
      adminToken: admin,
      accountId: rootId,
      name,
      permissions,
      domain: 'releases.test',
    });
  viewer = await member('Viewer', [RELEASE_PERMISSIONS.view]);
  editor = await member('Editor', [
    RELEASE_PERMISSIONS.view,
    RELEASE_PERMISSIONS.create,
    RELEASE_PERMISSIONS.update,
    RELEASE_PERMISSIONS.delete,
  ]);
});
afterAll(async () => {
  await s.close();
});

const post = (collection: string, json: unknown, token = admin) =>
  s.call('POST', apiPaths.collection(collection), { token, json });
const put = (collection: string, id: string, json: unknown, token = admin) =>
  s.call('PUT', apiPaths.model(collection, id), { token, json });
const release = (answer: Answer) => dataOf<SyncedModel>(answer).attributes as ReleaseAttributes;
const errorsOf = (answer: Answer) =>
  (JSON.parse(answer.text) as { errors?: Record<string, string[]> }).errors ?? {};

/** A draft version; answers its id. */
async function draft(json: Partial<ReleaseAttributes>, token = admin): Promise<string> {
  const id = uuidv7();
  const made = await post(
    'releases',
    { id, target: 'agent', name: 'Gateway agent', version: '1.0.0', ...json },
    token,
  );
  expect(made.status, made.text).toBe(201);
  return id;
}

/** An artifact of the release, uploaded whole; answers the file's id. */
const artifact = (releaseId: string, bytes: Uint8Array, token = admin) =>
  uploadArtifact(s, token, releaseId, bytes);

describe('firmware and boards', () => {
  it('asks for the firmware type and name and the board name in the spec’s words', async () => {
    const firmware = await post('firmware', { type: ' ', name: '' });
    expect(firmware.status).toBe(422);
    expect(errorsOf(firmware)).toEqual({
      type: [RELEASE_TEXTS.firmwareType],
      name: [RELEASE_TEXTS.firmwareName],
    });
    const board = await post('boards', { name: '' });
    expect(errorsOf(board)).toEqual({ name: [RELEASE_TEXTS.boardName] });

    const made = await post('firmware', { type: 'Bootloader', name: 'IOT2050 image' });
    expect(made.status, made.text).toBe(201);
    const firmwareId = dataOf<SyncedModel>(made).id;
    const twice = await post('boards', {
      name: 'IOT2050',
      firmware_id: firmwareId,
      pins: [
        { name: 'Relay', number: 4 },
        { name: 'Door', number: 4, kind: 'gpio' },
      ],
    });
    expect(errorsOf(twice)).toEqual({ pins: [RELEASE_TEXTS.pinTwice] });
    const boardMade = await post('boards', {
      name: 'IOT2050',
      firmware_id: firmwareId,
      pins: [
        { name: 'Relay', number: 4 },
        { name: 'Sensor bus', number: 2, kind: 'i2c' },
      ],
    });
    expect(boardMade.status, boardMade.text).toBe(201);
    expect(dataOf<SyncedModel>(boardMade).attributes).toMatchObject({
      name: 'IOT2050',
      firmware_id: firmwareId,
      pins: [
        { name: 'Relay', number: 4, kind: 'gpio' },
        { name: 'Sensor bus', number: 2, kind: 'i2c' },
      ],
    });
    // Who only sees release management makes nothing of it.
    expect((await post('boards', { name: 'Other' }, viewer.token)).status).toBe(403);
  });
});

describe('a version from draft to released to active', () => {
  it('is made a draft, once per name and version, with a semantic version', async () => {
    const asReleased = await post('releases', {
      target: 'agent',
      name: 'Gateway agent',
      version: '0.9.0',
      state: 'released',
    });
    expect(errorsOf(asReleased)).toEqual({ state: [RELEASE_TEXTS.moveNotAllowed] });
    const bad = await post('releases', { target: 'agent', name: 'Gateway agent', version: '1.0' });
    expect(errorsOf(bad)).toEqual({ version: [RELEASE_TEXTS.versionInvalid] });
    await draft({ name: 'Once agent', version: '2.0.0-rc.1' });
    const again = await post('releases', {
      target: 'agent',
      name: 'Once agent',
      version: '2.0.0-rc.1',
    });
    expect(errorsOf(again)).toEqual({ version: [RELEASE_TEXTS.versionTaken] });
    // Another target may use the name and version.
    await draft({ target: 'firmware', name: 'Once agent', version: '2.0.0-rc.1' });
    // A module's tabs belong to modules.
    const tabs = await post('releases', {
      target: 'agent',
      name: 'Tabbed',
      version: '1.0.0',
      feature_flags: [{ key: 'fast_poll', enabled: true }],
    });
    expect(errorsOf(tabs)).toEqual({ feature_flags: [RELEASE_TEXTS.modulesOnly] });
    const module = await post('releases', {
      target: 'module',
      name: 'Press line',
      version: '3.1.0',
      interface: { datapoints: [{ key: 'press.force', address: 'DB1.DBD0', unit: 'kN' }] },
      feature_flags: [{ key: 'fast_poll', enabled: true }],
      actions: [{ key: 'reset', label: 'Reset counter', datapoint: 'press.count', value: 0 }],
      datastreams: [{ key: 'force', name: 'Pressing force', datapoint: 'press.force', unit: 'kN' }],
    });
    expect(module.status, module.text).toBe(201);
    // A client does not sign: the server's fields it sends are not taken.
    const forged = await draft({
      name: 'Forged',
      signature: 'AAAA',
      artifact_sha256: 'f'.repeat(64),
      released_by: 'someone',
    });
    const stored = (await s.snapshot(admin)).find((m) => m.id === forged)
      ?.attributes as ReleaseAttributes;
    expect(stored).toMatchObject({ signature: null, artifact_sha256: null, released_by: null });
  });

  it('is released with its stored artifact, signed by the account’s key, and fixed from then on', async () => {
    // The account's key was made at its first release (the demo seed's versions): the one served.
    const before = await s.call('GET', apiPaths.releaseKey(), { token: viewer.token });
    expect(before.status).toBe(200);
    const demoSigned = (await s.snapshot(admin))
      .map((m) => m.attributes as Partial<ReleaseAttributes>)
      .find((a) => a.target === 'agent' && a.state === 'released');
    expect(dataOf<ReleaseKeyInfo>(before)?.key_id).toBe(demoSigned?.key_id);

    const id = await draft({ name: 'Signed agent', version: '1.4.2' }, editor.token);
    const noFile = await put('releases', id, { state: 'released' }, editor.token);
    expect(errorsOf(noFile)).toEqual({ artifact_file_id: [RELEASE_TEXTS.artifactMissing] });
    // Another release's file is not this one's artifact.
    const other = await draft({ name: 'Other agent' }, editor.token);
    const othersFile = await artifact(other, new TextEncoder().encode('other build'), editor.token);
    await put('releases', id, { artifact_file_id: othersFile }, editor.token);
    expect(errorsOf(await put('releases', id, { state: 'released' }, editor.token))).toEqual({
      artifact_file_id: [RELEASE_TEXTS.artifactMissing],
    });
    // An artifact of the wrong type is refused as a file.
    const wrong = await post(
      'files',
      {
        release_id: id,
        kind: 'artifact',
        name: 'notes.pdf',
        type: 'application/pdf',
        size: 10,
        sha256: 'a'.repeat(64),
      },
      editor.token,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain(RELEASE_FILE_TEXTS.wrongType);

    const bytes = new TextEncoder().encode('agent build 1.4.2');
    const fileId = await artifact(id, bytes, editor.token);
    // Made before its bytes are all there: not yet.
    const pending = uuidv7();
    await post(
      'files',
      {
        id: pending,
        release_id: other,
        kind: 'artifact',
        name: 'half.tgz',
        type: 'application/gzip',
        size: 100,
        sha256: 'b'.repeat(64),
      },
      editor.token,
    );
    await put('releases', other, { artifact_file_id: pending }, editor.token);
    expect(errorsOf(await put('releases', other, { state: 'released' }, editor.token))).toEqual({
      artifact_file_id: [RELEASE_TEXTS.artifactNotReady],
    });

    await put(
      'releases',
      id,
      { artifact_file_id: fileId, notes: 'Faster Modbus polls.' },
      editor.token,
    );
    const released = await put('releases', id, { state: 'released' }, editor.token);
    expect(released.status, released.text).toBe(200);
    const made = release(released);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(made).toMatchObject({
      state: 'released',
      artifact_sha256: sha256,
      released_by: editor.id,
      changed_by: editor.id,
    });
    expect(made.released_at).toBeGreaterThan(0);

    // The public key served checks the signature of exactly this version's file.
    const key = dataOf<ReleaseKeyInfo>(
      await s.call('GET', apiPaths.releaseKey(), { token: viewer.token }),
    );
    expect(key?.key_id).toBe(made.key_id);
    const publicKey = createPublicKey({
      key: Buffer.from(key?.public_key ?? '', 'base64'),
      format: 'der',
      type: 'spki',
    });
    const text = (version: string, hash: string) =>
      Buffer.from(
        releaseSigningText({
          accountId: rootId,
          id,
          target: 'agent',
          name: 'Signed agent',
          version,
          sha256: hash,
        }),
      );
    const signature = Buffer.from(made.signature ?? '', 'base64');
    expect(verify(null, text('1.4.2', sha256), publicKey, signature)).toBe(true);
    expect(verify(null, text('1.4.3', sha256), publicKey, signature)).toBe(false);
    expect(verify(null, text('1.4.2', 'c'.repeat(64)), publicKey, signature)).toBe(false);
    // Its private half is in DATA_DIR only, readable by the server's user alone.
    const file = path.join(s.dataDir, 'release-keys', `${rootId}.pem`);
    expect((await stat(file)).mode & 0o077).toBe(0);

    // Released: it can no longer change, go back to draft, be deleted, or lose its file.
    expect(errorsOf(await put('releases', id, { notes: 'Changed.' }, editor.token))).toEqual({
      notes: [RELEASE_TEXTS.releasedFixed],
    });
    expect(errorsOf(await put('releases', id, { version: '1.4.3' }, admin))).toEqual({
      version: [RELEASE_TEXTS.releasedFixed],
    });
    expect(errorsOf(await put('releases', id, { state: 'draft' }, editor.token))).toEqual({
      state: [RELEASE_TEXTS.moveNotAllowed],
    });
    expect(
      (await s.call('DELETE', apiPaths.model('releases', id), { token: editor.token })).status,
    ).toBe(422);
    expect(
      (await s.call('DELETE', apiPaths.model('files', fileId), { token: editor.token })).status,
    ).toBe(422);
    const added = await post(
      'files',
      {
        release_id: id,
        kind: 'artifact',
        name: 'extra.tgz',
        type: 'application/gzip',
        size: 3,
        sha256: 'd'.repeat(64),
      },
      editor.token,
    );
    expect(errorsOf(added)).toEqual({ release_id: [RELEASE_TEXTS.releasedFixed] });

    // Active and back to released; the signature stays the release's.
    const active = release(await put('releases', id, { state: 'active' }, editor.token));
    expect(active).toMatchObject({ state: 'active', signature: made.signature });
    expect(release(await put('releases', id, { state: 'released' }, editor.token)).state).toBe(
      'released',
    );
    // A draft goes to released first.
    const skip = await draft({ name: 'Skipper' }, editor.token);
    expect(errorsOf(await put('releases', skip, { state: 'active' }, editor.token))).toEqual({
      state: [RELEASE_TEXTS.moveNotAllowed],
    });
    // A draft may be deleted, with its files.
    expect(
      (await s.call('DELETE', apiPaths.model('releases', other), { token: editor.token })).status,
    ).toBe(200);
  });

  it('lets only who may edit releases release one or upload its file', async () => {
    const id = await draft({ name: 'Guarded agent' });
    expect((await put('releases', id, { state: 'released' }, viewer.token)).status).toBe(403);
    const file = await post(
      'files',
      {
        release_id: id,
        kind: 'artifact',
        name: 'agent.tgz',
        type: 'application/gzip',
        size: 3,
        sha256: 'e'.repeat(64),
      },
      viewer.token,
    );
    expect(file.status).toBe(403);
    // Without release management at all, not even its key.
    const outsider = await roleMember(s, {
      adminToken: admin,
      accountId: rootId,
      name: 'Outsider',
      permissions: [],
      domain: 'releases.test',
    });
    expect((await s.call('GET', apiPaths.releaseKey(), { token: outsider.token })).status).toBe(
      403,
    );
    expect(adminId).not.toBe('');
  });
});

describe('a rollout of a released version to gateways', () => {
  /** A released version (its artifact uploaded); answers its id. */
  async function released(json: Partial<ReleaseAttributes>): Promise<string> {
    const id = await draft(json);
    const fileId = await artifact(id, new TextEncoder().encode(`build of ${id}`));
    const answer = await put('releases', id, { artifact_file_id: fileId, state: 'released' });
    expect(answer.status, answer.text).toBe(200);
    return id;
  }
  const gateway = async (json: object): Promise<string> => {
    const made = await post('gateways', json);
    expect(made.status, made.text).toBe(201);
    return dataOf<SyncedModel>(made).id;
  };
  const deploy = (json: object, token = admin) => post('deployments', json, token);

  it('says why a deployment is not possible, and gives each chosen gateway its part in its batch', async () => {
    const board = dataOf<SyncedModel>(await post('boards', { name: 'Rollout board' })).id;
    const otherBoard = dataOf<SyncedModel>(await post('boards', { name: 'Other board' })).id;
    const line = await Promise.all(
      ['Line 1 gateway', 'Line 2 gateway', 'Line 3 gateway'].map((name) =>
        gateway({ name, tags: ['rollout-line'], board_id: board }),
      ),
    );
    const stranger = await gateway({ name: 'Stranger gateway', board_id: otherBoard });

    const notYet = await draft({ name: 'Rollout agent', version: '0.1.0' });
    expect(
      errorsOf(await deploy({ release_id: notYet, targets: { kind: 'tag', tag: 'rollout-line' } })),
    ).toEqual({ release_id: [DEPLOYMENT_TEXTS.notReleased] });
    const module = await released({ target: 'module', name: 'Rollout module', version: '1.0.0' });
    expect(errorsOf(await deploy({ release_id: module, targets: { kind: 'all' } }))).toEqual({
      release_id: [DEPLOYMENT_TEXTS.moduleTarget],
    });

    const agent = await released({ name: 'Rollout agent', version: '2.0.0', boards: [board] });
    // The board decides: a gateway of another board (or of none) is refused.
    expect(
      errorsOf(
        await deploy({
          release_id: agent,
          targets: { kind: 'list', gateway_ids: [line[0], stranger] },
        }),
      ),
    ).toEqual({ targets: [DEPLOYMENT_TEXTS.notCompatible] });
    // Only gateways of the account, and only by who manages gateways.
    expect(
      errorsOf(
        await deploy({
          release_id: agent,
          targets: { kind: 'list', gateway_ids: ['no-such-gateway'] },
        }),
      ),
    ).toEqual({ targets: [DEPLOYMENT_TEXTS.noAccess] });
    expect(
      errorsOf(
        await deploy(
          { release_id: agent, targets: { kind: 'tag', tag: 'rollout-line' } },
          editor.token,
        ),
      ),
    ).toEqual({ targets: [DEPLOYMENT_TEXTS.noAccess] });
    expect(
      errorsOf(await deploy({ release_id: agent, targets: { kind: 'tag', tag: 'no-such-tag' } })),
    ).toEqual({ targets: [DEPLOYMENT_TEXTS.noGateways] });

    const made = await deploy({
      release_id: agent,
      targets: { kind: 'tag', tag: 'rollout-line' },
      batch_size: 2,
      max_failure_rate: 0.5,
      counts: { succeeded: 3 },
      created_by: 'someone',
    });
    expect(made.status, made.text).toBe(201);
    const rollout = dataOf<SyncedModel>(made);
    expect(rollout.attributes).toMatchObject({
      state: 'running',
      batch: 0,
      created_by: adminId,
      counts: { pending: 3, succeeded: 0 },
    });
    // Each tagged gateway has its part, pending, two to a batch; who sees releases sees them.
    const parts = (await s.snapshot(viewer.token))
      .filter((m) => m.type === 'deployment_gateway')
      .map((m) => m.attributes as DeploymentGatewayAttributes)
      .filter((p) => p.deployment_id === rollout.id);
    expect(parts.map((p) => [p.gateway_id, p.batch, p.state]).sort()).toEqual(
      [
        [line[0], 0, 'pending'],
        [line[1], 0, 'pending'],
        [line[2], 1, 'pending'],
      ].sort(),
    );
    // A gateway's part is the server's: no client writes it.
    const partId = (await s.snapshot(admin)).find(
      (m) => m.type === 'deployment_gateway' && m.parent_id === rollout.id,
    )?.id;
    expect((await put('deployment_gateways', partId ?? '', { state: 'succeeded' })).status).toBe(
      403,
    );
    expect(
      (
        await post('deployment_gateways', {
          deployment_id: rollout.id,
          gateway_id: stranger,
          batch: 0,
        })
      ).status,
    ).toBe(403);

    // Paused, resumed, cancelled by a user; done or halted only by the server; kept.
    const move = (state: string) => put('deployments', rollout.id, { state });
    expect((await move('paused')).status).toBe(200);
    expect(errorsOf(await move('done'))).toEqual({ state: [DEPLOYMENT_TEXTS.moveNotAllowed] });
    expect((await move('running')).status).toBe(200);
    expect(errorsOf(await put('deployments', rollout.id, { batch_size: 5 }))).toEqual({
      batch_size: [expect.any(String)],
    });
    expect((await move('cancelled')).status).toBe(200);
    expect(errorsOf(await move('running'))).toEqual({ state: [DEPLOYMENT_TEXTS.moveNotAllowed] });
    expect(
      errorsOf(await s.call('DELETE', apiPaths.model('deployments', rollout.id), { token: admin })),
    ).toEqual({ state: [DEPLOYMENT_TEXTS.kept] });
  });
});

describe('a rollout under way, as the gateways see it', () => {
  interface Box {
    readonly id: string;
    readonly client: MqttClient;
    readonly configs: GatewayConfig[];
    readonly secret: string;
  }
  const boxes: Box[] = [];
  afterAll(async () => {
    for (const box of boxes) await box.client.endAsync();
  });

  /** A gateway of the account, tagged; `online`: its agent (played by hand) connects. */
  async function gatewayBox(name: string, online: boolean): Promise<{ id: string; box?: Box }> {
    const made = await post('gateways', { name, tags: ['wave'] });
    expect(made.status, made.text).toBe(201);
    const id = dataOf<SyncedModel>(made).id;
    if (!online) return { id };
    return { id, box: await connectBox(id) };
  }
  async function connectBox(id: string): Promise<Box> {
    const { secret } = await makeGatewayCredentials(s, admin, id);
    const client = await connectGateway(s, id, secret);
    const configs: GatewayConfig[] = [];
    client.on('message', (topic, payload) => {
      if (topic === gatewayTopics.config(id) && payload.length > 0)
        configs.push(gatewayConfigSchema.parse(JSON.parse(payload.toString())));
    });
    await client.subscribeAsync(gatewayTopics.config(id));
    const box = { id, client, configs, secret };
    boxes.push(box);
    await expect
      .poll(async () => (await gatewayOf(id)).connection, { timeout: 10_000 })
      .toBe('online');
    return box;
  }
  const gatewayOf = async (id: string) =>
    (await s.snapshot(admin)).find((m) => m.id === id)?.attributes as GatewayAttributes;
  const wanted = (box: Box) => box.configs.at(-1)?.update ?? null;
  const report = (box: Box, deployment: string, state: string, message: string | null = null) =>
    box.client.publishAsync(
      gatewayTopics.update(box.id),
      JSON.stringify({ deployment_id: deployment, state, version: '3.0.0', message }),
    );
  const rolloutOf = async (id: string) =>
    (await s.snapshot(admin)).find((m) => m.id === id)?.attributes as DeploymentAttributes;
  const partOf = async (deployment: string, gateway: string) =>
    (await s.snapshot(admin))
      .map((m) => m.attributes as DeploymentGatewayAttributes)
      .find((p) => p.deployment_id === deployment && p.gateway_id === gateway);

  it('offers the version batch by batch in each gateway’s configuration, and halts past its failure limit', async () => {
    const a = (await gatewayBox('Wave A', true)).box as Box;
    const b = (await gatewayBox('Wave B', true)).box as Box;
    const c = await gatewayBox('Wave C', false);
    const releaseId = await draft({ name: 'Wave agent', version: '3.0.0' });
    const bytes = new TextEncoder().encode('wave agent 3.0.0');
    const fileId = await artifact(releaseId, bytes);
    const signed = release(
      await put('releases', releaseId, { artifact_file_id: fileId, state: 'released' }),
    );
    const made = await post('deployments', {
      release_id: releaseId,
      targets: { kind: 'list', gateway_ids: [a.id, b.id, c.id] },
      batch_size: 1,
      max_failure_rate: 0.4,
    });
    expect(made.status, made.text).toBe(201);
    const rollout = dataOf<SyncedModel>(made).id;

    // The first batch's gateway is offered the version, signed, with the key to check it by.
    await expect.poll(() => wanted(a)?.version, { timeout: 10_000 }).toBe('3.0.0');
    expect(wanted(a)).toMatchObject({
      deployment_id: rollout,
      release_id: releaseId,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      signature: signed.signature,
      key_id: signed.key_id,
      size: bytes.length,
      artifact_path: apiPaths.gatewayArtifact(releaseId),
    });
    expect(a.configs.at(-1)?.release_key).toEqual({
      public_key: signed.public_key,
      key_id: signed.key_id,
    });
    expect(wanted(b)).toBeNull();
    // The gateway downloads it with its own login; no other gateway, no other login.
    const fetchAs = (box: Box, secret = box.secret) =>
      fetch(`${s.url}${API_BASE}/${apiPaths.gatewayArtifact(releaseId)}`, {
        headers: {
          Authorization: `Basic ${Buffer.from(`${gatewayBrokerLogin(box.id).username}:${secret}`).toString('base64')}`,
        },
      });
    const got = await fetchAs(a);
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
    expect((await fetchAs(b)).status).toBe(404);
    expect((await fetchAs(a, 'not-the-secret')).status).toBe(401);
    const asUser = await fetch(`${s.url}${API_BASE}/${apiPaths.gatewayArtifact(releaseId)}`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(asUser.status).toBe(401);

    // Its agent's reports move its part, live; succeeded, the next batch begins.
    await report(a, rollout, 'downloading');
    await expect.poll(async () => (await partOf(rollout, a.id))?.state).toBe('downloading');
    await report(a, rollout, 'installing');
    await report(a, rollout, 'succeeded');
    await expect.poll(async () => (await rolloutOf(rollout)).batch, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => wanted(b)?.version, { timeout: 10_000 }).toBe('3.0.0');
    // Its version is no longer wanted of the first: it runs it.
    await expect.poll(() => wanted(a), { timeout: 10_000 }).toBeNull();
    expect((await fetchAs(a)).status).toBe(404);
    // An end is final: a late report does not move it back.
    await report(a, rollout, 'downloading');
    // Another gateway's report names only its own part.
    await report(b, rollout, 'rolled_back', 'health check failed: broker not reached');
    await expect
      .poll(async () => (await rolloutOf(rollout)).state, { timeout: 10_000 })
      .toBe('halted');
    const halted = await rolloutOf(rollout);
    expect(halted).toMatchObject({
      reason: DEPLOYMENT_TEXTS.halted,
      counts: { succeeded: 1, rolled_back: 1, pending: 1 },
      batch: 1,
    });
    expect(await partOf(rollout, a.id)).toMatchObject({ state: 'succeeded' });
    expect(await partOf(rollout, b.id)).toMatchObject({
      state: 'rolled_back',
      message: 'health check failed: broker not reached',
    });
    // Halted: no gateway is offered it any more.
    await expect.poll(() => wanted(b), { timeout: 10_000 }).toBeNull();
  });

  it('goes on past a gateway that is offline, which gets the version when it comes back', async () => {
    const away = await gatewayBox('Away', false);
    const here = (await gatewayBox('Here', true)).box as Box;
    const releaseId = await draft({ name: 'Later agent', version: '3.1.0' });
    const fileId = await artifact(releaseId, new TextEncoder().encode('later agent'));
    await put('releases', releaseId, { artifact_file_id: fileId, state: 'released' });
    const made = await post('deployments', {
      release_id: releaseId,
      targets: { kind: 'list', gateway_ids: [away.id, here.id] },
      batch_size: 1,
    });
    const rollout = dataOf<SyncedModel>(made).id;
    // The first batch's only gateway is offline: the next batch begins (at the tick).
    await s.rollouts.weighAll();
    await expect.poll(() => wanted(here)?.version, { timeout: 10_000 }).toBe('3.1.0');
    await report(here, rollout, 'succeeded');
    // The one that was away comes back: its retained configuration wants the version.
    const back = await connectBox(away.id);
    await expect.poll(() => wanted(back)?.version, { timeout: 10_000 }).toBe('3.1.0');
    expect((await rolloutOf(rollout)).state).toBe('running');
    await report(back, rollout, 'succeeded');
    await expect
      .poll(async () => (await rolloutOf(rollout)).state, { timeout: 10_000 })
      .toBe('done');
    expect((await rolloutOf(rollout)).counts).toMatchObject({ succeeded: 2, pending: 0 });
  });

  it('keeps every change of a version, its rollout and each gateway’s step, with who did it and when', async () => {
    const box = (await gatewayBox('Kept', true)).box as Box;
    const releaseId = await draft({ name: 'Kept agent', version: '4.0.0' }, editor.token);
    const fileId = await artifact(releaseId, new TextEncoder().encode('kept agent'), editor.token);
    expect(
      (await put('releases', releaseId, { notes: 'Fixes the Modbus reconnect' }, editor.token))
        .status,
    ).toBe(200);
    await put('releases', releaseId, { artifact_file_id: fileId, state: 'released' });
    const made = await post('deployments', {
      release_id: releaseId,
      targets: { kind: 'list', gateway_ids: [box.id] },
    });
    const rollout = dataOf<SyncedModel>(made).id;
    expect((await put('deployments', rollout, { state: 'paused' })).status).toBe(200);
    expect((await put('deployments', rollout, { state: 'running' })).status).toBe(200);
    await expect.poll(() => wanted(box)?.version, { timeout: 10_000 }).toBe('4.0.0');
    await report(box, rollout, 'downloading');
    await report(box, rollout, 'failed', 'signature does not match');
    await expect
      .poll(async () => (await rolloutOf(rollout)).state, { timeout: 10_000 })
      .toBe('halted');

    const history = await s.call('GET', apiPaths.releaseHistory(releaseId), {
      token: viewer.token,
    });
    expect(history.status, history.text).toBe(200);
    const entries = dataOf<ReleaseHistoryEntry[]>(history);
    // Oldest first, as a reader follows it.
    const told = [...entries]
      .reverse()
      .map((e) => [e.subject, e.event, e.from_state, e.to_state, e.by, e.detail]);
    expect(told).toEqual([
      ['release', 'created', null, 'draft', editor.id, null],
      ['release', 'changed', null, null, editor.id, '["notes"]'],
      ['release', 'state', 'draft', 'released', adminId, null],
      ['release', 'changed', null, null, adminId, '["artifact_file_id"]'],
      ['deployment', 'created', null, 'running', adminId, '1'],
      ['deployment', 'state', 'running', 'paused', adminId, null],
      ['deployment', 'state', 'paused', 'running', adminId, null],
      ['gateway', 'state', 'pending', 'downloading', null, null],
      ['gateway', 'state', 'downloading', 'failed', null, 'signature does not match'],
      ['deployment', 'state', 'running', 'halted', null, DEPLOYMENT_TEXTS.halted],
    ]);
    expect(entries.find((e) => e.subject === 'gateway')?.subject_id).toBe(box.id);
    for (const e of entries) expect(e.at).toBeGreaterThan(Date.now() - 120_000);
    // Who may not see releases does not read it; a version of no account's is not found.
    const other = await roleMember(s, {
      adminToken: admin,
      accountId: rootId,
      name: 'Outsider2',
      permissions: ['gateway::view'],
      domain: 'releases.test',
    });
    expect(
      (await s.call('GET', apiPaths.releaseHistory(releaseId), { token: other.token })).status,
    ).toBe(403);
    expect(
      (await s.call('GET', apiPaths.releaseHistory(uuidv7()), { token: viewer.token })).status,
    ).toBe(404);
  });
});

describe('a module version made active on assets', () => {
  let client: MqttClient | undefined;
  afterAll(async () => {
    await client?.endAsync();
  });

  it('applies its interface to their gateways’ configuration, one version of a module at a time', async () => {
    const gw = await demoGateway(s, rootId, 2);
    const other = await demoGateway(s, rootId, 3);
    const { secret } = await makeGatewayCredentials(s, admin, gw.gatewayId);
    client = await connectGateway(s, gw.gatewayId, secret);
    const configs: GatewayConfig[] = [];
    client.on('message', (topic, payload) => {
      if (topic === gatewayTopics.config(gw.gatewayId) && payload.length > 0)
        configs.push(gatewayConfigSchema.parse(JSON.parse(payload.toString())));
    });
    await client.subscribeAsync(gatewayTopics.config(gw.gatewayId));
    await expect.poll(() => configs.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(configs.at(-1)?.modules).toEqual([]);

    const tabs = {
      interface: {
        datapoints: [{ key: 'spindle', address: 'HR 40001', type: 'number' as const, unit: 'rpm' }],
      },
      feature_flags: [{ key: 'eco_mode', enabled: true }],
      actions: [{ key: 'stop', label: 'Stop', datapoint: 'spindle', value: 0 }],
      datastreams: [{ key: 'speed', name: 'Spindle speed', datapoint: 'spindle', unit: 'rpm' }],
    };
    /** A released version of the press controller module. */
    const releasedModule = async (version: string) => {
      const id = await draft({
        target: 'module',
        name: 'Press controller',
        version,
        ...(tabs as unknown as Partial<ReleaseAttributes>),
      });
      const fileId = await artifact(id, new TextEncoder().encode(`press controller ${version}`));
      const answer = await put('releases', id, { artifact_file_id: fileId, state: 'released' });
      expect(answer.status, answer.text).toBe(200);
      return id;
    };
    const first = await releasedModule('1.0.0');
    // Only a module version runs on assets; the assets are the account's; who may not manage
    // gateways does not change their configuration.
    const agent = await draft({ name: 'Module-less agent', version: '9.0.0' });
    expect(errorsOf(await put('releases', agent, { assets: [gw.assetId] }))).toEqual({
      assets: [RELEASE_TEXTS.assetsOnModules],
    });
    expect(errorsOf(await put('releases', first, { assets: [uuidv7()] }))).toEqual({
      assets: [RELEASE_TEXTS.assetUnknown],
    });
    expect(errorsOf(await put('releases', first, { assets: [gw.assetId] }, editor.token))).toEqual({
      assets: [DEPLOYMENT_TEXTS.noAccess],
    });

    // Made active on the machine: its gateway's next configuration carries the interface.
    const active = await put('releases', first, { assets: [gw.assetId], state: 'active' });
    expect(active.status, active.text).toBe(200);
    await expect
      .poll(() => configs.at(-1)?.modules.map((m) => m.version), { timeout: 10_000 })
      .toEqual(['1.0.0']);
    expect(configs.at(-1)?.modules[0]).toEqual({
      release_id: first,
      name: 'Press controller',
      version: '1.0.0',
      asset_ids: [gw.assetId],
      datapoints: tabs.interface.datapoints,
      feature_flags: { eco_mode: true },
      actions: tabs.actions,
      datastreams: [{ ...tabs.datastreams[0], type: 'number' }],
    });
    // Another machine's gateway has none.
    expect((await configsOf(s.db, rootId)).get(other.gatewayId)?.modules).toEqual([]);

    // The next version made active replaces it: the first goes back to released.
    const second = await releasedModule('1.1.0');
    expect((await put('releases', second, { assets: [gw.assetId], state: 'active' })).status).toBe(
      200,
    );
    await expect
      .poll(() => configs.at(-1)?.modules.map((m) => m.version), { timeout: 10_000 })
      .toEqual(['1.1.0']);
    const snapshot = await s.snapshot(admin);
    const stateOf = (id: string) =>
      (snapshot.find((m) => m.id === id)?.attributes as ReleaseAttributes | undefined)?.state;
    expect([stateOf(first), stateOf(second)]).toEqual(['released', 'active']);
    // Who may not manage gateways neither takes it off its machines nor replaces it there.
    expect(errorsOf(await put('releases', second, { state: 'released' }, editor.token))).toEqual({
      assets: [DEPLOYMENT_TEXTS.noAccess],
    });
    const third = await releasedModule('1.2.0');
    expect(errorsOf(await put('releases', third, { state: 'active' }, editor.token))).toEqual({
      assets: [DEPLOYMENT_TEXTS.noAccess],
    });
    // Who manages gateways but may not edit the machine does not put it there.
    const narrow = await roleMember(s, {
      adminToken: admin,
      accountId: rootId,
      name: 'Narrow',
      permissions: [
        RELEASE_PERMISSIONS.view,
        RELEASE_PERMISSIONS.update,
        'gateway::view',
        'gateway::edit',
        'asset::view',
      ],
      domain: 'releases.test',
      assets: 'none',
    });
    expect(errorsOf(await put('releases', third, { assets: [gw.assetId] }, narrow.token))).toEqual({
      assets: [RELEASE_TEXTS.assetNotYours],
    });
    // Taken off the machine: the configuration has no module any more.
    expect((await put('releases', second, { assets: [] })).status).toBe(200);
    await expect.poll(() => configs.at(-1)?.modules.length, { timeout: 10_000 }).toBe(0);
    // On a new machine of that gateway (no streams of its own yet), which is then deleted: the
    // gateway's configuration follows.
    const made = await post('assets', { name: 'Press line 9', gateway_id: gw.gatewayId });
    expect(made.status, made.text).toBe(201);
    const machine = dataOf<SyncedModel>(made).id;
    expect((await put('releases', second, { assets: [machine] })).status).toBe(200);
    await expect
      .poll(() => configs.at(-1)?.modules[0]?.asset_ids, { timeout: 10_000 })
      .toEqual([machine]);
    const gone = await s.call('DELETE', apiPaths.model('assets', machine), { token: admin });
    expect(gone.status, gone.text).toBeLessThan(300);
    await expect.poll(() => configs.at(-1)?.modules.length, { timeout: 10_000 }).toBe(0);
  });
});
