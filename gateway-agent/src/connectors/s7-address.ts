import type { S7Datatype } from '@plant/shared-schema';

/**
 * S7 addresses in the usual (Siemens, English or German) notation, as datapoints hold them
 * (`DB1.DBD4`, `M10.1`, `EW2`… see S7_ADDRESS in shared-schema), and their translation into
 * nodes7's syntax (`DB1,REAL4`, `M10.1`, `IW2`…), which names the datatype instead of the width.
 */

export type S7Area = 'DB' | 'M' | 'I' | 'Q';
/** X: one bit; B: a byte; W: a word (2 bytes); D: a double word (4 bytes). */
export type S7Width = 'X' | 'B' | 'W' | 'D';

export interface S7Location {
  readonly area: S7Area;
  /** The data block's number (DB only; 0 otherwise). */
  readonly db: number;
  /** Byte offset in the area or data block. */
  readonly byte: number;
  /** Bit in the byte, for X. */
  readonly bit: number;
  readonly width: S7Width;
}

const DB_ADDRESS = /^DB(\d{1,5})\.DB(?:X(\d{1,5})\.([0-7])|([BWD])(\d{1,5}))$/;
const AREA_ADDRESS = /^([MIQEA])(?:(\d{1,5})\.([0-7])|([BWD])(\d{1,5}))$/;
/** German mnemonics: E (Eingang) is I, A (Ausgang) is Q. */
const AREAS: Record<string, S7Area> = { M: 'M', I: 'I', Q: 'Q', E: 'I', A: 'Q' };
const MAX_OFFSET = 65_535;

/** Where an address points, or a reason (in plain words) why it is not an S7 address. */
export function parseS7Address(address: string): S7Location | { error: string } {
  const text = address.trim().toUpperCase();
  const db = DB_ADDRESS.exec(text);
  const other = db ? null : AREA_ADDRESS.exec(text);
  const match = db ?? other;
  if (!match) return { error: `${address} is not an S7 address (for example DB1.DBD4 or M10.1)` };
  const [, first, bitByte, bit, width, byte] = match;
  const dbNumber = db ? Number(first) : 0;
  const area = db ? 'DB' : AREAS[first ?? ''];
  if (area === undefined) return { error: `${address} is not an S7 address` };
  if (db && (dbNumber < 1 || dbNumber > MAX_OFFSET)) {
    return { error: `${address}: data blocks are numbered 1 to ${MAX_OFFSET}` };
  }
  const offset = Number(bitByte ?? byte);
  if (offset > MAX_OFFSET) return { error: `${address}: the byte offset is beyond ${MAX_OFFSET}` };
  return {
    area,
    db: dbNumber,
    byte: offset,
    bit: bit === undefined ? 0 : Number(bit),
    width: width === undefined ? 'X' : (width as S7Width),
  };
}

/** The width each datatype is read with. */
const WIDTHS: Record<S7Datatype, S7Width> = {
  bool: 'X',
  byte: 'B',
  int: 'W',
  word: 'W',
  dint: 'D',
  dword: 'D',
  real: 'D',
};

const FITTING: Record<S7Width, string> = {
  X: 'a bit: use bool',
  B: 'a byte: use byte',
  W: '16 bits: use int or word',
  D: '32 bits: use dint, dword or real',
};

/** nodes7's type names: in a data block after the comma, elsewhere after the area letter. */
const DB_TYPES: Record<Exclude<S7Datatype, 'bool'>, string> = {
  byte: 'BYTE',
  int: 'INT',
  word: 'WORD',
  dint: 'DINT',
  dword: 'DWORD',
  real: 'REAL',
};
const AREA_TYPES: Record<Exclude<S7Datatype, 'bool'>, string> = {
  byte: 'B',
  int: 'I',
  word: 'W',
  dint: 'DI',
  dword: 'D',
  real: 'R',
};

export type Nodes7Address =
  | { readonly ok: true; readonly address: string; readonly location: S7Location }
  | { readonly ok: false; readonly error: string };

/**
 * The nodes7 address that reads `address` as `datatype`: `DB1.DBD4` + real → `DB1,REAL4`,
 * `DB1.DBX0.3` + bool → `DB1,X0.3`, `MW10` + int → `MI10`, `EB0` + byte → `IB0`. The width in the
 * address must fit the datatype (a DBW holds an int or a word, never a real).
 */
export function toNodes7Address(address: string, datatype: S7Datatype): Nodes7Address {
  const location = parseS7Address(address);
  if ('error' in location) return { ok: false, error: location.error };
  if (WIDTHS[datatype] !== location.width) {
    return {
      ok: false,
      error: `${address.trim()} holds ${FITTING[location.width]}, not ${datatype}`,
    };
  }
  const { area, db, byte, bit } = location;
  if (datatype === 'bool') {
    return {
      ok: true,
      location,
      address: area === 'DB' ? `DB${db},X${byte}.${bit}` : `${area}${byte}.${bit}`,
    };
  }
  return {
    ok: true,
    location,
    address:
      area === 'DB'
        ? `DB${db},${DB_TYPES[datatype]}${byte}`
        : `${area}${AREA_TYPES[datatype]}${byte}`,
  };
}
