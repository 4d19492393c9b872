import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf } from '../testing/harness';
import { signedIn, TestCluster, until, type ClusterProcess } from '../testing/cluster';
import { startSmtp } from '../testing/smtp';

/**
 * Issue 31 with two server processes on one Postgres and one Redis (DESIGN.md §11): a report due
 * now is made and mailed once, by the cluster's leader, its run recorded once (report_runs'
 * unique run key). Runs in the `server-postgres` project.
 */
let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let db: pg.Client;

beforeAll(async () => {
  smtp = await startSmtp();
  cluster = await TestCluster.create();
  const env = { SMTP_URL: smtp.url, REPORT_TICK_MS: '200' };
  [a, b] = await Promise.all([cluster.start(0, env), cluster.start(0, env)]);
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db.end();
  await cluster.close();
  await smtp.close();
}, 60_000);

describe('reports with two server processes', () => {
  it('a report due now: one run, one mail', async () => {
    const admin = await signedIn(a.api, DEMO_USERS.admin);
    const { rows } = await db.query<{ id: string }>(
      `select id from models where type = 'datastream' and account_id = $1 order by id limit 2`,
      [admin.user.account],
    );
    const dashboard = await a.api.call('POST', apiPaths.collection('dashboards'), {
      token: admin.token,
      json: {
        name: 'Cluster dashboard',
        widgets: [
          { id: 'l', type: 'line', x: 0, y: 0, w: 24, h: 8, streams: rows.map((r) => r.id) },
        ],
      },
    });
    expect(dashboard.status, dashboard.text).toBe(201);
    const report = await b.api.call('POST', apiPaths.collection('reports'), {
      token: (await signedIn(b.api, DEMO_USERS.admin)).token,
      json: {
        name: 'Cluster report',
        dashboard_id: dataOf<{ id: string }>(dashboard).id,
        interval_ms: 3_600_000,
        recipients: [{ user_id: admin.user.id }],
      },
    });
    expect(report.status, report.text).toBe(201);
    const reportId = dataOf<{ id: string }>(report).id;
    // Due now: its next time moved to the past, as if the hour had gone by.
    await db.query(
      `update models set attributes = jsonb_set(attributes::jsonb, '{next_at}', to_jsonb($2::bigint))::text
        where id = $1`,
      [reportId, Date.now() - 1_000],
    );
    await until('the mail', () =>
      Promise.resolve(smtp.inbox.some((m) => m.raw.includes('Cluster report')) ? true : undefined),
    );
    await until('the run recorded as sent', async () => {
      const r = await db.query<{ state: string }>(
        `select state from report_runs where report_id = $1`,
        [reportId],
      );
      return r.rows.length === 1 && r.rows[0]?.state === 'sent' ? true : undefined;
    });
    // Both processes go on looking (every 200 ms): still one run and one mail.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const runs = await db.query(`select id from report_runs where report_id = $1`, [reportId]);
    expect(runs.rows).toHaveLength(1);
    expect(smtp.inbox.filter((m) => m.raw.includes('Cluster report'))).toHaveLength(1);
  });
});
