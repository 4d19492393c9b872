import type { TcpProxy } from '../../sync-worker/src/testing/tcp-proxy';
import type { FaultAgent } from './fault-agent';
import type { FaultServer } from './fault-server';
import type { FaultTab } from './fault-tab';
import type { TabWorkload } from './fault-workload';

/*
 * What the fault suite tells about a run besides its checks (issue 38 item 4): where things
 * stood when it failed or waited long, and the proxies' figures.
 */

/** Each tab's status, and the server's state of the alarms it made (a failure's report). */
export async function describeTabs(
  server: FaultServer,
  tabs: readonly FaultTab[],
): Promise<string> {
  const lines = [
    `server: ${server.running ? 'running' : 'not running'}, killed ${server.kills} times`,
  ];
  for (const tab of tabs) {
    const status = await tab.status();
    const { lastSeq } = await tab.stored();
    const clock = server.clock(tab.session.accountId);
    lines.push(
      `${tab.name}: store at seq ${lastSeq} of ${clock}, ${JSON.stringify({ connection: status?.connection, bootstrap: status?.bootstrap, pending: status?.pendingWrites, failed: status?.failedWrites })}`,
    );
  }
  // The run's alarms: their status, their evaluator state, and the points of their streams.
  const alarms = server.platform((db) =>
    (
      db.prepare(`select id, attributes from models where type = 'alarm'`).all() as {
        id: string;
        attributes: string;
      }[]
    ).map((row) => ({
      ...row,
      state: db.prepare('select * from alarm_states where alarm_id = ?').get(row.id),
    })),
  );
  const points = (stream: string) =>
    server.timeSeries((db) =>
      db
        .prepare(
          'select count(*) as n, max(ts) as last from ts_points where series = (select id from ts_series where stream = ?)',
        )
        .get(stream),
    );
  for (const a of alarms) {
    const { name, status, datastream_id } = JSON.parse(a.attributes) as {
      name: string;
      status: unknown;
      datastream_id: string;
    };
    if (!name.startsWith('F')) continue;
    lines.push(
      `alarm ${name}: ${JSON.stringify(status)}; state ${JSON.stringify(a.state)}; its stream ${datastream_id}: ${JSON.stringify(points(datastream_id))}, now ${Date.now()}`,
    );
  }
  return lines.join('\n');
}

/** Where a tab's alarms stand, on the server and in its store (a long wait's report). */
export async function diagnoseAlarms(
  server: FaultServer,
  workload: TabWorkload,
  agent: FaultAgent,
): Promise<string> {
  const lines: string[] = [];
  const { lastSeq } = await workload.tab.stored();
  lines.push(`store at ${lastSeq} of ${server.clock(workload.tab.session.accountId)}`);
  lines.push(JSON.stringify((await workload.tab.status())?.connection));
  lines.push(agent.describe());
  for (const [key, w] of workload.written) {
    if (w.type !== 'alarm') continue;
    const stored = server.platform(
      (db) =>
        db.prepare('select attributes, last_seq from models where id = ?').get(w.id) as
          { attributes: string; last_seq: number } | undefined,
    );
    const local = await workload.tab.page.get('alarm', w.id);
    const status =
      stored === undefined
        ? undefined
        : (JSON.parse(stored.attributes) as { status: unknown }).status;
    lines.push(
      `${key}: server ${JSON.stringify(status)} at ${stored?.last_seq}; store ${JSON.stringify(local?.attributes.status)} pending ${String(local?.pending)}`,
    );
  }
  return lines.join('\n    ');
}

/** A proxy's counts in one line. */
export function proxyFigures(name: string, proxy: TcpProxy): string {
  const s = proxy.stats;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return `${name}: ${s.connections} connections, ${s.resets} reset, ${s.refused} refused, ${mb(s.bytesUp)} MB up, ${mb(s.bytesDown)} MB down`;
}
