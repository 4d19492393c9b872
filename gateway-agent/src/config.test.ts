import { describe, expect, it } from 'vitest';
import { AgentConfigError, parseAgentConfig } from './config';

const GATEWAY = '01a22aa2-861f-7731-bf89-1fb376340c02';

describe('the agent command line', () => {
  it('takes a key that begins with a dash (one base64url key in 64 does)', () => {
    const key = '-Xy3vTq0pLmN8sRkW2aBcDeFgHiJkLmNoPqRs';
    const config = parseAgentConfig(
      ['--server', 'http://plant:3000', '--gateway', GATEWAY, '--key', key, '--data', '/tmp/gw'],
      {},
    );
    expect(config).toMatchObject({ key, gatewayId: GATEWAY, dataDir: '/tmp/gw' });
    expect(config.brokerUrl).toBe('ws://plant:3000/mqtt');
    // The `--key=value` form keeps working.
    expect(
      parseAgentConfig(['--server', 'http://plant:3000', '--gateway', GATEWAY, `--key=${key}`], {})
        .key,
    ).toBe(key);
  });

  it('still says a flag is missing its value when the next word is one of its flags', () => {
    expect(() =>
      parseAgentConfig(['--server', 'http://plant:3000', '--key', '--gateway', GATEWAY], {}),
    ).toThrow(AgentConfigError);
    expect(() =>
      parseAgentConfig(['--server', 'http://plant:3000', '--key', '--gateway', GATEWAY], {}),
    ).toThrow(/--key/);
  });
});
