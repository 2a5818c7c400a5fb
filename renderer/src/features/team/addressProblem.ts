// What is wrong with a hub address typed in the Team panel or the join form, as a sentence; null when
// it is one the host can connect to (the host checks it again: shared/api/team.ts hubUrl).
import { hubUrlProblem } from '../../../../shared/api/team';

export function addressProblem(typed: string): string | null {
  const address = typed.trim();
  if (!address) return 'Type the hub’s address first: postgres://you@host:5432/database.';
  const problem = hubUrlProblem(address);
  return problem && problem.charAt(0).toUpperCase() + problem.slice(1) + (problem.endsWith('.') ? '' : '.');
}
