import { describe, expect, it } from 'vitest';
import { filledPath } from './try-path';

describe('the path Try it sends', () => {
  it('fills the path parameters and the query values given, under the API base', () => {
    expect(
      filledPath('/datastreams/{id}/values', { id: 'ds-1' }, { from: '0', to: '10', points: '' }),
    ).toEqual({ path: 'datastreams/ds-1/values?from=0&to=10' });
    expect(filledPath('/user', {})).toEqual({ path: 'user' });
  });

  it('names the path parameters left empty', () => {
    expect(filledPath('/account/roles/{id}/assets/{assetId}', { id: 'r1', assetId: ' ' })).toEqual({
      missing: ['assetId'],
    });
  });

  it('keeps each value inside its segment', () => {
    expect(filledPath('/users/{id}', { id: '../../oauth/clients' })).toEqual({
      path: 'users/%2E%2E%2F%2E%2E%2Foauth%2Fclients',
    });
    expect(filledPath('/users/{id}', { id: '..' })).toEqual({ path: 'users/%2E%2E' });
  });
});
