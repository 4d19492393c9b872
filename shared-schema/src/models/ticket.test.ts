import { describe, expect, it } from 'vitest';
import {
  TICKET_MOVES,
  TICKET_STATES,
  ticketAttributesSchema,
  ticketChangeProblems,
  ticketMovesFrom,
  type TicketRole,
} from './ticket';

/** The feedback centre's table (issue 34 item 1): its shape, and a few of its decisions. */
describe('the ticket table', () => {
  it('names each move once, each with somebody who may make it, and reaches every state', () => {
    const pairs = TICKET_MOVES.map((m) => `${m.from}->${m.to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(TICKET_MOVES.every((m) => m.by.length > 0 && m.from !== m.to)).toBe(true);
    const reached = new Set<string>(['new']);
    for (let grew = true; grew;) {
      grew = false;
      for (const m of TICKET_MOVES)
        if (reached.has(m.from) && !reached.has(m.to)) {
          reached.add(m.to);
          grew = true;
        }
    }
    expect([...reached].sort()).toEqual([...TICKET_STATES].sort());
  });

  it('offers a reporter only withdrawing a new report, an admin approving or declining it', () => {
    const of = (...roles: TicketRole[]) =>
      ticketMovesFrom('new', new Set(roles)).map((m) => m.action);
    expect(of('reporter')).toEqual(['Withdraw']);
    expect(of('admin')).toEqual(['Approve', 'Approve and assign', 'Decline']);
    expect(of()).toEqual([]);
  });

  it('tells a forbidden change from an unmet need', () => {
    const before = ticketAttributesSchema.parse({
      kind: 'problem',
      title: 'Pump',
      description: 'Leaks.',
    });
    const declined = { ...before, state: 'declined' as const };
    expect(
      ticketChangeProblems({ before, after: declined, changed: ['state'] }, new Set(['admin'])),
    ).toEqual({ forbidden: {}, needs: { answer: ['An answer to the reporter is required.'] } });
    expect(
      ticketChangeProblems(
        { before, after: { ...declined, answer: 'No.' }, changed: ['state', 'answer'] },
        new Set(['reporter']),
      ).forbidden,
    ).toEqual({
      answer: ['You may not change this on this ticket.'],
      state: ['You may not move this ticket to that state.'],
    });
  });
});
