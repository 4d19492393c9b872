import { afterEach, describe, expect, it, vi } from 'vitest';
import { topics } from '@plant/shared-schema';
import { MemoryLogger } from '../log';
import { TerminalHub, type TerminalBroker } from './terminal-hub';

/*
 * Terminal lines between tabs (BroadcastChannel, as in the browser): a line typed in a tab that
 * has no leader yet (a reloaded page while the old one still holds the lock) is not lost; it is
 * published once, by whichever tab leads next, even when offered to it twice.
 */
const ACCOUNT = 'acc-1';
const GATEWAY = 'gw-1';
let hubs: TerminalHub[] = [];
let closers: (() => void)[] = [];
let channel = 0;

class RecordingBroker implements TerminalBroker {
  readonly published: { topic: string; payload: string }[] = [];
  setTerminalGateways(): void {}
  publishAfter(_needs: string, topic: string, payload: string): void {
    this.published.push({ topic, payload });
  }
  lines(): string[] {
    return this.published.map((p) => (JSON.parse(p.payload) as { line: string }).line);
  }
}

let heard: { t: string }[] = [];

function hubs2(): [TerminalHub, TerminalHub] {
  channel += 1;
  const name = `terminal-test-${channel}`;
  // What goes over the channel, as a third tab hears it.
  const ear = new BroadcastChannel(name);
  heard = [];
  ear.addEventListener('message', (e: MessageEvent<{ t: string }>) => heard.push(e.data));
  closers.push(() => ear.close());
  const made: [TerminalHub, TerminalHub] = [
    new TerminalHub(ACCOUNT, name, new MemoryLogger()),
    new TerminalHub(ACCOUNT, name, new MemoryLogger()),
  ];
  hubs.push(...made);
  return made;
}

afterEach(() => {
  for (const hub of hubs) hub.stop();
  for (const close of closers) close();
  hubs = [];
  closers = [];
});

describe('terminal lines across tabs', () => {
  it('a line typed before any tab leads goes out once this tab leads', () => {
    const [tab] = hubs2();
    expect('data' in tab.send(GATEWAY, 'status')).toBe(true);
    const broker = new RecordingBroker();
    tab.lead(broker);
    expect(broker.lines()).toEqual(['status']);
    expect(broker.published[0]?.topic).toBe(topics.terminalIn(ACCOUNT, GATEWAY));
  });

  it('a line typed in a follower before the leader starts reaches that leader, once', async () => {
    const [follower, other] = hubs2();
    follower.send(GATEWAY, 'status');
    follower.send(GATEWAY, 'ping');
    // Both offered while no tab leads: heard by the other tab and dropped, as before a leader.
    await vi.waitFor(() => expect(heard.filter((m) => m.t === 'send')).toHaveLength(2));
    const broker = new RecordingBroker();
    other.lead(broker);
    await vi.waitFor(() => expect(broker.published).toHaveLength(2));
    expect(broker.lines().sort()).toEqual(['ping', 'status']);
    // A second announcement of a leader offers nothing again: the lines were taken.
    other.lead(broker);
    follower.send(GATEWAY, 'help');
    await vi.waitFor(() => expect(broker.published).toHaveLength(3));
    expect(broker.lines().filter((l) => l === 'status')).toHaveLength(1);
  });

  it("a follower's line to a leader already there goes out once", async () => {
    const [follower, leader] = hubs2();
    const broker = new RecordingBroker();
    leader.lead(broker);
    follower.send(GATEWAY, 'status');
    await vi.waitFor(() => expect(broker.published).toHaveLength(1));
    expect(broker.lines()).toEqual(['status']);
  });
});
