import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      seed: 'demo',
      logLevel: 'info',
      smtpUrl: undefined,
      gatewayPointsPerSecond: 5_000,
      clusterHeartbeatMs: 5_000,
    });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.tokenTtlMs).toBe(30 * 24 * 60 * 60 * 1000);
    expect(c.appUrl).toBe('http://127.0.0.1:3000');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/plant',
      SEED: 'none',
      LOG_LEVEL: 'warn',
      TOKEN_TTL_DAYS: '7',
      GATEWAY_POINTS_PER_S: '20000',
      CLUSTER_HEARTBEAT_MS: '1000',
      SMTP_URL: 'smtp://mail.local:25',
      APP_URL: 'https://plant.example/',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/plant',
      seed: 'none',
      logLevel: 'warn',
      tokenTtlMs: 7 * 24 * 60 * 60 * 1000,
      gatewayPointsPerSecond: 20_000,
      clusterHeartbeatMs: 1_000,
      smtpUrl: 'smtp://mail.local:25',
      appUrl: 'https://plant.example',
    });
  });

  it('links name a host one can open: localhost for wildcard addresses, brackets for IPv6', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).appUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::' }).appUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '::1' }).appUrl).toBe('http://[::1]:3000');
    expect(loadConfig({ HOST: '10.0.0.5' }).appUrl).toBe('http://10.0.0.5:3000');
  });

  it('empty values count as unset', () => {
    expect(loadConfig({ PORT: '', SEED: '' })).toMatchObject({ port: 3000, seed: 'demo' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: PORT must be a whole number'],
    [{ PORT: '70000' }, 'PORT: PORT must be at most 65535'],
    [{ PORT: '-1' }, 'PORT: PORT must be a whole number'],
    [{ SEED: 'yes' }, "SEED: SEED must be 'demo' or 'none'"],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: LOG_LEVEL must be one of debug, info, warn, error, silent'],
    [{ TOKEN_TTL_DAYS: '0' }, 'TOKEN_TTL_DAYS: TOKEN_TTL_DAYS must be at least 1'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL: SMTP_URL must be an smtp:// or smtps:// URL'],
    [
      { CLUSTER_HEARTBEAT_MS: '50' },
      'CLUSTER_HEARTBEAT_MS: CLUSTER_HEARTBEAT_MS must be at least 100',
    ],
  ])('refuses %j', (env, problem) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([problem]);
    }
  });

  it('names every problem at once', () => {
    expect(() => loadConfig({ PORT: 'x', SEED: 'maybe' })).toThrow(/PORT[\s\S]*SEED/);
  });

  it('scale-out: Postgres and Redis URLs are checked, and Redis needs Postgres', () => {
    const both = loadConfig({
      DATABASE_URL: 'postgres://plant@127.0.0.1/plant',
      REDIS_URL: 'redis://127.0.0.1:6379',
      TRUSTED_PROXIES: '127.0.0.1,::1',
    });
    expect(both.databaseUrl).toBe('postgres://plant@127.0.0.1/plant');
    expect(both.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(both.trustedProxies).toEqual(['127.0.0.1', '::1']);
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /REDIS_URL needs DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x/y' })).toThrow(/postgres:\/\//);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'proxy.local' })).toThrow(/IP addresses/);
  });

  it('alarm SMS and web push: SMS_URL with its SMS_TOKEN, the VAPID subject from MAIL_FROM', () => {
    const none = loadConfig({});
    expect(none).toMatchObject({ smsUrl: undefined, smsToken: undefined });
    expect(none.vapidSubject).toBe('mailto:no-reply@localhost');
    const sms = loadConfig({ SMS_URL: 'https://sms.example/v1/messages', SMS_TOKEN: 'tok-123' });
    expect(sms).toMatchObject({ smsUrl: 'https://sms.example/v1/messages', smsToken: 'tok-123' });
    expect(loadConfig({ MAIL_FROM: 'ops@plant.example' }).vapidSubject).toBe(
      'mailto:ops@plant.example',
    );
    expect(loadConfig({ VAPID_SUBJECT: 'https://plant.example/contact' }).vapidSubject).toBe(
      'https://plant.example/contact',
    );
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ SMS_URL: 'https://sms.example/v1' })).toEqual([
      "SMS_TOKEN: SMS_URL needs SMS_TOKEN (the provider's bearer token)",
    ]);
    expect(problems({ SMS_TOKEN: 'tok' })).toEqual([
      'SMS_URL: SMS_TOKEN is set but SMS_URL is not',
    ]);
    expect(problems({ SMS_URL: 'ftp://sms', SMS_TOKEN: 'tok' })).toEqual([
      'SMS_URL: SMS_URL must be an http(s) URL',
    ]);
    expect(problems({ SMS_URL: 'https://sms', SMS_TOKEN: 'two words' })).toEqual([
      'SMS_TOKEN: SMS_TOKEN must be printable characters without spaces',
    ]);
    expect(problems({ VAPID_SUBJECT: 'http://plant.example' })).toEqual([
      'VAPID_SUBJECT: VAPID_SUBJECT must be a mailto: address or an https:// URL',
    ]);
    expect(problems({ MAIL_FROM: 'Machine Platform' })).toEqual([
      'VAPID_SUBJECT: MAIL_FROM names no address, so VAPID_SUBJECT must be set',
    ]);
    expect(
      loadConfig({ MAIL_FROM: 'Machine Platform', VAPID_SUBJECT: 'mailto:a@b.c' }),
    ).toMatchObject({ vapidSubject: 'mailto:a@b.c' });
  });

  it("the map's detail tiles: optional, an http(s) address that names {z}, {x} and {y}", () => {
    expect(loadConfig({}).mapTilesUrl).toBeUndefined();
    const url = 'https://tiles.plant.example/{z}/{x}/{y}.png';
    expect(loadConfig({ MAP_TILES_URL: url }).mapTilesUrl).toBe(url);
    expect(() => loadConfig({ MAP_TILES_URL: 'ftp://tiles/{z}/{x}/{y}.png' })).toThrow(
      /MAP_TILES_URL must be an http\(s\) URL/,
    );
    expect(() =>
      loadConfig({ MAP_TILES_URL: 'https://tiles.plant.example/world.pmtiles' }),
    ).toThrow(/MAP_TILES_URL must name the tile with \{z\}, \{x\} and \{y\}/);
  });
});
