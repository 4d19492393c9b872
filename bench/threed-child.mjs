// One side of the 3D processing bench (threed.bench.ts), in a process of its own so that its
// peak memory is its own: `ours <dir>` runs the server's conversion (convert.ts) on the upload in
// <dir>; `cli <args…>` runs gltf-transform's CLI with those arguments. Either way the last line
// on stdout is JSON: { maxRssKb } (process.resourceUsage's peak resident set).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [mode, ...rest] = process.argv.slice(2);
process.on('exit', () => {
  process.stdout.write(`\n${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })}\n`);
});
if (mode === 'ours') {
  const { register } = await import('tsx/esm/api');
  register();
  const { convert } = await import('../server/src/threed/convert.ts');
  const outcome = await convert(rest[0]);
  if (!('ok' in outcome)) throw new Error(outcome.refused);
} else {
  // The package exports no path to its bin: found beside its package.json.
  const entry = fileURLToPath(import.meta.resolve('@gltf-transform/cli'));
  const cli = path.join(path.dirname(entry), '..', 'bin', 'cli.js');
  process.argv = [process.argv[0], cli, ...rest];
  await import(pathToFileURL(cli).href);
}
