import type { Db } from '../db/database';
import type { MachineContext } from '@plant/shared-schema';
import type { AccessDecision } from './access-decision';

/**
 * A model about to be created, as each area's rules of a new model see it (forms, feedback,
 * service requests, inspections): in the create's transaction, after the schema and the access
 * checks, with the attributes still open to the server's own fields. One shape, so the write
 * path runs the areas' rules as a list (services/model-transaction.ts CREATE_RULES) and an area
 * that needs one more fact takes it from here.
 */
export interface NewModel {
  readonly trx: Db;
  readonly accountId: string;
  readonly type: string;
  readonly attributes: Record<string, unknown>;
  /** Who writes; undefined for the server's own writes. */
  readonly access: AccessDecision | undefined;
  /** The server writes (a seed, a leader's job): its own fields are taken as given. */
  readonly asServer: boolean;
  readonly now: number;
  /** The machines' latest values, for what a new model records of them (service requests). */
  readonly machine: MachineContextSource | undefined;
}

/** What the server reads of a machine for a service request's context (machine-context.ts). */
export interface MachineContextSource {
  contextOf(trx: Db, accountId: string, assetId: string, now: number): Promise<MachineContext>;
}

/** An area's rules of a new model: each looks only at the types it knows. */
export type CreateRule = (created: NewModel) => Promise<void>;
