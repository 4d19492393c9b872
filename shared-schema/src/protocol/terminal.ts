import { z } from 'zod';

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
  'read <tag>: the last value the agent read for the tag, and when',
  'restart <connection>: restarts a connection (by name or id)',
].join('\n');

export const TERMINAL_UNKNOWN = 'Unknown command. Type help for the commands.';
export const TERMINAL_USAGE = 'Wrong arguments. Type help for the commands.';
export const TERMINAL_NOT_ALLOWED = 'The terminal needs the internal tag and gateway::view.';

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;

/** A command the agent runs (help is answered by the server). */
export const terminalCommandSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('status') }),
  z.object({
    op: z.literal('ping'),
    host: z.string().regex(HOST),
    port: z.number().int().min(1).max(65_535),
  }),
  z.object({ op: z.literal('read'), tag: z.string().min(1).max(100) }),
  z.object({ op: z.literal('restart'), connection: z.string().min(1).max(250) }),
]);
export type TerminalCommand = z.infer<typeof terminalCommandSchema>;

/** A line typed in the terminal, as a command, help, or why it is refused. */
export function parseTerminalLine(
  line: string,
): { command: TerminalCommand } | { help: true } | { error: string } {
  const words = line
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const [name, ...args] = words;
  const usage = { error: TERMINAL_USAGE };
  switch ((name ?? '').toLowerCase()) {
    case 'help':
      return args.length === 0 ? { help: true } : usage;
    case 'status':
      return args.length === 0 ? { command: { op: 'status' } } : usage;
    case 'ping': {
      const parsed = terminalCommandSchema.safeParse({
        op: 'ping',
        host: args[0],
        port: Number(args[1]),
      });
      return args.length === 2 && parsed.success ? { command: parsed.data } : usage;
    }
    case 'read':
      return args.length === 1 ? { command: { op: 'read', tag: args[0] ?? '' } } : usage;
    case 'restart':
      return args.length >= 1 && args.join(' ').length <= 250
        ? { command: { op: 'restart', connection: args.join(' ') } }
        : usage;
    default:
      return { error: TERMINAL_UNKNOWN };
  }
}

/** Browser -> server on `account/{a}/terminal/{gateway}/in`. */
export const terminalInSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  line: z.string().max(500),
});
export type TerminalIn = z.infer<typeof terminalInSchema>;

/** Server -> browsers with the tag on `account/{a}/terminal/{gateway}/out`. */
export const terminalOutSchema = z.object({
  id: z.string(),
  gateway: z.string(),
  line: z.string(),
  user: z.string(),
  at: z.number(),
  ok: z.boolean(),
  output: z.string(),
});
export type TerminalOut = z.infer<typeof terminalOutSchema>;

/** GET gateways/{id}/terminal: the gateway's terminal commands, newest first. */
export const terminalAuditSchema = z.array(
  z.object({
    id: z.string(),
    line: z.string(),
    user: z.string(),
    at: z.number(),
    ok: z.boolean().nullable(),
    output: z.string().nullable(),
  }),
);
export type TerminalAudit = z.infer<typeof terminalAuditSchema>;
