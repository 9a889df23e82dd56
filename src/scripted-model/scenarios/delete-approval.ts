import { call, text, type Scenario } from '../scenario.ts';

/** Lists, asks to delete access.log, then answers from what the tool message said happened. */
const deleteApproval: Scenario = (turn, messages) => {
  if (turn === 0) return call('c1', 'list_files');
  if (turn === 1) return call('c2', 'delete_file', { path: 'access.log' });
  const told = messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
  if (/^Deleted access\.log/.test(told)) return text('Deleted access.log to free space.');
  const reason = /Reason: (.+)$/.exec(told)?.[1];
  return text(`I did not delete anything: ${reason ? `you declined because "${reason}"` : 'you declined the deletion'}.`);
};

export default deleteApproval;
