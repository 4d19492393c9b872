import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  apiPaths,
  topics,
  type ServiceRequestAttributes,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { brokerClients } from '../server/src/testing/mqtt-client';
import { E2e } from './support/fixture';
import { demoServiceRequest } from './support/service-request';

/*
 * A support call in Chromium (issue 34 item 3): two browsers with fake cameras and screens; the
 * technician calls from its service request, the agent's app rings wherever it is, the agent
 * answers; each side decodes the other's frames; the technician shares its screen and the agent
 * gets its track; a third user cannot listen to the call; with the only agent busy another caller
 * reads 'All agents busy or not available'; hung up, the request keeps the call. A camera refused,
 * or a caller who leaves the page while the server finds the agent, ends the call made for it.
 */
const MEDIA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** How many frames the page's videos of this test id decoded, each. */
const framesOf = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .evaluateAll((videos) =>
      videos.map((v) =>
        (v as HTMLVideoElement).videoWidth > 0
          ? (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames
          : 0,
      ),
    );

/** The technician calls (once its offer is primed) until the agent's ring preview shows frames. */
async function callUntilPreview(tech: Page, agent: Page): Promise<void> {
  await tech.locator('[data-testid="service-call-video"][data-primed="true"]').waitFor();
  await tech.getByTestId('service-call-video').click();
  await expect
    .poll(async () => (await framesOf(agent, 'service-call-preview'))[0] ?? 0, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
}

describe('a service request’s call', () => {
  // Two signed-in browsers, a call, a screen share, a third user and a busy agent: about a
  // minute alone, near two under the suite's load (a clean clone timed out at 120 s with the
  // screen share under way).
  it('connects caller and agent with video both ways and a shared screen; nobody else listens; a busy agent is said so', async () => {
    const { request, path: requestPath, calls: callsOf } = await demoServiceRequest(e2e);
    expect(request).toBeDefined();

    // The agent is somewhere else in the app: its browser's link to the broker makes it present.
    const agent = await e2e.signedInApp(
      DEMO_USERS.internal,
      '/app/service',
      await e2e.browser({ args: MEDIA_ARGS }),
    );
    await agent.page.setViewportSize({ width: 1024, height: 768 });
    // The agent's `ready` (it asks the caller for its offer again), counted in the frames its
    // page sends to the broker: one whose page heard the ring with the offer in it says none. (An
    // agent whose page missed the ring, elsewhere in the app, says it unless the caller's offer,
    // sent again every 2 s, reached its page first: a busy clean clone met that.)
    let readies = 0;
    agent.page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        if (payload.includes('"type":"ready"')) readies += 1;
      }),
    );
    await expect.poll(() => agent.page.getByTestId('service-link').count()).toBeGreaterThan(0);

    const tech = await e2e.signedInApp(
      DEMO_USERS.tech,
      requestPath,
      await e2e.browser({ args: MEDIA_ARGS }),
    );
    await tech.page.setViewportSize({ width: 1024, height: 768 });
    // The pre-call check finds camera, microphone, screen and the signalling working.
    await tech.page.getByTestId('service-call-check').click();
    await tech.page.getByRole('button', { name: 'Run the check' }).click();
    for (const part of ['camera', 'microphone', 'screen', 'signalling'])
      await expect
        .poll(() => tech.page.getByTestId(`pre-call-${part}`).getAttribute('data-outcome'))
        .toBe('ok');

    // The call's start carries the offer made while the page was open (the agent answers it
    // as its page rings, with no message between).
    const starts: unknown[] = [];
    tech.page.context().on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith('/calls'))
        starts.push(req.postDataJSON());
    });
    // When the caller's own picture (the self-view) shows, against its click.
    await tech.page.evaluate(() => {
      const seen: { clicked?: number; shown?: number } = {};
      (window as unknown as { __selfView: typeof seen }).__selfView = seen;
      document.addEventListener(
        'click',
        (e) => {
          if ((e.target as Element).closest('[data-testid="service-call-video"]') !== null)
            seen.clicked ??= performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="service-call-local"]') !== null)
          seen.shown ??= performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await tech.page.getByTestId('service-call-video').click();
    await expect
      .poll(() => tech.page.getByTestId('service-call').getAttribute('data-phase'))
      .toBe('waiting');
    expect(starts).toEqual([{ kind: 'video', offer: expect.stringMatching(/^v=0\r\n/) as string }]);
    // The agent's app rings; the agent opens the request and answers.
    await agent.page.getByTestId('call-ringer').getByRole('link').click();
    await agent.waitForPath(new RegExp(`^${requestPath}$`));
    await agent.page.getByTestId('service-call-answer').click();
    for (const side of [tech.page, agent.page])
      await expect
        .poll(() => side.getByTestId('service-call').getAttribute('data-phase'), {
          timeout: 30_000,
        })
        .toBe('connected');
    // Each side decodes the other's camera.
    for (const side of [tech.page, agent.page])
      await expect
        .poll(async () => (await framesOf(side, 'service-call-remote'))[0] ?? 0, {
          timeout: 30_000,
        })
        .toBeGreaterThan(5);
    // Each side's own picture shows too, a second after its camera came (the first moments are
    // the other side's picture's): the caller's came after its click.
    for (const side of [tech.page, agent.page])
      await expect
        .poll(async () => (await framesOf(side, 'service-call-local'))[0] ?? 0, {
          timeout: 30_000,
        })
        .toBeGreaterThan(0);
    const selfView = await tech.page.evaluate(
      () => (window as unknown as { __selfView: { clicked?: number; shown?: number } }).__selfView,
    );
    expect((selfView.shown ?? 0) - (selfView.clicked ?? Infinity)).toBeGreaterThanOrEqual(1000);

    // The technician shares its screen: the agent gets a second picture, and decodes it.
    await tech.page.getByTestId('service-call-share').click();
    await expect
      .poll(async () => (await framesOf(agent.page, 'service-call-remote')).length, {
        timeout: 30_000,
      })
      .toBe(2);
    await expect
      .poll(async () => (await framesOf(agent.page, 'service-call-remote'))[1] ?? 0, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);

    // A third user of the account cannot listen to either side of the call.
    const call = (await callsOf()).find((c) => c.ended_at === null);
    expect(call).toBeDefined();
    const { session, connect, closeAll } = brokerClients(() => e2e.server);
    try {
      const third = await session(DEMO_USERS.admin);
      const link = await connect(third.creds);
      for (const party of call?.participants ?? [])
        await expect(
          link.subscribeAsync(topics.callInbox(third.user.account, call?.id ?? '', party.user_id)),
        ).rejects.toThrow(/Subscribe error/);

      // With the only agent in this call, another caller reads the spec's words.
      const other = await e2e.server.call('POST', apiPaths.collection('service_requests'), {
        token: third.token,
        json: {
          asset_id: (request?.attributes as ServiceRequestAttributes).asset_id,
          title: 'Feeder jams',
          description: 'The feeder jams twice an hour.',
        },
      });
      expect(other.status, other.text).toBe(201);
      const admin = await e2e.signedInApp(
        DEMO_USERS.admin,
        `/app/service/${dataOf<SyncedModel>(other).id}/details`,
      );
      await admin.page.getByTestId('service-call-video').click();
      await expect
        .poll(() => admin.page.getByTestId('service-call-error').textContent())
        .toBe('All agents busy or not available');
      // The button, busy while the server looked, has the keyboard's focus again.
      await expect
        .poll(() => admin.page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('service-call-video');
    } finally {
      await closeAll();
    }

    // The technician hangs up: the agent is told, the request keeps the call with its end.
    await tech.page.getByTestId('service-call-hangup').click();
    await expect
      .poll(() => agent.page.getByTestId('service-call-ended').textContent(), { timeout: 30_000 })
      .toBe('The other side ended the call.');
    await expect
      .poll(async () => (await callsOf()).find((c) => c.id === call?.id)?.ended_at ?? null)
      .not.toBeNull();
    // Both pages list it among the request's calls.
    for (const side of [tech.page, agent.page])
      await expect.poll(() => side.getByTestId('service-call-record').count()).toBeGreaterThan(0);

    // A second call, the agent on the request's page: it rings there over the broker with the
    // caller's offer, which the agent answers with nothing asked again.
    await tech.page.getByTestId('service-call-close').click();
    await agent.page.getByTestId('service-call-close').click();
    const beforeSecond = (await callsOf()).length;
    const readiesBefore = readies;
    // The agent's camera as its page rings: seen before it answers (the browser allows it
    // already, so nothing is asked), and the very track the call then sends.
    const trackOf = (testId: string) =>
      agent.page
        .getByTestId(testId)
        .evaluate(
          (v) => ((v as HTMLVideoElement).srcObject as MediaStream).getVideoTracks()[0]?.id,
        );
    await callUntilPreview(tech.page, agent.page);
    expect(await agent.page.getByTestId('service-call-preview').getAttribute('aria-label')).toBe(
      'Your camera, sent once you answer',
    );
    const previewed = await trackOf('service-call-preview');
    await agent.page.getByTestId('service-call-answer').click();
    await expect.poll(() => trackOf('service-call-local')).toBe(previewed);
    for (const side of [tech.page, agent.page])
      await expect
        .poll(async () => (await framesOf(side, 'service-call-remote'))[0] ?? 0, {
          timeout: 30_000,
        })
        .toBeGreaterThan(5);
    expect(starts[1]).toEqual({
      kind: 'video',
      offer: expect.stringMatching(/^v=0\r\n/) as string,
    });
    expect(readies).toBe(readiesBefore);
    await agent.page.getByTestId('service-call-hangup').click();
    await tech.page.getByTestId('service-call-ended').waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => {
        const calls = await callsOf();
        return calls.length === beforeSecond + 1 && calls.every((c) => c.ended_at !== null);
      })
      .toBe(true);

    // A call that rings and is not answered: the agent's camera, on while it rang, goes off
    // when the caller hangs up.
    await tech.page.getByTestId('service-call-close').click();
    await agent.page.getByTestId('service-call-close').click();
    await agent.page.evaluate(`(() => {
      const devices = navigator.mediaDevices;
      const take = devices.getUserMedia.bind(devices);
      window.__agentStreams = [];
      devices.getUserMedia = (constraints) =>
        take(constraints).then((stream) => {
          window.__agentStreams.push(stream);
          return stream;
        });
    })()`);
    await callUntilPreview(tech.page, agent.page);
    await tech.page.getByTestId('service-call-hangup').click();
    await expect.poll(() => agent.page.getByTestId('service-call-ringing').count()).toBe(0);
    expect(await agent.page.getByTestId('service-call-preview').count()).toBe(0);
    await expect
      .poll(() =>
        agent.page.evaluate(
          `window.__agentStreams.length === 1 && window.__agentStreams.every((s) =>
            s.getTracks().every((t) => t.readyState === 'ended'))`,
        ),
      )
      .toBe(true);

    // A camera refused at once (before the server has made the call): the page says why, and
    // the call the server made for it ends there too, so its agent is free again.
    await tech.page.getByTestId('service-call-close').click();
    await tech.page.evaluate(`(() => {
      const devices = navigator.mediaDevices;
      window.__getUserMedia = devices.getUserMedia.bind(devices);
      devices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    })()`);
    const before = (await callsOf()).length;
    await tech.page.getByTestId('service-call-video').click();
    await expect
      .poll(() => tech.page.getByTestId('service-call-problem').textContent())
      .toBe('Camera or microphone cannot be used (check permission)');
    await expect
      .poll(async () => {
        const calls = await callsOf();
        return calls.length > before && calls.every((c) => c.ended_at !== null);
      })
      .toBe(true);

    // The technician calls and leaves the page before the server has found the agent: its
    // camera stops, and the call the server made ends (the agent does not ring on for nobody).
    // Home's page was shown once before, so leaving takes no chunk's fetch: the page is gone
    // before the call's answer comes.
    await tech.page.getByTestId('service-call-close').click();
    await tech.navigateInApp('/app/home');
    // Left for real (the panel shows its call button again at once on Close): then back.
    await tech.page.getByTestId('home').waitFor();
    await tech.navigateInApp(requestPath);
    await tech.page.getByTestId('service-call-video').waitFor();
    const beforeLeaving = (await callsOf()).length;
    await tech.page.evaluate(`(() => {
      const devices = navigator.mediaDevices;
      window.__streams = [];
      devices.getUserMedia = (constraints) =>
        window.__getUserMedia(constraints).then((stream) => {
          window.__streams.push(stream);
          return stream;
        });
      document.querySelector('[data-testid="service-call-video"]').click();
      history.pushState(history.state, '', '/app/home');
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    })()`);
    await expect
      .poll(() =>
        tech.page.evaluate(
          `window.__streams.length > 0 && window.__streams.every((s) =>
            s.getTracks().every((t) => t.readyState === 'ended'))`,
        ),
      )
      .toBe(true);
    await expect
      .poll(async () => {
        const calls = await callsOf();
        return calls.length > beforeLeaving && calls.every((c) => c.ended_at !== null);
      })
      .toBe(true);
  }, 240_000);
});
