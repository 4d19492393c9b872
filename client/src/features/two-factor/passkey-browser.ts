import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyRequestOptions,
} from '@plant/shared-schema';

/*
 * The browser's side of passkeys (issue 38 item 2): the server's options (buffers as base64url
 * texts) into what navigator.credentials takes, and its answers back into the shared schemas'
 * shapes. The page calls the browser itself: WebAuthn lives in the page, not in a worker.
 */

function fromBase64url(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toBase64url(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether this browser offers passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === 'function' && 'credentials' in navigator;
}

/** Why a ceremony ended without a passkey: the user's choice, or something else. */
export type PasskeyFailure = 'cancelled' | 'failed';

function failureOf(err: unknown): PasskeyFailure {
  // NotAllowedError: the user closed the dialog, or it timed out; both are the user's to retry.
  return err instanceof DOMException && err.name === 'NotAllowedError' ? 'cancelled' : 'failed';
}

/** navigator.credentials.create with the server's options; the credential for the register call. */
export async function createPasskey(
  options: PasskeyCreationOptions,
): Promise<PasskeyRegistration['credential'] | PasskeyFailure> {
  try {
    const made = await navigator.credentials.create({
      publicKey: {
        challenge: fromBase64url(options.challenge),
        rp: options.rp,
        user: { ...options.user, id: fromBase64url(options.user.id) },
        pubKeyCredParams: options.pubKeyCredParams,
        timeout: options.timeout,
        excludeCredentials: options.excludeCredentials.map((c) => ({
          type: c.type,
          id: fromBase64url(c.id),
          ...(c.transports === undefined
            ? {}
            : { transports: c.transports as AuthenticatorTransport[] }),
        })),
        authenticatorSelection: options.authenticatorSelection,
        attestation: options.attestation,
      },
    });
    if (!(made instanceof PublicKeyCredential)) return 'failed';
    const response = made.response as AuthenticatorAttestationResponse;
    return {
      id: toBase64url(made.rawId),
      type: 'public-key',
      response: {
        clientDataJSON: toBase64url(response.clientDataJSON),
        attestationObject: toBase64url(response.attestationObject),
        transports: response.getTransports().slice(0, 10),
      },
    };
  } catch (err) {
    return failureOf(err);
  }
}

/** navigator.credentials.get for the sign-in's challenge: the assertion for the grant. */
export async function getPasskey(
  options: PasskeyRequestOptions,
): Promise<PasskeyAssertion | PasskeyFailure> {
  try {
    const got = await navigator.credentials.get({
      publicKey: {
        challenge: fromBase64url(options.challenge),
        rpId: options.rpId,
        timeout: options.timeout,
        userVerification: options.userVerification,
        // Empty: the user picks one of the passkeys this site's RP ID has (they are discoverable).
        allowCredentials: [],
      },
    });
    if (!(got instanceof PublicKeyCredential)) return 'failed';
    const response = got.response as AuthenticatorAssertionResponse;
    return {
      id: toBase64url(got.rawId),
      type: 'public-key',
      response: {
        clientDataJSON: toBase64url(response.clientDataJSON),
        authenticatorData: toBase64url(response.authenticatorData),
        signature: toBase64url(response.signature),
        userHandle: response.userHandle === null ? null : toBase64url(response.userHandle),
      },
    };
  } catch (err) {
    return failureOf(err);
  }
}
