import { describe, expect, it } from 'vitest';
import { apiPaths, appPaths } from '../api-paths';
import { accountTreeSchema } from './account-tree';
import {
  GATEWAY_REF_MESSAGE,
  linkGatewayQuerySchema,
  linkGatewayResultSchema,
} from './link-gateway';

describe('linkGateway query (a scanned QR code)', () => {
  it('takes an id or a serial, trimmed', () => {
    expect(linkGatewayQuerySchema.parse({ id: ' GW-1000 ' })).toEqual({ id: 'GW-1000' });
    const id = '019a1b2c-0000-7000-8000-000000000000';
    expect(linkGatewayQuerySchema.parse({ id })).toEqual({ id });
    expect(linkGatewayQuerySchema.parse({ id: 'Serial Nº 7/α' })).toEqual({ id: 'Serial Nº 7/α' });
  });

  it.each([undefined, '', '   ', 42, 'x'.repeat(101), 'GW\u00001000', 'GW\n1000', 'GW\u007f'])(
    'refuses %j with one message',
    (id) => {
      const result = linkGatewayQuerySchema.safeParse({ id });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['id', GATEWAY_REF_MESSAGE],
      ]);
    },
  );

  it('path builders encode the reference', () => {
    expect(apiPaths.linkGateway('GW 1/2?&')).toBe('linkGateway?id=GW%201%2F2%3F%26');
    expect(appPaths.gatewayDetails('abc')).toBe('/app/gateways/abc/details');
    expect(apiPaths.userAccounts()).toBe('user/accounts');
  });

  it('the answer names the account to switch to, or null', () => {
    expect(
      linkGatewayResultSchema.parse({ path: '/app/gateways/a/details', account: null }),
    ).toEqual({ path: '/app/gateways/a/details', account: null });
    expect(linkGatewayResultSchema.safeParse({ path: '/x' }).success).toBe(false);
  });
});

describe('account tree', () => {
  it('a node carries text, id and the value of spec 000 §3, plus current and switchable', () => {
    const node = {
      id: 'a',
      text: 'Customer South',
      parent_id: null,
      value: { root: true, active: false, userCount: 1, assetCount: 2, hasChildren: false },
      current: true,
      switchable: true,
    };
    expect(accountTreeSchema.parse([node])).toEqual([node]);
    expect(
      accountTreeSchema.safeParse([{ ...node, value: { ...node.value, userCount: -1 } }]).success,
    ).toBe(false);
  });
});
