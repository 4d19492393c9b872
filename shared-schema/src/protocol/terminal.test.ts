import { describe, expect, it } from 'vitest';
import { parseTerminalLine, TERMINAL_UNKNOWN, TERMINAL_USAGE } from './terminal';

describe('terminal lines', () => {
  it('are the allowlist commands with their arguments, nothing else', () => {
    expect(parseTerminalLine(' status ')).toEqual({ command: { op: 'status' } });
    expect(parseTerminalLine('help')).toEqual({ help: true });
    expect(parseTerminalLine('ping 10.0.0.5 502')).toEqual({
      command: { op: 'ping', host: '10.0.0.5', port: 502 },
    });
    expect(parseTerminalLine('read Pressure')).toEqual({
      command: { op: 'read', tag: 'Pressure' },
    });
    expect(parseTerminalLine('restart Press PLC')).toEqual({
      command: { op: 'restart', connection: 'Press PLC' },
    });
    for (const line of ['', 'rm -rf /', 'bash', 'status; reboot', '$(reboot)']) {
      expect(parseTerminalLine(line), line).toEqual({ error: TERMINAL_UNKNOWN });
    }
    for (const line of ['ping host', 'ping a;b 80', 'ping 10.0.0.5 70000', 'read', 'status now']) {
      expect(parseTerminalLine(line), line).toEqual({ error: TERMINAL_USAGE });
    }
  });

  it('take a tag or connection name with spaces in double or single quotes, kept as written', () => {
    expect(parseTerminalLine('read "Tag with spaces"')).toEqual({
      command: { op: 'read', tag: 'Tag with spaces' },
    });
    expect(parseTerminalLine("read 'Oil  temp (°C)'")).toEqual({
      command: { op: 'read', tag: 'Oil  temp (°C)' },
    });
    expect(parseTerminalLine('READ  "it\'s hot" ')).toEqual({
      command: { op: 'read', tag: "it's hot" },
    });
    expect(parseTerminalLine('read Motor speed')).toEqual({
      command: { op: 'read', tag: 'Motor speed' },
    });
    expect(parseTerminalLine('restart "Press PLC"')).toEqual({
      command: { op: 'restart', connection: 'Press PLC' },
    });
    for (const line of ['read "open', 'read ""', 'read "a" "b"', 'read "a" b', 'status "x"']) {
      expect(parseTerminalLine(line), line).toEqual({ error: TERMINAL_USAGE });
    }
    for (const line of ['"read" x', '"rm -rf /"', "'open"]) {
      expect(parseTerminalLine(line), line).toEqual({ error: TERMINAL_UNKNOWN });
    }
  });
});
