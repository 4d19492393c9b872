import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { ServiceRequestAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_SERVICE_REQUEST } from '../server/src/seed/demo-feedback';
import { E2e } from '../e2e/support/fixture';
import { buildClient } from '../e2e/support/web';
import { median, ms, quantile } from './browser-env';

/*
 * Issue 34's call set-up in headless Chromium with fake cameras: from the technician's click on
 * "Video call" in its service request to the first frame of the agent's camera on its screen
 * (the server picks the agent, the agent's app rings and answers at once, both sides take their
 * camera, the signalling goes over the broker, WebRTC connects on loopback), against two
 * RTCPeerConnections in one blank page signalled directly (their camera taken too). Target: at
 * most 2 times the baseline.
 */

const CALLS = Number(process.env.BENCH_CALLS ?? 6);
const MEDIA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

const step = (what: string) => process.stderr.write(`call: ${what}\n`);

/** Clicks "Video call" and answers when the first remote frame of the agent is painted. */
const CLICK_TO_FRAME = `new Promise((resolve) => {
  const start = performance.now();
  document.querySelector('[data-testid="service-call-video"]').click();
  const look = () => {
    const video = document.querySelector('[data-testid="service-call-remote"]');
    if (video === null) { setTimeout(look, 5); return; }
    video.requestVideoFrameCallback((now) => resolve(now - start));
  };
  look();
})`;

/** The same pictures without our server: two peer connections in one page, told directly. */
const DIRECT = `(async () => {
  const start = performance.now();
  const a = new RTCPeerConnection();
  const b = new RTCPeerConnection();
  a.onicecandidate = (e) => { if (e.candidate) void b.addIceCandidate(e.candidate); };
  b.onicecandidate = (e) => { if (e.candidate) void a.addIceCandidate(e.candidate); };
  const shown = new Promise((resolve) => {
    b.ontrack = (e) => {
      if (e.track.kind !== 'video') return;
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      video.srcObject = e.streams[0];
      document.body.append(video);
      video.requestVideoFrameCallback((now) => resolve(now - start));
    };
  });
  const local = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
  for (const track of local.getTracks()) a.addTrack(track, local);
  await a.setLocalDescription();
  await b.setRemoteDescription(a.localDescription);
  await b.setLocalDescription();
  await a.setRemoteDescription(b.localDescription);
  const took = await shown;
  for (const track of local.getTracks()) track.stop();
  a.close();
  b.close();
  document.body.replaceChildren();
  return took;
})()`;

async function autoAnswer(page: Page): Promise<void> {
  await page.evaluate(() => {
    new MutationObserver(() => {
      const answer = document.querySelector<HTMLButtonElement>(
        '[data-testid="service-call-answer"]',
      );
      answer?.click();
    }).observe(document.body, { childList: true, subtree: true });
  });
}

export async function benchCall(): Promise<string[]> {
  const dist = await buildClient();
  const e2e = await E2e.start(dist);
  try {
    const tech = await e2e.session(DEMO_USERS.tech);
    const request = (await e2e.serverModels(tech.accountId, 'service_request')).find(
      (m) => (m.attributes as ServiceRequestAttributes).title === DEMO_SERVICE_REQUEST,
    );
    const path = `/app/service/${request?.id ?? ''}/details`;
    step('signing in both sides');
    const agentTab = await e2e.signedInApp(
      DEMO_USERS.internal,
      path,
      await e2e.browser({ args: MEDIA_ARGS }),
    );
    const techTab = await e2e.signedInApp(
      DEMO_USERS.tech,
      path,
      await e2e.browser({ args: MEDIA_ARGS }),
    );
    for (const tab of [agentTab, techTab])
      await tab.page.getByTestId('service-call-panel').waitFor({ timeout: 120_000 });
    await autoAnswer(agentTab.page);
    const ours: number[] = [];
    for (let i = 0; i <= CALLS; i++) {
      const took = await techTab.page.evaluate<number>(CLICK_TO_FRAME);
      // The first call also loads the call's code (mqtt.js): told apart, not in the median.
      if (i > 0) ours.push(took);
      await techTab.page.getByTestId('service-call-hangup').click();
      for (const tab of [techTab, agentTab]) {
        await tab.page.getByTestId('service-call-ended').waitFor({ timeout: 30_000 });
        await tab.page.getByTestId('service-call-close').click();
      }
      // The server has the call's end before the next one is asked for.
      await e2e.server.db
        .selectFrom('service_calls')
        .select('id')
        .where('ended_at', 'is', null)
        .execute()
        .then(async (open) => {
          for (let tries = 0; open.length > 0 && tries < 200; tries++) {
            await new Promise((r) => setTimeout(r, 25));
            open = await e2e.server.db
              .selectFrom('service_calls')
              .select('id')
              .where('ended_at', 'is', null)
              .execute();
          }
        });
      step(`call ${i}: ${ms(took)}`);
    }
    step('the baseline: two peer connections in one page');
    const profile = await e2e.browser({ args: MEDIA_ARGS });
    const blank = await profile.context.newPage();
    await blank.goto(`${e2e.web.url}/user/login`);
    const direct: number[] = [];
    for (let i = 0; i <= CALLS; i++) {
      const took = await blank.evaluate<number>(DIRECT);
      if (i > 0) direct.push(took);
    }
    const mine = median(ours);
    const base = median(direct);
    return [
      `call-setup: ${(mine / base).toFixed(2)} (ours/baseline) click on "Video call" to the ` +
        `agent's first frame on the caller's screen: median ${ms(mine)}, p95 ` +
        `${ms(quantile(ours, 0.95))} over ${CALLS} calls (target: at most 2); two ` +
        `RTCPeerConnections in one page signalled directly, their camera taken too: median ` +
        `${ms(base)}`,
    ];
  } finally {
    await e2e.close();
    await rm(dist, { recursive: true, force: true });
  }
}
