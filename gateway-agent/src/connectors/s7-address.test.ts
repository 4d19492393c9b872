import { describe, expect, it } from 'vitest';
import { S7_ADDRESS, type S7Datatype } from '@plant/shared-schema';
import { parseS7Address, toNodes7Address } from './s7-address';

const nodes7 = (address: string, datatype: S7Datatype) => {
  const mapped = toNodes7Address(address, datatype);
  return mapped.ok ? mapped.address : `error: ${mapped.error}`;
};

describe('toNodes7Address', () => {
  it('maps data block addresses to nodes7 types', () => {
    expect(nodes7('DB1.DBX0.3', 'bool')).toBe('DB1,X0.3');
    expect(nodes7('DB1.DBB2', 'byte')).toBe('DB1,BYTE2');
    expect(nodes7('DB1.DBW4', 'int')).toBe('DB1,INT4');
    expect(nodes7('DB1.DBW4', 'word')).toBe('DB1,WORD4');
    expect(nodes7('DB10.DBD8', 'dint')).toBe('DB10,DINT8');
    expect(nodes7('DB10.DBD8', 'dword')).toBe('DB10,DWORD8');
    expect(nodes7('DB1.DBD4', 'real')).toBe('DB1,REAL4');
    expect(nodes7('DB65535.DBD65535', 'real')).toBe('DB65535,REAL65535');
  });

  it('maps merkers, inputs and outputs, German mnemonics included', () => {
    expect(nodes7('M10.1', 'bool')).toBe('M10.1');
    expect(nodes7('MB10', 'byte')).toBe('MB10');
    expect(nodes7('MW10', 'int')).toBe('MI10');
    expect(nodes7('MW10', 'word')).toBe('MW10');
    expect(nodes7('MD12', 'dint')).toBe('MDI12');
    expect(nodes7('MD12', 'dword')).toBe('MD12');
    expect(nodes7('MD12', 'real')).toBe('MR12');
    expect(nodes7('I0.0', 'bool')).toBe('I0.0');
    expect(nodes7('E0.7', 'bool')).toBe('I0.7');
    expect(nodes7('IB3', 'byte')).toBe('IB3');
    expect(nodes7('EW2', 'int')).toBe('II2');
    expect(nodes7('ID4', 'real')).toBe('IR4');
    expect(nodes7('Q1.2', 'bool')).toBe('Q1.2');
    expect(nodes7('A1.2', 'bool')).toBe('Q1.2');
    expect(nodes7('QW6', 'word')).toBe('QW6');
    expect(nodes7('AD8', 'dint')).toBe('QDI8');
  });

  it('takes lower case and spaces around', () => {
    expect(nodes7(' db2.dbd0 ', 'real')).toBe('DB2,REAL0');
    expect(nodes7('mw4', 'int')).toBe('MI4');
  });

  it('refuses a datatype that does not fit the width of the address', () => {
    expect(nodes7('DB1.DBW4', 'real')).toBe(
      'error: DB1.DBW4 holds 16 bits: use int or word, not real',
    );
    expect(nodes7('DB1.DBD4', 'int')).toBe(
      'error: DB1.DBD4 holds 32 bits: use dint, dword or real, not int',
    );
    expect(nodes7('M10.1', 'byte')).toBe('error: M10.1 holds a bit: use bool, not byte');
    expect(nodes7('MB1', 'bool')).toBe('error: MB1 holds a byte: use byte, not bool');
  });

  it('refuses what is not an S7 address or out of range', () => {
    expect(nodes7('DB1,REAL4', 'real')).toBe(
      'error: DB1,REAL4 is not an S7 address (for example DB1.DBD4 or M10.1)',
    );
    expect(nodes7('M10.8', 'bool')).toMatch(/^error: M10.8 is not an S7 address/);
    expect(nodes7('DB0.DBW0', 'int')).toBe('error: DB0.DBW0: data blocks are numbered 1 to 65535');
    expect(nodes7('MW70000', 'int')).toBe('error: MW70000: the byte offset is beyond 65535');
  });

  it('understands every address the shared schema accepts', () => {
    const samples = ['DB1.DBX0.3', 'DB1.DBB2', 'DB1.DBW4', 'DB1.DBD8', 'M10.1', 'MB10', 'MW10'];
    samples.push('MD10', 'I0.0', 'IB0', 'IW0', 'ID0', 'Q0.0', 'QB0', 'QW0', 'QD0', 'E1.1', 'AB2');
    for (const address of samples) {
      expect(S7_ADDRESS.test(address)).toBe(true);
      expect(parseS7Address(address)).not.toHaveProperty('error');
    }
  });

  it('tells where an address points', () => {
    expect(parseS7Address('DB3.DBX7.6')).toEqual({
      area: 'DB',
      db: 3,
      byte: 7,
      bit: 6,
      width: 'X',
    });
    expect(parseS7Address('EW12')).toEqual({ area: 'I', db: 0, byte: 12, bit: 0, width: 'W' });
  });
});
