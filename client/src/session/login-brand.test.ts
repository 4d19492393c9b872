import { describe, expect, it } from 'vitest';
import { NO_DESIGN, type AccountDesign } from '@plant/shared-schema';
import { brandToRemember } from './login-brand';

const atSignIn: AccountDesign = { ...NO_DESIGN, title: 'Plant', color2: '#7f6000' };
const saved: AccountDesign = {
  ...atSignIn,
  title: 'Machine Works',
  loginImage: '/api/v1/files/abc/raw',
};

describe('the brand the sign-in page remembers', () => {
  it("is the account's synced design once its model is in the store", () => {
    expect(
      brandToRemember({ name: 'Demo', live: saved, stored: atSignIn, liveSeen: true }),
    ).toMatchObject({ title: 'Machine Works', loginImage: '/api/v1/files/abc/raw' });
  });

  it("is the sign-in's design while the model has not reached the store", () => {
    expect(
      brandToRemember({ name: 'Demo', live: null, stored: atSignIn, liveSeen: false }),
    ).toMatchObject({ title: 'Plant', loginImage: null, color2: '#7f6000' });
    // An account without a design: its name.
    expect(
      brandToRemember({ name: 'Demo', live: null, stored: null, liveSeen: false }),
    ).toMatchObject({ title: 'Demo', loginImage: null });
  });

  it("keeps a newer save when the store empties at sign-out (the sign-in's design stays away)", () => {
    expect(
      brandToRemember({ name: 'Demo', live: null, stored: atSignIn, liveSeen: true }),
    ).toBeNull();
  });

  it('remembers nothing without an account', () => {
    expect(brandToRemember({ name: '', live: saved, stored: null, liveSeen: true })).toBeNull();
  });
});
