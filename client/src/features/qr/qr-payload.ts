import { idField, linkGatewayQuerySchema } from '@plant/shared-schema';
import { devicePaths } from '../devices/paths';

/*
 * What our QR codes hold. Each is an absolute URL of this app, so a phone's own camera app opens
 * it too (in the browser, through sign-in when needed):
 *   asset    <origin>/app/devices/<id>/details
 *   gateway  <origin>/scan?id=<ref>   (spec 000 §2; ref is the gateway's id, which linkGateway
 *                                      finds in any of the user's accounts, as it does a serial)
 * The scanner reads them back with parseQrText, and only follows codes of its own origin.
 */

/** What a code of ours opens: an asset, or a gateway to link through /scan. */
export type QrTarget =
  | { readonly kind: 'asset'; readonly id: string }
  | { readonly kind: 'gateway'; readonly ref: string };

/** A scanned or typed text, read. */
export type QrReading =
  | QrTarget
  /** A link of this app that is not an asset's or a gateway's code. */
  | { readonly kind: 'unknown'; readonly text: string }
  /** Not a link of this app: another site, or plain text. */
  | { readonly kind: 'foreign'; readonly text: string; readonly host: string | null };

/** The code's text for an asset. */
export function assetQrText(origin: string, id: string): string {
  return new URL(devicePaths.details(id), origin).href;
}

/** The code's text for a gateway: its /scan link with the gateway's id. */
export function gatewayQrText(origin: string, ref: string): string {
  return new URL(gatewayScanPath(ref), origin).href;
}

/** The in-app path /scan?id= that links a gateway (spec 000 §2). */
export function gatewayScanPath(ref: string): string {
  return `/scan?${new URLSearchParams({ id: ref }).toString()}`;
}

/** The in-app path a code of ours leads to. */
export function qrTargetPath(target: QrTarget): string {
  switch (target.kind) {
    case 'asset':
      return devicePaths.details(target.id);
    case 'gateway':
      return gatewayScanPath(target.ref);
    default: {
      const never: never = target;
      return never;
    }
  }
}

const ASSET_PATH = /^\/app\/devices\/([^/]+)(?:\/details)?\/?$/;
const GATEWAY_PATH = /^\/app\/gateways\/([^/]+)(?:\/details)?\/?$/;
/** Screens of the devices area whose segment sits where an asset's id would. */
const NOT_ASSET_IDS = new Set(['list', '3dmodel', 'demo']);

function decodedId(segment: string): string | null {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return idField.safeParse(id).success && !NOT_ASSET_IDS.has(id) ? id : null;
}

/**
 * Reads a code's text. A link of `origin` to an asset (`/app/devices/<id>` or its details) is
 * that asset; `/scan?id=<ref>` (or a gateway's page) is that gateway; another link of `origin`
 * is unknown; anything else (another site, another scheme, plain text) is foreign: the scanner
 * never follows it.
 */
export function parseQrText(raw: string, origin: string): QrReading {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'foreign', text, host: null };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'foreign', text, host: null };
  }
  if (url.origin !== origin) return { kind: 'foreign', text, host: url.host };
  if (url.pathname === '/scan') {
    const ref = linkGatewayQuerySchema.safeParse({ id: url.searchParams.get('id') ?? '' });
    return ref.success ? { kind: 'gateway', ref: ref.data.id } : { kind: 'unknown', text };
  }
  const asset = ASSET_PATH.exec(url.pathname)?.[1];
  const assetId = asset === undefined ? null : decodedId(asset);
  if (assetId !== null) return { kind: 'asset', id: assetId };
  const gateway = GATEWAY_PATH.exec(url.pathname)?.[1];
  const gatewayId = gateway === undefined ? null : decodedId(gateway);
  if (gatewayId !== null) return { kind: 'gateway', ref: gatewayId };
  return { kind: 'unknown', text };
}

/**
 * What the user typed in place of a scan: a link (or a path of this app) is read as a scanned
 * code; anything else is taken for a gateway's serial number or id (printed on the gateway), for
 * /scan to look up.
 */
export function parseTypedCode(raw: string, origin: string): QrReading {
  const text = raw.trim();
  if (/^https?:\/\//i.test(text)) return parseQrText(text, origin);
  // A path of this app (`/scan?id=…`), as it would be read on this origin.
  if (text.startsWith('/')) return parseQrText(new URL(text, origin).href, origin);
  const ref = linkGatewayQuerySchema.safeParse({ id: text });
  return ref.success
    ? { kind: 'gateway', ref: ref.data.id }
    : { kind: 'foreign', text, host: null };
}

/** Something with a code of its own: an asset or a gateway, by id. */
export interface QrItem {
  readonly kind: 'asset' | 'gateway';
  readonly id: string;
}

export const qrItemKey = (item: QrItem) => `${item.kind}:${item.id}`;

/** The code's text of an item, for this app's address. */
export function qrTextOf(item: QrItem, origin: string): string {
  return item.kind === 'asset' ? assetQrText(origin, item.id) : gatewayQrText(origin, item.id);
}
