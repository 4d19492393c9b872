import { benchGetUser } from './get-user.bench';

/** `npm run bench`: every benchmark, each printing `name: ratio (ours/baseline) …` lines. */
const benches: [string, () => Promise<string[]>][] = [['get-user', benchGetUser]];

for (const [name, bench] of benches) {
  process.stdout.write(`running ${name}...\n`);
  for (const line of await bench()) process.stdout.write(`${line}\n`);
}
