import { describe, expect, it } from 'vitest';
import { freeSlug } from './slug';

const taken = (...slugs: (string | null)[]) => slugs.map((slug) => ({ attributes: { slug } }));

describe('a new integration’s page address', () => {
  it('is made from its name, and kept apart from the others of the account', () => {
    expect(freeSlug('Alarm Webhook', [])).toBe('alarm-webhook');
    expect(freeSlug('Alarm Webhook', taken('alarm-webhook', null))).toBe('alarm-webhook-2');
    expect(freeSlug('Alarm Webhook', taken('alarm-webhook', 'alarm-webhook-2'))).toBe(
      'alarm-webhook-3',
    );
    expect(freeSlug('Über die Grenze', [])).toBe('uber-die-grenze');
  });

  it('is none for a name without letters or digits', () => {
    expect(freeSlug('!!!', [])).toBeNull();
  });
});
