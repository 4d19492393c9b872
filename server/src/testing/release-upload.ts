import { createHash } from 'node:crypto';
import { apiPaths, uuidv7 } from '@plant/shared-schema';
import type { TestServer } from './harness';
import { uploadWhole } from './model-upload';

/**
 * A file of a model that owns files (a release's artifact, a theme's image) uploaded as a client
 * uploads it: the file model of its kind under the owner, then its bytes in one chunk through the
 * resumable path. Answers the file's id; throws when the server refuses either.
 */
export async function uploadOwnedFile(
  server: TestServer,
  token: string,
  owner: Readonly<Record<string, string>>,
  kind: string,
  bytes: Uint8Array,
  file: { readonly name: string; readonly type: string },
): Promise<string> {
  const id = uuidv7();
  const made = await server.call('POST', apiPaths.collection('files'), {
    token,
    json: {
      id,
      ...owner,
      kind,
      name: file.name,
      type: file.type,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  });
  if (made.status !== 201) throw new Error(`${kind}: ${made.status} ${made.text}`);
  await uploadWhole(server, token, id, bytes);
  return id;
}

/** A release's artifact (issue 35), as uploadOwnedFile. */
export function uploadArtifact(
  server: TestServer,
  token: string,
  releaseId: string,
  bytes: Uint8Array,
  file: { readonly name?: string; readonly type?: string } = {},
): Promise<string> {
  return uploadOwnedFile(server, token, { release_id: releaseId }, 'artifact', bytes, {
    name: file.name ?? 'agent.tgz',
    type: file.type ?? 'application/gzip',
  });
}
