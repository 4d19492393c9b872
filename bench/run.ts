import { benchAccess } from './access.bench';
import { benchAlarmMail, benchAlarms } from './alarms.bench';
import { benchBackup } from './backup.bench';
import { benchBootstrap } from './bootstrap.bench';
import { benchBundleSize } from './bundle-size.bench';
import { benchCall } from './call.bench';
import { benchChangeLog } from './change-log.bench';
import { benchDashboard } from './dashboard.bench';
import { benchEventInspection } from './event-inspection.bench';
import { benchDevicesViews } from './devices-views.bench';
import { benchFanout } from './fanout.bench';
import { benchGatewayFlood } from './gateway-flood.bench';
import { benchGetUser } from './get-user.bench';
import { benchHelp } from './help.bench';
import { benchHelpOffline } from './help-offline.bench';
import { benchHistory } from './history.bench';
import { benchIngest } from './ingest.bench';
import { benchLargeList } from './large-list.bench';
import { benchListRows } from './list-rows.bench';
import { benchScaleOut } from './scale-out.bench';
import { benchReportIngest, benchReportPdf } from './reports.bench';
import { benchLiveLatency } from './live-latency.bench';
import { benchMqttlogs } from './mqttlogs.bench';
import { benchStoreApply } from './store-apply.bench';
import { benchUpdateLatency } from './update-latency.bench';
import { benchUpload } from './upload.bench';
import { benchThreed } from './threed.bench';
import { benchScene } from './scene.bench';
import { benchRollout } from './rollout.bench';
import { benchPublicPages } from './public-pages.bench';
import { benchValuesScreen } from './values-screen.bench';

/** `npm run bench`: every benchmark, each printing `name: ratio (ours/baseline) …` lines. */
const only = process.argv[2];
const benches: [string, () => Promise<string[]>][] = [
  ['get-user', benchGetUser],
  ['change-log', benchChangeLog],
  ['mqttlogs', benchMqttlogs],
  ['fan-out', benchFanout],
  // Machine data: the gateway's points through the whole path, and history reads.
  ['ingest', benchIngest],
  // Issue 28: a browser's request while one gateway floods batches, with its rate vs without.
  ['gateway-flood', benchGatewayFlood],
  ['history', benchHistory],
  ['live-latency', benchLiveLatency],
  // In headless Chromium (Debian's chromium), the real worker and its store:
  ['store-apply', benchStoreApply],
  ['bootstrap', benchBootstrap],
  ['update-latency', benchUpdateLatency],
  // Machine values on screen: live to the page, a 100,000-point diagram, 24 h of 20 streams.
  ['values-screen', benchValuesScreen],
  // The client's first visit: initial JavaScript against the budget.
  ['bundle', benchBundleSize],
  ['list-rows', benchListRows],
  // Issue 13: the devices list of a 50,000-model account: first rows while it loads, the
  // bootstrap with and without it, cold open vs a raw index read, a change on screen.
  ['large-list', benchLargeList],
  // Issue 14: Postgres vs SQLite, two processes vs one, writes with 1/2/4 processes, fan-out.
  ['scale-out', benchScaleOut],
  // Issue 15: a snapshot for a role that sees 10% vs the admin's; fan-out filtered per asset.
  ['access', benchAccess],
  // Issue 16: the asset overview's panel at 10,000 assets vs 100 and vs the table; its JS.
  ['devices-views', benchDevicesViews],
  // Issue 16: a 50 MB file through the chunked, resumable upload vs one plain PUT.
  ['upload', benchUpload],
  // Issue 17: alarm evaluation's cost per ingested point with 1,000 rules vs none.
  ['alarms', benchAlarms],
  // Issue 17: a value over its limit at the gateway to the mail accepted by SMTP, p50/p95.
  ['alarm-mail', benchAlarmMail],
  // Issue 31: a dashboard of 12 line widgets over 24 h of 1 s data opened, vs uPlot drawing the
  // same M4 points already in a page; the offline first paint from the caches.
  ['dashboard', benchDashboard],
  // Issue 37 item 5: an event inspection of 20 streams over ±30 min of 1 s data opened, vs uPlot
  // drawing the same M4 points already in a page.
  ['event-inspection', benchEventInspection],
  // Issue 32: a 1 M-triangle GLB with a 4 K texture into three levels, vs gltf-transform's CLI.
  ['threed', benchThreed],
  // Issue 32: a cached scene's first frame in the app vs GLTFLoader in a bare page; three's chunk.
  ['scene', benchScene],
  // Issue 31: a PDF of 12 widgets over 30 days (p95 under 5 s); ingest with 100 reports due.
  ['report-pdf', benchReportPdf],
  ['report-ingest', benchReportIngest],
  // Issue 33: the help centre's server search (full-text index) vs a plain LIKE, 2,000 texts.
  ['help', benchHelp],
  // Issue 33: the worker's offline search over 2,000 articles (p95) vs a plain scan; an article
  // opened offline in the app vs its blocks made into elements in a blank page.
  ['help-offline', benchHelpOffline],
  // Issue 34: a support call's set-up, click to the agent's first frame, vs two peer
  // connections in one page signalled directly.
  ['call', async () => benchCall()],
  // Issue 35: one version rolled out to 50 simulated gateways in batches, vs the same downloads
  // one after another without checks.
  ['rollout', benchRollout],
  // Issue 36: the public landing page's gzipped bytes, and its first byte vs a static file.
  ['public-pages', benchPublicPages],
  // Issue 38: ingest while `npm run backup` copies a 1 GB DATA_DIR, vs without.
  ['backup', benchBackup],
].filter(([name]) => only === undefined || name === only) as [string, () => Promise<string[]>][];

for (const [name, bench] of benches) {
  process.stdout.write(`running ${name}...\n`);
  for (const line of await bench()) process.stdout.write(`${line}\n`);
}
