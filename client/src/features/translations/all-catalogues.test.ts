import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_AREAS } from './all-catalogues';

describe('all catalogues', () => {
  it('names every area folder that has a catalogue of its own', () => {
    const features = fileURLToPath(new URL('..', import.meta.url));
    const withCatalogue = readdirSync(features).filter((name) =>
      existsSync(`${features}/${name}/locales/en/messages.po`),
    );
    expect([...CATALOGUE_AREAS].sort()).toEqual(withCatalogue.sort());
  });
});
