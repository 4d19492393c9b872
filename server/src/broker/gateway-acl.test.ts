import { describe, expect, it } from 'vitest';
import { mayGatewayPublish, mayGatewaySubscribe } from './gateway-acl';

describe('what a gateway may do on the broker', () => {
  it('publishes only on its own up/ topics', () => {
    expect(mayGatewayPublish('g1', 'gateway/g1/up/data')).toBe(true);
    expect(mayGatewayPublish('g1', 'gateway/g1/up/status')).toBe(true);
    for (const topic of [
      'gateway/g2/up/data',
      'gateway/g1/down/config',
      'gateway/g1/up/data/x',
      'gateway/g1/up/',
      'gateway/g1/up/#',
      'account/a1/values/x',
      'account/a1/_modelupdates',
      'gateway/g10/up/data',
    ]) {
      expect(mayGatewayPublish('g1', topic), topic).toBe(false);
    }
  });

  it('subscribes only under its own down/', () => {
    expect(mayGatewaySubscribe('g1', 'gateway/g1/down/config')).toBe(true);
    expect(mayGatewaySubscribe('g1', 'gateway/g1/down/#')).toBe(true);
    for (const topic of [
      '#',
      'gateway/#',
      'gateway/+/down/config',
      'gateway/g2/down/config',
      'gateway/g1/up/data',
      'gateway/g1/#',
      'account/+/values/+',
      'gateway/g10/down/config',
    ]) {
      expect(mayGatewaySubscribe('g1', topic), topic).toBe(false);
    }
  });
});
