import { createHash } from 'node:crypto';
import { apiPaths, uuidv7 } from '@plant/shared-schema';
import type { TestServer } from './harness';
import { uploadWhole } from './model-upload';

/**
 * A release's artifact uploaded as a client uploads it (issue 35): the file model of kind
 * `artifact` under the release, then its bytes in one chunk through the resumable path. Answers
 * the file's id; throws when the server refuses either.
 */
export async function uploadArtifact(
  server: TestServer,
  token: string,
  releaseId: string,
  bytes: Uint8Array,
  file: { readonly name?: string; readonly type?: string } = {},
): Promise<string> {
  const id = uuidv7();
  const made = await server.call('POST', apiPaths.collection('files'), {
    token,
    json: {
      id,
      release_id: releaseId,
      kind: 'artifact',
      name: file.name ?? 'agent.tgz',
      type: file.type ?? 'application/gzip',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  });
  if (made.status !== 201) throw new Error(`artifact: ${made.status} ${made.text}`);
  await uploadWhole(server, token, id, bytes);
  return id;
}
