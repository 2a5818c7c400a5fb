// Who the hub grants, beside who labels here (a shared desktop, issue 20 item 24): every granted person in
// "Where the team stands" (those with nothing here at 0), and for the person at the keyboard whether the
// hub knows their name under another uuid, whether this desktop may take it, and the grant the hub's
// admin runs otherwise.
import type { TeamStatus } from '../../../shared/api/team';
import type { HubMember } from '../hub/listen';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { annotatorNameByUuid, labelsElsewhere } from '../store/teamUuid';

/** The person asked about: their uuid here, and the hub's for their name when it differs. */
export function hubYou(db: Db, projectId: number, name: string, members: HubMember[]): NonNullable<TeamStatus['you']> {
  const here = findAnnotator(db, name);
  const member = members.find((m) => m.name === name);
  if (!here || !member || here.uuid.toLowerCase() === member.uuid) return { name, uuid: here?.uuid ?? null };
  const elsewhere = here.kind === 'human' ? labelsElsewhere(db, here.id, projectId) : [];
  const taken = annotatorNameByUuid(db, member.uuid);
  const why =
    here.kind !== 'human'
      ? `"${name}" is not a person here`
      : elsewhere.length
        ? `${name} has labels in ${elsewhere.map((p) => `"${p}"`).join(', ')} on this desktop, which keep this desktop's uuid`
        : taken
          ? `the hub's uuid belongs to "${taken}" here`
          : null;
  return { name, uuid: here.uuid, hub: { uuid: member.uuid, role: member.role, adoptable: why === null, why, command: grantCommand(name, member.role, here.uuid) } };
}

/** Every person the hub grants, in the figures: those with nothing here yet at 0, and each one's role there. */
export function withMembers(rows: TeamStatus['annotators'], members: HubMember[]): TeamStatus['annotators'] {
  if (!members.length) return rows;
  const byUuid = new Map(members.map((m) => [m.uuid, m]));
  const out = rows.map((r) => ({ ...r, granted: byUuid.get(r.uuid.toLowerCase())?.role ?? null }));
  // A name here under another uuid is that person's row (you.hub says so), not a second one.
  const here = new Set(rows.flatMap((r) => [r.uuid.toLowerCase(), r.name]));
  for (const m of members) if (!here.has(m.uuid) && !here.has(m.name)) out.push({ name: m.name, uuid: m.uuid, labels: 0, waiting: 0, granted: m.role });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The grant the hub's admin runs so the hub takes a person's labels under the uuid they have here. */
export function grantCommand(name: string, role: string, uuid: string): string {
  const quoted = /^[\w.@-]+$/.test(name) ? name : `'${name.replace(/'/g, `'\\''`)}'`;
  return `arbiter hub grant --hub URL --annotator ${quoted} --role ${role} --uuid ${uuid}`;
}
