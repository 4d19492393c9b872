import { createHash } from 'node:crypto';
import { API_BASE, apiPaths, uuidv7 } from '@plant/shared-schema';
import type { TestServer } from './harness';

/** Whose 3D model: an asset's (its id) or a template's. */
export type ModelOwner = string | { readonly template: string };

function ownerFields(owner: ModelOwner) {
  return typeof owner === 'string'
    ? { asset_id: owner, template_id: null }
    : { asset_id: null, template_id: owner.template };
}

/*
 * A 3D model made as a client makes one (issue 32): each file created as a 3D model file of the
 * asset (or template) and its bytes sent in one chunk through the resumable path, then the
 * `threedmodel` naming them by their paths. Answers the model's id; the server processes it in
 * the background.
 */
export async function uploadModel(
  server: TestServer,
  token: string,
  assetId: ModelOwner,
  name: string,
  files: Readonly<Record<string, Uint8Array | string>>,
): Promise<string> {
  const sources: { file_id: string; path: string }[] = [];
  for (const [path, content] of Object.entries(files)) {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    sources.push({ file_id: await uploadModelFile(server, token, assetId, path, bytes), path });
  }
  const id = uuidv7();
  const made = await server.call('POST', apiPaths.collection('threedmodels'), {
    token,
    json: { id, ...ownerFields(assetId), name, sources },
  });
  if (made.status !== 201) throw new Error(`threedmodel: ${made.status} ${made.text}`);
  return id;
}

/** One file of a 3D model, uploaded whole; answers its id. */
export async function uploadModelFile(
  server: TestServer,
  token: string,
  assetId: ModelOwner,
  path: string,
  bytes: Uint8Array,
): Promise<string> {
  const id = uuidv7();
  const made = await server.call('POST', apiPaths.collection('files'), {
    token,
    json: {
      id,
      ...ownerFields(assetId),
      kind: 'model',
      name: path.split('/').at(-1) ?? path,
      type: 'application/octet-stream',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  });
  if (made.status !== 201) throw new Error(`file: ${made.status} ${made.text}`);
  await uploadWhole(server, token, id, bytes);
  return id;
}

/** A file model's bytes in one chunk through the resumable path (throws unless stored). */
export async function uploadWhole(
  server: TestServer,
  token: string,
  fileId: string,
  bytes: Uint8Array,
): Promise<void> {
  const put = await fetch(`${server.url}${API_BASE}/${apiPaths.fileUpload(fileId, 0)}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  if (put.status !== 200) throw new Error(`upload: ${put.status}`);
}
