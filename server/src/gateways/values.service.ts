import {
  assetModel,
  can,
  CODE_NOT_VALID,
  NO_VALUE_TO_TRY,
  type PreprocessingTry,
  type PreprocessingTryAnswer,
  connectionModel,
  datastreamModel,
  gatewayModel,
  type ConnectionAttributes,
  type GatewayLogLine,
  type LatestValues,
  type OpcuaNodesAnswer,
  type StreamValues,
  type TerminalAudit,
  type ValueRetention,
  VALUE_RETENTION_PERMISSION,
  codeReason,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';
import { DomainError, forbidden, invalidInput, notFound } from '../services/domain-error';
import { typeProblem } from './ingest';
import type { Session } from '../services/user.service';
import type { MachineData } from './machine-data';
import type { StreamInfo } from './stream-directory';

/**
 * The reads of machine data (DESIGN.md §8) and the requests that go through a gateway's agent.
 * Every read is of the active account, with the permission of what it reads: datastream::view
 * for values, gateway::edit for the address space of a gateway's device.
 */
export class ValuesService {
  private readonly models: ModelRepository;
  private readonly accounts: AccountRepository;

  constructor(
    db: Db,
    private readonly data: MachineData,
  ) {
    this.models = new ModelRepository(db);
    this.accounts = new AccountRepository(db);
  }

  /** How long the active account keeps values (read with datastream::view). */
  async retention(session: Session): Promise<ValueRetention> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, datastreamModel.permissions.view))
      throw forbidden();
    const days = await this.accounts.valueRetentionOf(accountId);
    if (days === undefined) throw notFound('Account');
    return { days: days as ValueRetention['days'] };
  }

  /**
   * Changes it (account::edit). Values past a shorter retention go at the value pruner's next
   * hourly round, not at once: a mistaken choice can still be taken back within the hour.
   */
  async setRetention(session: Session, retention: ValueRetention): Promise<ValueRetention> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, VALUE_RETENTION_PERMISSION)) throw forbidden();
    await this.accounts.setValueRetention(accountId, retention.days);
    return retention;
  }

  /** The streams named, each in the active account, or 404 for the first that is not. */
  private async streams(session: Session, ids: readonly string[]): Promise<StreamInfo[]> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, datastreamModel.permissions.view))
      throw forbidden();
    const known = await this.data.streams.streamsOf(accountId);
    return ids.map((id) => {
      const stream = known.get(id);
      // A stream of an asset the user does not see is as unknown as one that does not exist.
      if (stream === undefined || !session.access.seesAsset(stream.assetId)) {
        throw notFound('Data stream');
      }
      return stream;
    });
  }

  async range(
    session: Session,
    ids: readonly string[],
    q: { from: number; to: number; points: number; aggregate?: 'hour' | undefined },
  ): Promise<StreamValues[]> {
    const streams = await this.streams(session, ids);
    if (q.aggregate === 'hour') {
      // Hourly rollups instead of points (a bar chart per hour, day or week).
      const rows = await this.data.store.hours(
        streams.map((s) => s.id),
        q.from,
        q.to,
      );
      return rows.map((r) => ({
        stream: r.stream,
        from: q.from,
        to: q.to,
        downsampled: true,
        points: [],
        hours: r.hours,
      }));
    }
    const ranges = await this.data.store.range(
      streams.map((s) => s.id),
      q.from,
      q.to,
      q.points,
    );
    return ranges.map((r) => ({
      stream: r.stream,
      from: r.from,
      to: r.to,
      downsampled: r.downsampled,
      points: r.points,
    }));
  }

  /**
   * Runs pre-processing code (not yet saved) on one value of the stream, the latest stored one
   * unless a value is given, in the same sandbox as ingest (datastream::edit). Code that breaks
   * the rules, fails, or makes a value the stream's type refuses answers 422 'This code is not
   * valid' with the reason on the `code` field.
   */
  async tryPreprocessing(
    session: Session,
    id: string,
    body: PreprocessingTry,
  ): Promise<PreprocessingTryAnswer> {
    if (!can(session.ctx, datastreamModel.permissions.update)) throw forbidden();
    const [stream] = await this.streams(session, [id]);
    if (stream === undefined) throw notFound('Data stream');
    if (!session.access.editsAsset(stream.assetId)) throw forbidden();
    const notValid = (reason: string) =>
      new DomainError('invalid', CODE_NOT_VALID, { fields: { code: [reason] } });
    const reason = codeReason(body.code);
    if (reason !== undefined) throw notValid(reason);
    let input: [number, number | string | boolean];
    if (body.value !== undefined) {
      input = [this.data.clock.now(), body.value];
    } else {
      const latest = (await this.data.store.latest([stream.id])).get(stream.id);
      if (latest === undefined) throw invalidInput({ value: [NO_VALUE_TO_TRY] });
      input = [latest.ts, latest.value];
    }
    // Off the main thread: code that runs to its time limit must not hold up other requests.
    const [outcome] = await this.data.preprocessor.runAsync(body.code, [
      { value: input[1], ts: input[0], previous: null },
    ]);
    if (outcome === undefined || outcome.kind === 'dropped') return { input, output: null };
    if (outcome.kind === 'error') throw notValid(outcome.error);
    const wrong = typeProblem(stream, outcome.value);
    if (wrong !== undefined) throw notValid(wrong);
    return { input, output: outcome.value };
  }

  /** The raw points of one stream over a range, for the CSV download (read as they are sent). */
  async scan(session: Session, id: string, q: { from: number; to: number }) {
    const [stream] = await this.streams(session, [id]);
    if (stream === undefined) throw notFound('Data stream');
    return { stream, rows: this.data.store.scan(stream.id, q.from, q.to) };
  }

  async latest(session: Session, assetId: string): Promise<LatestValues> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, datastreamModel.permissions.view))
      throw forbidden();
    const asset = await this.models.find(accountId, assetModel.type, assetId);
    if (asset === undefined || !session.access.seesAsset(assetId)) throw notFound('Asset');
    const streams = [...(await this.data.streams.streamsOf(accountId)).values()]
      .filter((s) => s.assetId === assetId)
      .map((s) => s.id);
    const latest = await this.data.store.latest(streams);
    return streams.flatMap((stream) => {
      const v = latest.get(stream);
      return v === undefined ? [] : [{ stream, ts: v.ts, value: v.value }];
    });
  }

  /** A gateway agent's recent log lines (gateway::view), oldest first. */
  async gatewayLogs(session: Session, gatewayId: string): Promise<readonly GatewayLogLine[]> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, gatewayModel.permissions.view))
      throw forbidden();
    const gateway = await this.models.find(accountId, gatewayModel.type, gatewayId);
    if (gateway === undefined) throw notFound('Gateway');
    return this.data.logs.of(gatewayId);
  }

  /** The gateway terminal's audit list (internal tag and gateway::view). */
  terminalAudit(session: Session, gatewayId: string): Promise<TerminalAudit> {
    return this.data.terminal.list(session, gatewayId);
  }

  /** OPC UA browse or search on a connection of the gateway, through its agent. */
  async opcua(
    session: Session,
    gatewayId: string,
    request:
      | { op: 'opcua-browse'; connection_id: string; node_id?: string }
      | { op: 'opcua-search'; connection_id: string; query: string; max_results: number },
  ): Promise<OpcuaNodesAnswer> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, gatewayModel.permissions.update))
      throw forbidden();
    const gateway = await this.models.find(accountId, gatewayModel.type, gatewayId);
    if (gateway === undefined) throw notFound('Gateway');
    const connection = await this.models.find(
      accountId,
      connectionModel.type,
      request.connection_id,
    );
    const attributes =
      connection === undefined
        ? undefined
        : (JSON.parse(connection.attributes) as ConnectionAttributes);
    if (attributes === undefined || attributes.gateway_id !== gatewayId)
      throw notFound('Connection');
    if (attributes.protocol !== 'opcua') {
      throw new DomainError('invalid', 'This connection is not an OPC UA connection.', {
        fields: { connection_id: ['This connection is not an OPC UA connection.'] },
      });
    }
    const answer = await this.data.requests.ask(gatewayId, request);
    if (!answer.ok) throw new DomainError('unavailable', answer.error);
    if (!('nodes' in answer)) throw new DomainError('unavailable', 'The gateway answered wrongly.');
    return { nodes: answer.nodes, truncated: answer.truncated };
  }
}
