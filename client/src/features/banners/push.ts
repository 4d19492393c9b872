import { z } from 'zod';
import { apiPaths, pushKeySchema } from '@plant/shared-schema';
import { callApi } from '../../session/api';
import { bytesOfBase64Url, deviceOf, subscriptionBody } from './subscription-body';

/*
 * Web push for this browser (spec 000 §4, §7; issue 17 item 7): the permission, the browser's
 * subscription with the push service, and the server's copy of it (POST subscriptions), which is
 * where alarms are sent.
 */

/**
 * Where push stands here: `unsupported` (no service worker or Push API), the permission not
 * asked (`default`) or refused (`denied`), or granted with or without a subscription.
 */
export type PushState = 'unsupported' | 'default' | 'denied' | 'unsubscribed' | 'subscribed';

export function pushSupported(): boolean {
  return 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
}

/**
 * The state now. With the permission granted it waits for the service worker to be ready (it
 * holds the subscription): never, where none is registered (development, a blocked worker).
 */
export async function readPushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  switch (Notification.permission) {
    case 'default':
      return 'default';
    case 'denied':
      return 'denied';
    case 'granted': {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      return subscription === null ? 'unsubscribed' : 'subscribed';
    }
    default: {
      const never: never = Notification.permission;
      return never;
    }
  }
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (a === null || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** aes128gcm (RFC 8291) where the browser offers it, the older aesgcm otherwise. */
function contentEncoding(): 'aes128gcm' | 'aesgcm' {
  const offered = PushManager.supportedContentEncodings;
  return offered.includes('aes128gcm') || !offered.includes('aesgcm') ? 'aes128gcm' : 'aesgcm';
}

/** Tells the server of a subscription; false when it was not taken (or not sent). */
async function sendToServer(subscription: globalThis.PushSubscription): Promise<boolean> {
  const body = subscriptionBody(
    subscription.toJSON(),
    contentEncoding(),
    deviceOf(navigator.userAgent),
  );
  if (body === null) return false;
  const answer = await callApi('POST', apiPaths.subscriptions(), z.unknown(), {
    body,
    envelope: false,
    quiet: true,
  });
  return 'data' in answer;
}

function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Subscribes this browser with the server's key and tells the server (the permission must be
 * granted). A subscription made with another key (the server's keys were made anew) is replaced.
 * One the server did not take is undone, so the banner offers it again. Any failure is false: the
 * push service unreachable, the key or the server not answering.
 */
export async function subscribeToPush(): Promise<boolean> {
  try {
    const registration = await navigator.serviceWorker.ready;
    const key = await callApi('GET', apiPaths.pushKey(), pushKeySchema, {
      envelope: false,
      quiet: true,
    });
    if ('error' in key) return false;
    const serverKey = bytesOfBase64Url(key.data.publicKey);
    const existing = await registration.pushManager.getSubscription();
    if (existing !== null && !sameBytes(existing.options.applicationServerKey, serverKey)) {
      await existing.unsubscribe();
    }
    // How long the push service may take to answer (the server's setting, 20 s by default).
    // Without an answer (offline, or the browser's push service unreachable) Chromium's subscribe
    // never settles: the user is told it failed instead of watching a spinner. A subscription
    // that still comes later is sent to the server on the next start (`resendSubscription`).
    const subscription = await withinTime(
      registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: serverKey,
      }),
      key.data.subscribeTimeoutMs,
    );
    if (await sendToServer(subscription)) return true;
    await subscription.unsubscribe();
    return false;
  } catch {
    return false;
  }
}

/**
 * Sends this browser's subscription again (after a sign-in, for the user now signed in: the
 * server keeps one per user and browser, and a repeat only updates it). Failures are left to the
 * next sign-in: the subscription itself is still there.
 */
export async function resendSubscription(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription();
    if (subscription !== null) await sendToServer(subscription);
  } catch {
    // the next sign-in sends it again
  }
}
