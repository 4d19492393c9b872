import { describe, expect, it } from 'vitest';
import {
  assetQrText,
  gatewayQrText,
  parseQrText,
  parseTypedCode,
  qrTargetPath,
} from './qr-payload';

const ORIGIN = 'https://plant.example:8443';
const ASSET = '0193a6b2-7c4e-7d10-9a3b-5f2e1c0d4b6a';

describe('QR payloads', () => {
  it('an asset code is the absolute link of its page, and reads back as that asset', () => {
    const text = assetQrText(ORIGIN, ASSET);
    expect(text).toBe(`${ORIGIN}/app/devices/${ASSET}/details`);
    const read = parseQrText(text, ORIGIN);
    expect(read).toEqual({ kind: 'asset', id: ASSET });
    if (read.kind !== 'asset') throw new Error('not an asset');
    expect(qrTargetPath(read)).toBe(`/app/devices/${ASSET}/details`);
    // The asset's address without /details (the route forwards) is the same asset.
    expect(parseQrText(`${ORIGIN}/app/devices/${ASSET}`, ORIGIN)).toEqual(read);
  });

  it('a gateway code is /scan?id= with the id encoded, and reads back as that gateway', () => {
    const text = gatewayQrText(ORIGIN, 'GW 1001&x=1');
    expect(text).toBe(`${ORIGIN}/scan?id=GW+1001%26x%3D1`);
    const read = parseQrText(text, ORIGIN);
    expect(read).toEqual({ kind: 'gateway', ref: 'GW 1001&x=1' });
    if (read.kind !== 'gateway') throw new Error('not a gateway');
    expect(qrTargetPath(read)).toBe('/scan?id=GW+1001%26x%3D1');
    // A gateway's page links it through /scan too (that switches account when needed).
    expect(parseQrText(`${ORIGIN}/app/gateways/gw-1/details`, ORIGIN)).toEqual({
      kind: 'gateway',
      ref: 'gw-1',
    });
  });

  it('codes of another origin, another scheme or plain text are foreign, never followed', () => {
    expect(parseQrText(`https://evil.example/app/devices/${ASSET}/details`, ORIGIN)).toEqual({
      kind: 'foreign',
      text: `https://evil.example/app/devices/${ASSET}/details`,
      host: 'evil.example',
    });
    // Same host, another port: another origin.
    expect(parseQrText(`https://plant.example/scan?id=gw-1`, ORIGIN).kind).toBe('foreign');
    expect(parseQrText('javascript:alert(1)', ORIGIN)).toEqual({
      kind: 'foreign',
      text: 'javascript:alert(1)',
      host: null,
    });
    expect(parseQrText('  hello world ', ORIGIN)).toEqual({
      kind: 'foreign',
      text: 'hello world',
      host: null,
    });
  });

  it('links of this app that are not codes of ours are unknown', () => {
    for (const path of [
      '/app/devices/list',
      '/app/devices/list/details',
      `/app/devices/${ASSET}/input/s1`,
      '/app/gateways/list',
      '/scan',
      '/scan?id=',
      '/app/devices/bad%ZZ/details',
      '/app/devices/has%20space/details',
      '/user/login',
    ]) {
      expect(parseQrText(`${ORIGIN}${path}`, ORIGIN).kind, path).toBe('unknown');
    }
  });

  it('typed text: links and paths read as codes, anything else is a gateway serial', () => {
    expect(parseTypedCode(assetQrText(ORIGIN, ASSET), ORIGIN)).toEqual({
      kind: 'asset',
      id: ASSET,
    });
    expect(parseTypedCode(' /scan?id=GW-1001 ', ORIGIN)).toEqual({
      kind: 'gateway',
      ref: 'GW-1001',
    });
    expect(parseTypedCode('GW-1001', ORIGIN)).toEqual({ kind: 'gateway', ref: 'GW-1001' });
    expect(parseTypedCode('//evil.example/scan?id=1', ORIGIN).kind).toBe('foreign');
    expect(parseTypedCode('HTTP://evil.example/', ORIGIN).kind).toBe('foreign');
    expect(parseTypedCode('', ORIGIN).kind).toBe('foreign');
    expect(parseTypedCode('x'.repeat(101), ORIGIN).kind).toBe('foreign');
  });
});
