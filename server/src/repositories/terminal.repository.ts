import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/** Longest output kept in the audit list. */
const KEPT_OUTPUT = 4_000;

export interface TerminalRecord {
  readonly id: string;
  readonly line: string;
  readonly user: string;
  readonly at: number;
  readonly ok: boolean | null;
  readonly output: string | null;
}

/** The gateway terminal's audit list (terminal_commands), per account. */
export class TerminalRepository {
  constructor(private readonly db: Db) {}

  async record(
    accountId: string,
    row: { id: string; gatewayId: string; userId: string; line: string; at: number },
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .insertInto('terminal_commands', [
        {
          id: row.id,
          gateway_id: row.gatewayId,
          user_id: row.userId,
          line: row.line,
          ok: null,
          output: null,
          created_at: row.at,
        },
      ])
      .execute();
  }

  async answered(accountId: string, id: string, ok: boolean, output: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('terminal_commands')
      .set({ ok: ok ? 1 : 0, output: output.slice(0, KEPT_OUTPUT) })
      .where('id', '=', id)
      .execute();
  }

  /** The gateway's commands, newest first, with the email of who sent each. */
  async list(accountId: string, gatewayId: string, limit = 100): Promise<TerminalRecord[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('terminal_commands')
      .leftJoin('users', 'users.id', 'terminal_commands.user_id')
      .select([
        'terminal_commands.id',
        'terminal_commands.line',
        'terminal_commands.ok',
        'terminal_commands.output',
        'terminal_commands.created_at',
        'users.email',
      ])
      .where('terminal_commands.gateway_id', '=', gatewayId)
      .orderBy('terminal_commands.created_at', 'desc')
      .orderBy('terminal_commands.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      line: r.line,
      user: r.email ?? '',
      at: r.created_at,
      ok: r.ok === null ? null : r.ok === 1,
      output: r.output,
    }));
  }

  async userEmail(userId: string): Promise<string> {
    const row = await this.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.email ?? '';
  }
}
