import { z } from 'zod';
import { deferred } from '../deferred';
import { TERMINAL_UNKNOWN, TERMINAL_USAGE } from './terminal-texts';
export {
  TERMINAL_NOT_ALLOWED,
  TERMINAL_PING_REFUSED,
  TERMINAL_UNKNOWN,
  TERMINAL_USAGE,
} from './terminal-texts';

/**
 * The gateway terminal (spec 000 §2, §3; DESIGN.md invariant 7): a command channel from a
 * browser to a gateway's agent over the broker, for users with the internal tag. No shell: only
 * the diagnostic commands below, parsed here (the server refuses anything else before it reaches
 * the agent) and kept in an audit list with who ran them.
 */
export const TERMINAL_HELP = [
  'help: these commands',
  'status: the agent, its configuration, connections and buffer',
  'ping <host> <port>: opens a TCP connection to the host three times and says how long each took',
  'read <tag>: the last value the agent read for the tag, and when ("quotes" for spaces)',
  'restart <connection>: restarts a connection (by name or id)',
].join('\n');

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;

/** A command the agent runs (help is answered by the server). */
export const terminalCommandSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('status') }),
    z.object({
      op: z.literal('ping'),
      host: z.string().regex(HOST),
      port: z.number().int().min(1).max(65_535),
    }),
    z.object({ op: z.literal('read'), tag: z.string().min(1).max(100) }),
    z.object({ op: z.literal('restart'), connection: z.string().min(1).max(250) }),
  ]),
);
export type TerminalCommand = z.infer<typeof terminalCommandSchema>;

/**
 * A line's words: runs of characters other than spaces, or the text between a pair of double or
 * single quotes (kept exactly, spaces included). Null when a quote is left open.
 */
export function terminalWords(line: string): { text: string; quoted: boolean }[] | null {
  const words: { text: string; quoted: boolean }[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      const end = line.indexOf(c, i + 1);
      if (end < 0) return null;
      words.push({ text: line.slice(i + 1, end), quoted: true });
      i = end + 1;
    } else {
      let end = i;
      while (end < line.length && !/[\s"']/.test(line.charAt(end))) end++;
      words.push({ text: line.slice(i, end), quoted: false });
      i = end;
    }
  }
  return words;
}

/**
 * The name a command takes (a tag, a connection): one quoted word as written, or the words
 * typed without quotes joined by one space (`restart Press PLC`).
 */
function nameOf(args: readonly { text: string; quoted: boolean }[]): string | undefined {
  if (args.length === 1) return args[0]?.text;
  if (args.length > 1 && args.every((a) => !a.quoted)) return args.map((a) => a.text).join(' ');
  return undefined;
}

const COMMANDS = new Set(['help', 'status', 'ping', 'read', 'restart']);

/** A line typed in the terminal, as a command, help, or why it is refused. */
export function parseTerminalLine(
  line: string,
): { command: TerminalCommand } | { help: true } | { error: string } {
  const words = terminalWords(line);
  const usage = { error: TERMINAL_USAGE };
  if (words === null) {
    // A quote left open: a known command's arguments are wrong, anything else is unknown.
    const typed = /^\s*([^\s"']+)/.exec(line)?.[1]?.toLowerCase() ?? '';
    return COMMANDS.has(typed) ? usage : { error: TERMINAL_UNKNOWN };
  }
  const [first, ...args] = words;
  const name = first?.quoted === false ? first.text : '';
  switch (name.toLowerCase()) {
    case 'help':
      return args.length === 0 ? { help: true } : usage;
    case 'status':
      return args.length === 0 ? { command: { op: 'status' } } : usage;
    case 'ping': {
      const parsed = terminalCommandSchema.safeParse({
        op: 'ping',
        host: args[0]?.text,
        port: Number(args[1]?.text),
      });
      return args.length === 2 && parsed.success ? { command: parsed.data } : usage;
    }
    case 'read': {
      const parsed = terminalCommandSchema.safeParse({ op: 'read', tag: nameOf(args) });
      return parsed.success ? { command: parsed.data } : usage;
    }
    case 'restart': {
      const parsed = terminalCommandSchema.safeParse({ op: 'restart', connection: nameOf(args) });
      return parsed.success ? { command: parsed.data } : usage;
    }
    default:
      return { error: TERMINAL_UNKNOWN };
  }
}

/** Browser -> server on `account/{a}/terminal/{gateway}/in`. */
export const terminalInSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    line: z.string().max(500),
  }),
);
export type TerminalIn = z.infer<typeof terminalInSchema>;

/** Server -> browsers with the tag on `account/{a}/terminal/{gateway}/out`. */
export const terminalOutSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    gateway: z.string(),
    line: z.string(),
    user: z.string(),
    at: z.number(),
    ok: z.boolean(),
    output: z.string(),
  }),
);
export type TerminalOut = z.infer<typeof terminalOutSchema>;

/** GET gateways/{id}/terminal: the gateway's terminal commands, newest first. */
export const terminalAuditSchema = /* @__PURE__ */ deferred(() =>
  z.array(
    z.object({
      id: z.string(),
      line: z.string(),
      user: z.string(),
      at: z.number(),
      ok: z.boolean().nullable(),
      output: z.string().nullable(),
    }),
  ),
);
export type TerminalAudit = z.infer<typeof terminalAuditSchema>;

/**
 * Where a gateway's `ping` may go (issue 28): the hosts of its configured connections, and
 * addresses inside its own networks (its interfaces' addresses with their masks, and its static
 * setting). Anything else (the cloud's metadata service, the office network, the internet) would
 * make the terminal a port scanner from inside the plant. The server judges with what it stored,
 * the agent again with its configuration and interfaces.
 */
export interface PingScope {
  /** The connections' hosts (names or addresses), as configured. */
  readonly hosts: readonly string[];
  /** The gateway's addresses with their masks (IPv4 dotted, IPv6 as `ffff:ffff::`). */
  readonly networks: readonly { readonly address: string; readonly netmask: string }[];
}

/** The host a connection's settings reach (Modbus and S7 `host`, OPC UA's endpoint's host). */
export function connectionHostOf(settings: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof settings.host === 'string') return settings.host;
  if (typeof settings.endpoint === 'string') {
    return /^opc\.tcp:\/\/(\[[^\]]+\]|[^\s/:]+)/i.exec(settings.endpoint)?.[1];
  }
  return undefined;
}

/** Whether `ping host` stays inside the scope. */
export function mayPing(scope: PingScope, host: string): boolean {
  const wanted = bare(host);
  if (scope.hosts.some((h) => bare(h) === wanted)) return true;
  const target = addressBytes(wanted);
  if (target === undefined) return false;
  return scope.networks.some(({ address, netmask }) => {
    const own = addressBytes(bare(address));
    const mask = addressBytes(netmask);
    if (own === undefined || mask === undefined) return false;
    if (own.length !== target.length || mask.length !== target.length) return false;
    // A mask wider than /8 (IPv4) or /32 (IPv6) is no plant network: it would open everything.
    if (prefixLength(mask) < (target.length === 4 ? 8 : 32)) return false;
    return target.every((b, i) => (b & (mask[i] ?? 0)) === ((own[i] ?? 0) & (mask[i] ?? 0)));
  });
}

function bare(host: string): string {
  return host
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

function prefixLength(mask: readonly number[]): number {
  let bits = 0;
  for (const byte of mask) {
    if (byte === 255) bits += 8;
    else {
      bits += 8 - Math.log2(256 - byte);
      break;
    }
  }
  return bits;
}

/** The bytes of an IPv4 (4) or IPv6 (16) address; IPv4-mapped IPv6 as IPv4; else undefined. */
function addressBytes(text: string): number[] | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4 !== null) {
    const bytes = v4.slice(1).map(Number);
    return bytes.every((b) => b <= 255) ? bytes : undefined;
  }
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(':')) return undefined;
  let rest = text;
  // A dotted IPv4 tail (`::ffff:10.0.0.1`) as its two groups.
  const dotted = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(rest);
  if (dotted !== null) {
    const [a = 0, b = 0, c = 0, d = 0] = addressBytes(dotted[1] ?? '') ?? [];
    if (addressBytes(dotted[1] ?? '') === undefined) return undefined;
    rest = `${rest.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0] ?? '');
  const after = halves.length === 2 ? groups(halves[1] ?? '') : [];
  const fill = 8 - head.length - after.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return undefined;
  const all = [...head, ...Array<string>(fill).fill('0'), ...after];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255;
  return mapped ? bytes.slice(12) : bytes;
}
