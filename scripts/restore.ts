/**
 * `npm run restore -- --from DIR [--force]` (DESIGN.md §16): puts a backup of `npm run backup`
 * back into DATA_DIR, and into the Postgres database when DATABASE_URL is set, with the server
 * stopped (server/src/backup/restore.ts). Reads DATA_DIR and DATABASE_URL as `npm start` does.
 */
import { restoreCommand } from '../server/src/backup/commands';

process.exitCode = await restoreCommand(process.argv.slice(2), process.env);
