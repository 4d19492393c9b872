import { createHash } from 'node:crypto';
import type { DashboardWidget, ModelType } from '@plant/shared-schema';
import type { Draw } from './fault-random';
import { fileBytes, type FaultTab } from './fault-tab';

/**
 * What one tab of the fault suite writes (issue 38 item 4), and what the server must show of it
 * afterwards: a seeded sequence over every kind the issue names (assets created, renamed and
 * deleted, and one asset both tabs rename; files of assets; alarms created and changed and their
 * acknowledgements; dashboards and their widgets; roles and their permissions), made through the
 * worker's API as the client makes them, while the schedule (fault-schedule.ts) breaks the
 * network and the server. Every write carries a value no other write has (a name with the run's
 * seed, the tab and the step), so the change log shows each write once, or twice if applied
 * twice.
 */

/** The world a tab writes in: ids from the server's seed. */
export interface WorkloadWorld {
  readonly seed: number;
  /** The asset of the agent's gateway, and its number streams (charts show them). */
  readonly agentAsset: string;
  readonly chartStreams: readonly string[];
  /**
   * Those of its number streams the agent read a point of just now: a new alarm watches one of
   * them. The agent reports a value only when it moved and the evaluator judges an alarm only on
   * its stream's points, so an alarm on a stream that stands still (a slow sine at its peak, a
   * random walk held at its range's end, for minutes) is not raised (seeds 100 and 604 once).
   */
  readonly movingStreams: () => readonly string[];
  /** A demo asset both tabs rename. */
  readonly sharedAsset: string;
  /** Permissions a role may be given. */
  readonly permissions: readonly string[];
}

/** A model this tab wrote, with the last value of every field it wrote. */
export interface Written {
  readonly type: ModelType;
  readonly id: string;
  readonly values: Record<string, unknown>;
  deleted: boolean;
  /** An asset with files: never deleted (its files would go with it). */
  holdsFiles: boolean;
}

/** One change-log entry a write must have made: exactly one, never two. */
export interface LogMark {
  readonly what: string;
  readonly type: ModelType;
  readonly id: string;
  readonly action: 'updated' | 'attributes_updated' | 'item_deleted';
  /** The write's own value of `name`, which no other write has (creates and updates). */
  readonly name?: string;
}

/** A file this tab added: what the server must hold once it is uploaded. */
export interface AddedFile {
  readonly id: string;
  readonly asset: string;
  readonly size: number;
  readonly sha256: string;
}

export type OpKind =
  | 'asset-create'
  | 'asset-rename'
  | 'asset-delete'
  | 'shared-rename'
  | 'file'
  | 'alarm-create'
  | 'alarm-update'
  | 'ack'
  | 'dashboard-create'
  | 'dashboard-update'
  | 'role-create'
  | 'role-update';

const WEIGHTS: Record<OpKind, number> = {
  'asset-create': 3,
  'asset-rename': 2,
  'asset-delete': 1,
  'shared-rename': 1,
  file: 1.5,
  'alarm-create': 1,
  'alarm-update': 1.5,
  ack: 2,
  'dashboard-create': 1,
  'dashboard-update': 2,
  'role-create': 1,
  'role-update': 1.5,
};

/** Every kind a run must have written at least once per tab (acks: once an alarm is raised). */
export const REQUIRED_KINDS: readonly OpKind[] = Object.keys(WEIGHTS) as OpKind[];

const SEVERITIES = ['info', 'warning', 'critical'] as const;
const KiB = 1024;

export class TabWorkload {
  readonly written = new Map<string, Written>();
  readonly marks: LogMark[] = [];
  readonly mutationIds: string[] = [];
  readonly files: AddedFile[] = [];
  /** Acknowledgements made: the ack's id and its alarm's. */
  readonly acks: { readonly id: string; readonly alarm: string }[] = [];
  /** The names this tab gave the shared asset, in order. */
  readonly sharedNames: string[] = [];
  readonly done = new Map<OpKind, number>();
  private step = 0;
  /** At most one file over the 4 MB chunk size per tab (two chunks: a fault may fall between). */
  private bigFile = false;

  constructor(
    readonly tab: FaultTab,
    private readonly world: WorkloadWorld,
    private readonly draw: Draw,
  ) {}

  private get prefix(): string {
    return `F${this.world.seed}-${this.tab.name}`;
  }

  private nextName(what: string): string {
    this.step += 1;
    return `${this.prefix} ${what} ${this.step}`;
  }

  private own(type: ModelType, ok: (w: Written) => boolean = () => true): Written[] {
    return [...this.written.values()].filter((w) => w.type === type && !w.deleted && ok(w));
  }

  private note(w: Written): void {
    this.written.set(`${w.type}:${w.id}`, w);
  }

  /**
   * Seeded writes, a pause between two, at least `count` of them and on while `more()` says so
   * (the fault schedule runs: a kill meets writes in flight). Then `missing` tells what kind
   * is still to be written.
   */
  async run(count: number, more: () => boolean, pause: () => Promise<void>): Promise<void> {
    // An alarm first: it is raised by the agent's next point, and then acknowledged.
    await this.op('alarm-create');
    for (let i = 1; i < count || more(); i++) {
      await pause();
      await this.op(this.draw.weighted(WEIGHTS));
    }
  }

  /** The kinds not written yet (an acknowledgement waits for a raised alarm). */
  missing(): OpKind[] {
    return REQUIRED_KINDS.filter((k) => (this.done.get(k) ?? 0) === 0);
  }

  /** Writes one of `kind`, or the create it needs first; false when it could not (no raise yet). */
  async op(kind: OpKind): Promise<boolean> {
    const did = await this.try(kind);
    if (did !== undefined) this.done.set(did, (this.done.get(did) ?? 0) + 1);
    return did === kind;
  }

  private async try(kind: OpKind): Promise<OpKind | undefined> {
    switch (kind) {
      case 'asset-create':
        await this.assetCreate();
        return kind;
      case 'asset-rename': {
        const asset = this.own('asset');
        if (asset.length === 0) return this.try('asset-create');
        await this.rename(this.draw.pick(asset));
        return kind;
      }
      case 'asset-delete': {
        const asset = this.own('asset', (w) => !w.holdsFiles);
        if (asset.length === 0) return this.try('asset-create');
        await this.remove(this.draw.pick(asset));
        return kind;
      }
      case 'shared-rename':
        await this.sharedRename();
        return kind;
      case 'file': {
        const asset = this.own('asset');
        if (asset.length === 0) return this.try('asset-create');
        await this.file(this.draw.pick(asset));
        return kind;
      }
      case 'alarm-create':
        await this.alarmCreate();
        return kind;
      case 'alarm-update': {
        const alarm = this.own('alarm');
        if (alarm.length === 0) return this.try('alarm-create');
        await this.alarmUpdate(this.draw.pick(alarm));
        return kind;
      }
      case 'ack':
        return (await this.ack()) ? kind : undefined;
      case 'dashboard-create':
        await this.dashboardCreate();
        return kind;
      case 'dashboard-update': {
        const dashboard = this.own('dashboard');
        if (dashboard.length === 0) return this.try('dashboard-create');
        await this.dashboardUpdate(this.draw.pick(dashboard));
        return kind;
      }
      case 'role-create':
        await this.roleCreate();
        return kind;
      case 'role-update': {
        const role = this.own('role');
        if (role.length === 0) return this.try('role-create');
        await this.roleUpdate(this.draw.pick(role));
        return kind;
      }
      default: {
        const unknown: never = kind;
        throw new Error(`unknown write ${String(unknown)}`);
      }
    }
  }

  private async assetCreate(): Promise<void> {
    const name = this.nextName('asset');
    const made = await this.tab.create('asset', { name });
    this.mutationIds.push(made.mutationId);
    this.note({ type: 'asset', id: made.id, values: { name }, deleted: false, holdsFiles: false });
    this.marks.push({
      what: `create asset ${name}`,
      type: 'asset',
      id: made.id,
      action: 'updated',
    });
  }

  /** A new unique name: the write's mark in the log. */
  private async rename(w: Written): Promise<void> {
    const name = this.nextName('asset renamed');
    this.mutationIds.push(await this.tab.update('asset', w.id, { name }));
    w.values.name = name;
    this.marks.push({
      what: `rename asset to ${name}`,
      type: 'asset',
      id: w.id,
      action: 'attributes_updated',
      name,
    });
  }

  private async remove(w: Written): Promise<void> {
    this.mutationIds.push(await this.tab.remove(w.type, w.id));
    w.deleted = true;
    this.marks.push({
      what: `delete ${w.type} ${w.id}`,
      type: w.type,
      id: w.id,
      action: 'item_deleted',
    });
  }

  private async sharedRename(): Promise<void> {
    const name = this.nextName('shared machine');
    const id = this.world.sharedAsset;
    this.mutationIds.push(await this.tab.update('asset', id, { name }));
    this.sharedNames.push(name);
    this.marks.push({
      what: `rename the shared asset to ${name}`,
      type: 'asset',
      id,
      action: 'attributes_updated',
      name,
    });
  }

  private async file(asset: Written): Promise<void> {
    const big = !this.bigFile && this.draw.chance(0.25);
    if (big) this.bigFile = true;
    const size = big ? this.draw.int(4_200, 5_500) * KiB : this.draw.int(1, 400) * KiB;
    const seed = this.draw.int(0, 1_000_000);
    const name = `${this.nextName('file')}.txt`;
    const made = await this.tab.addFile(asset.id, name, size, seed);
    asset.holdsFiles = true;
    this.mutationIds.push(made.mutationId);
    const sha256 = createHash('sha256').update(fileBytes(size, seed)).digest('hex');
    this.files.push({ id: made.id, asset: asset.id, size, sha256 });
    this.note({
      type: 'file',
      id: made.id,
      values: { name, size, sha256 },
      deleted: false,
      holdsFiles: false,
    });
    this.marks.push({ what: `add file ${name}`, type: 'file', id: made.id, action: 'updated' });
  }

  private async alarmCreate(): Promise<void> {
    const name = this.nextName('alarm');
    const moving = this.world.movingStreams();
    const severity = this.draw.pick(SEVERITIES);
    const made = await this.tab.create('alarm', {
      asset_id: this.world.agentAsset,
      datastream_id: this.draw.pick(moving.length > 0 ? moving : this.world.chartStreams),
      name,
      // Always exceeded: raised by the stream's next point and never cleared, so that it waits
      // for its acknowledgement.
      condition: 'greater',
      upper_limit: -1_000_000,
      severity,
      delay_s: 0,
    });
    this.mutationIds.push(made.mutationId);
    this.note({
      type: 'alarm',
      id: made.id,
      values: { name, severity },
      deleted: false,
      holdsFiles: false,
    });
    this.marks.push({
      what: `create alarm ${name}`,
      type: 'alarm',
      id: made.id,
      action: 'updated',
    });
  }

  private async alarmUpdate(w: Written): Promise<void> {
    const name = this.nextName('alarm renamed');
    const severity = this.draw.pick(SEVERITIES);
    this.mutationIds.push(await this.tab.update('alarm', w.id, { name, severity }));
    Object.assign(w.values, { name, severity });
    this.marks.push({
      what: `change alarm to ${name}`,
      type: 'alarm',
      id: w.id,
      action: 'attributes_updated',
      name,
    });
  }

  /**
   * Acknowledges one of this tab's alarms that its store shows raised and not acknowledged, as a
   * user does from the alarm's page; false when none is (no point has raised one yet).
   */
  private async ack(): Promise<boolean> {
    const acked = new Set(this.acks.map((a) => a.alarm));
    for (const alarm of this.own('alarm', (w) => !acked.has(w.id))) {
      const local = await this.tab.page.get('alarm', alarm.id);
      const status = local?.attributes.status;
      if (status?.state !== 'active' || status.acknowledged) continue;
      const note = this.nextName('ack');
      const made = await this.tab.create('alarm_ack', {
        alarm_id: alarm.id,
        asset_id: this.world.agentAsset,
        note,
      });
      this.mutationIds.push(made.mutationId);
      this.acks.push({ id: made.id, alarm: alarm.id });
      this.note({
        type: 'alarm_ack',
        id: made.id,
        values: { note },
        deleted: false,
        holdsFiles: false,
      });
      this.marks.push({
        what: `acknowledge alarm ${alarm.id}`,
        type: 'alarm_ack',
        id: made.id,
        action: 'updated',
      });
      return true;
    }
    return false;
  }

  private widgets(count: number): DashboardWidget[] {
    return Array.from({ length: count }, (_, i): DashboardWidget => {
      const y = i * 4;
      return this.draw.chance(0.5)
        ? {
            id: `w${this.step}x${i}`,
            type: 'text',
            x: 0,
            y,
            w: this.draw.int(4, 24),
            h: 4,
            title: null,
            streams: [],
            options: { text: `${this.prefix} text ${this.step}.${i}` },
          }
        : {
            id: `w${this.step}x${i}`,
            type: 'line',
            x: this.draw.int(0, 12),
            y,
            w: 12,
            h: 4,
            title: `${this.prefix} chart ${this.step}.${i}`,
            streams: [this.draw.pick(this.world.chartStreams)],
            options: {},
          };
    });
  }

  private async dashboardCreate(): Promise<void> {
    const name = this.nextName('dashboard');
    const widgets = this.widgets(this.draw.int(1, 3));
    const made = await this.tab.create('dashboard', { name, widgets });
    this.mutationIds.push(made.mutationId);
    this.note({
      type: 'dashboard',
      id: made.id,
      values: { name, widgets },
      deleted: false,
      holdsFiles: false,
    });
    this.marks.push({
      what: `create dashboard ${name}`,
      type: 'dashboard',
      id: made.id,
      action: 'updated',
    });
  }

  /** New widgets (moved, resized, other texts and streams) and a new name in one write. */
  private async dashboardUpdate(w: Written): Promise<void> {
    const name = this.nextName('dashboard changed');
    const widgets = this.widgets(this.draw.int(1, 4));
    this.mutationIds.push(await this.tab.update('dashboard', w.id, { name, widgets }));
    Object.assign(w.values, { name, widgets });
    this.marks.push({
      what: `change dashboard to ${name}`,
      type: 'dashboard',
      id: w.id,
      action: 'attributes_updated',
      name,
    });
  }

  private permissions(): string[] {
    return this.world.permissions.filter(() => this.draw.chance(0.5)).sort();
  }

  private async roleCreate(): Promise<void> {
    const name = this.nextName('role');
    const permissions = this.permissions();
    const made = await this.tab.create('role', { name, permissions });
    this.mutationIds.push(made.mutationId);
    this.note({
      type: 'role',
      id: made.id,
      values: { name, permissions },
      deleted: false,
      holdsFiles: false,
    });
    this.marks.push({
      what: `create role ${name}`,
      type: 'role',
      id: made.id,
      action: 'updated',
      name,
    });
  }

  private async roleUpdate(w: Written): Promise<void> {
    const name = this.nextName('role changed');
    const permissions = this.permissions();
    this.mutationIds.push(await this.tab.update('role', w.id, { name, permissions }));
    Object.assign(w.values, { name, permissions });
    this.marks.push({
      what: `change role to ${name}`,
      type: 'role',
      id: w.id,
      action: 'updated',
      name,
    });
  }
}
