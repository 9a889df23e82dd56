import { call, text, type Scenario } from '../scenario.ts';

/**
 * Answers the seed's six workspace questions the way a tool-using model would: it looks with the tools
 * first, and its answer is computed from what the tools returned (so a changed workspace changes it).
 */
const qa: Scenario = (turn, messages) => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  const results = messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
  const listing = results[0] ?? '';
  const files = listing.split('\n').flatMap((line) => {
    const match = /^(.+) \((\d+) bytes\)$/.exec(line);
    return match ? [{ name: match[1]!, bytes: Number(match[2]) }] : [];
  });

  if (/timeout/i.test(goal)) {
    if (turn === 0) return call('q1', 'list_files');
    if (turn === 1) return { tool_calls: files.map((f, i) => ({ id: `q${i + 2}`, name: 'read_file', arguments: JSON.stringify({ path: f.name }) })) };
    const hit = files.find((_, i) => /timed? ?out/i.test(results[i + 1] ?? ''));
    return text(hit ? `${hit.name} mentions a timeout.` : 'No file mentions a timeout.');
  }
  if (/how many files/i.test(goal)) {
    return turn === 0 ? call('q1', 'list_files') : text(`There are ${files.length} files.`);
  }
  const named = /read ([\w.-]+\.\w+)/i.exec(goal)?.[1];
  if (named) {
    return turn === 0 ? call('q1', 'read_file', { path: named }) : text(`${named} says: ${(results[0] ?? '').trim()}`);
  }
  if (/read each/i.test(goal)) {
    if (turn === 0) return call('q1', 'list_files');
    if (turn === 1) return { tool_calls: files.map((f, i) => ({ id: `q${i + 2}`, name: 'read_file', arguments: JSON.stringify({ path: f.name }) })) };
    return text(`Read ${files.length} files: ${files.map((f) => f.name).join(', ')}.`);
  }
  if (/largest/i.test(goal)) {
    if (turn === 0) return call('q1', 'list_files');
    const largest = [...files].sort((a, b) => b.bytes - a.bytes)[0];
    return text(largest ? `The largest file is ${largest.name}.` : 'There are no files.');
  }
  if (/rotat/i.test(goal)) {
    if (turn === 0) return call('q1', 'list_files');
    if (turn === 1) return { tool_calls: files.map((f, i) => ({ id: `q${i + 2}`, name: 'read_file', arguments: JSON.stringify({ path: f.name }) })) };
    const hit = files.find((_, i) => /rotat/i.test(results[i + 1] ?? ''));
    return text(hit ? `Yes: ${hit.name} is about rotating logs.` : 'No file is about rotating logs.');
  }
  return text(`I do not know how to answer: ${goal}`);
};

export default qa;
