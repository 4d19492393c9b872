/**
 * A small CBOR decoder (RFC 8949) for what WebAuthn sends: the attestation object and the COSE
 * public key inside authenticator data. Enough of CBOR for those (unsigned and negative
 * integers, byte and text strings, arrays, maps, simple values and floats), bounded so that a
 * client's bytes cannot make it work hard: definite lengths only, at most 16 levels deep and
 * 1,000 items, every length checked against what is left. Anything else is a `CborError`.
 */
export type CborValue =
  | number
  | bigint
  | string
  | boolean
  | null
  | undefined
  | Uint8Array
  | CborValue[]
  | Map<CborValue, CborValue>;

export class CborError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CborError';
  }
}

const MAX_DEPTH = 16;
const MAX_ITEMS = 1000;

interface Reader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  offset: number;
  items: number;
}

/** Decodes one item at the start of `bytes`; answers it and where it ended. */
export function decodeCborFirst(bytes: Uint8Array): { value: CborValue; end: number } {
  const reader: Reader = {
    bytes,
    view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    offset: 0,
    items: 0,
  };
  const value = item(reader, 0);
  return { value, end: reader.offset };
}

/** Decodes `bytes` holding exactly one item. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const { value, end } = decodeCborFirst(bytes);
  if (end !== bytes.length) throw new CborError('bytes after the CBOR item');
  return value;
}

function need(r: Reader, n: number): void {
  if (n < 0 || r.offset + n > r.bytes.length) throw new CborError('CBOR item cut short');
}

/** The argument of an item's head: its value, or a length. */
function argument(r: Reader, info: number): number | bigint {
  if (info < 24) return info;
  switch (info) {
    case 24:
      need(r, 1);
      return r.view.getUint8(r.offset++);
    case 25: {
      need(r, 2);
      const v = r.view.getUint16(r.offset);
      r.offset += 2;
      return v;
    }
    case 26: {
      need(r, 4);
      const v = r.view.getUint32(r.offset);
      r.offset += 4;
      return v;
    }
    case 27: {
      need(r, 8);
      const v = r.view.getBigUint64(r.offset);
      r.offset += 8;
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    default:
      throw new CborError('indefinite or reserved CBOR lengths are not taken');
  }
}

function length(r: Reader, info: number): number {
  const n = argument(r, info);
  if (typeof n !== 'number') throw new CborError('CBOR length too large');
  return n;
}

function item(r: Reader, depth: number): CborValue {
  if (depth > MAX_DEPTH) throw new CborError('CBOR nested too deep');
  if (++r.items > MAX_ITEMS) throw new CborError('too many CBOR items');
  need(r, 1);
  const head = r.view.getUint8(r.offset++);
  const major = head >> 5;
  const info = head & 31;
  switch (major) {
    case 0:
      return argument(r, info);
    case 1: {
      const n = argument(r, info);
      return typeof n === 'number' ? -1 - n : -1n - n;
    }
    case 2: {
      const n = length(r, info);
      need(r, n);
      const out = r.bytes.slice(r.offset, r.offset + n);
      r.offset += n;
      return out;
    }
    case 3: {
      const n = length(r, info);
      need(r, n);
      let out: string;
      try {
        out = new TextDecoder('utf-8', { fatal: true }).decode(
          r.bytes.subarray(r.offset, r.offset + n),
        );
      } catch {
        throw new CborError('CBOR text is not UTF-8');
      }
      r.offset += n;
      return out;
    }
    case 4: {
      const n = length(r, info);
      // Each item takes at least one byte: a count past what is left is a lie.
      need(r, n);
      const out: CborValue[] = [];
      for (let i = 0; i < n; i++) out.push(item(r, depth + 1));
      return out;
    }
    case 5: {
      const n = length(r, info);
      need(r, 2 * n);
      const out = new Map<CborValue, CborValue>();
      for (let i = 0; i < n; i++) {
        const key = item(r, depth + 1);
        if (key instanceof Uint8Array || Array.isArray(key) || key instanceof Map)
          throw new CborError('CBOR map keys must be numbers or texts');
        if (out.has(key)) throw new CborError('CBOR map key repeated');
        out.set(key, item(r, depth + 1));
      }
      return out;
    }
    case 6:
      throw new CborError('CBOR tags are not taken');
    default:
      return simple(r, info);
  }
}

function simple(r: Reader, info: number): CborValue {
  switch (info) {
    case 20:
      return false;
    case 21:
      return true;
    case 22:
      return null;
    case 23:
      return undefined;
    case 25: {
      need(r, 2);
      const v = halfFloat(r.view.getUint16(r.offset));
      r.offset += 2;
      return v;
    }
    case 26: {
      need(r, 4);
      const v = r.view.getFloat32(r.offset);
      r.offset += 4;
      return v;
    }
    case 27: {
      need(r, 8);
      const v = r.view.getFloat64(r.offset);
      r.offset += 8;
      return v;
    }
    default:
      throw new CborError('unknown CBOR simple value');
  }
}

function halfFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac === 0 ? sign * Infinity : NaN;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}
