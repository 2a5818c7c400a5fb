// A ranking as the annotator builds it: picks in the order made, best first, each either a place of its
// own or tied with the pick before it (`=`). Responses are source-order indexes; the screen names them by
// their position (1, 2, 3 … in this annotator's shuffled order), never by letter. Pure data, no React.

export interface Pick {
  /** Source-order index of the response. */
  response: number;
  /** Shares the previous pick's place. Never true for the first pick. */
  tied: boolean;
}

/** Where the ranking stands: the picks made, plus the last response once it is the only one left. */
export interface Placement {
  picks: Pick[];
  /** The one response left once all others are placed: it takes the last place on its own (or tied, with `=` armed). */
  implied: Pick | null;
  /** Every response in one place (the implied one included). */
  complete: boolean;
}

export function placement(picks: Pick[], count: number, tieArmed: boolean): Placement {
  let implied: Pick | null = null;
  if (count >= 2 && picks.length === count - 1) {
    const placed = new Set(picks.map((p) => p.response));
    const left = Array.from({ length: count }, (_, i) => i).find((i) => !placed.has(i));
    if (left !== undefined) implied = { response: left, tied: tieArmed };
  }
  return { picks, implied, complete: picks.length + (implied ? 1 : 0) === count };
}

/** Every pick in order, the implied last one included. */
export function allPicks(p: Placement): Pick[] {
  return p.implied ? [...p.picks, p.implied] : p.picks;
}

/** Groups of tied responses, best first: what saveRanking stores. */
export function groupsOf(picks: Pick[]): number[][] {
  const groups: number[][] = [];
  for (const pick of picks) {
    if (pick.tied && groups.length) groups[groups.length - 1]!.push(pick.response);
    else groups.push([pick.response]);
  }
  return groups;
}

/** A stored ranking back into picks (group members in the order stored). */
export function picksOf(groups: number[][] | null): Pick[] {
  if (!groups) return [];
  return groups.flatMap((group) => group.map((response, i) => ({ response, tied: i > 0 })));
}

export function sameGroups(a: number[][] | null, b: number[][] | null): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** "1st", "2nd", "3rd", "4th" … */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Screen position (1-based) of a source-order response in this annotator's order. */
export function positionOf(order: number[], response: number): number {
  return order.indexOf(response) + 1;
}

/** A ranking in words, by screen position: "1st 3 · 2nd 1 = 4 · 3rd 2". */
export function describeRanking(groups: number[][], order: number[]): string {
  return groups.map((group, i) => `${ordinal(i + 1)} ${group.map((r) => positionOf(order, r)).join(' = ')}`).join(' · ');
}

/** The place (1-based group number) of each response that has one. */
export function placesOf(picks: Pick[]): Map<number, { place: number; tied: boolean }> {
  const places = new Map<number, { place: number; tied: boolean }>();
  groupsOf(picks).forEach((group, i) => {
    for (const r of group) places.set(r, { place: i + 1, tied: group.length > 1 });
  });
  return places;
}

/** Groups without one response (a group it leaves empty goes). */
function without(groups: number[][], response: number): number[][] {
  return groups.map((g) => g.filter((r) => r !== response)).filter((g) => g.length > 0);
}

/**
 * Drag and drop: gives a response a place of its own at a gap between groups (0: before the first group;
 * the group count: after the last). A response not placed yet is placed so; a placed one moves.
 */
export function placeAtGap(picks: Pick[], response: number, gap: number): Pick[] {
  const groups = groupsOf(picks);
  const at = Math.max(0, Math.min(gap, groups.length));
  // A marker holds the gap's place while the response leaves its old group (which may then go).
  const marked = [...groups.slice(0, at), [-1], ...groups.slice(at)];
  return picksOf(without(marked, response).map((g) => (g[0] === -1 ? [response] : g)));
}

/** Drag and drop onto a group: the response is tied with the responses in the group `with` is in. */
export function joinGroup(picks: Pick[], response: number, withResponse: number): Pick[] {
  const groups = without(groupsOf(picks), response);
  const group = groups.find((g) => g.includes(withResponse));
  if (!group) return picks;
  group.push(response);
  return picksOf(groups);
}

/** Takes a response out of the ranking (dragged back to "not placed"). */
export function unplace(picks: Pick[], response: number): Pick[] {
  return picksOf(without(groupsOf(picks), response));
}

/** Ties a pick to the one before it, or gives it a place of its own again (the separator clicked). */
export function toggleTie(picks: Pick[], index: number): Pick[] {
  if (index <= 0 || index >= picks.length) return picks;
  return picks.map((p, i) => (i === index ? { ...p, tied: !p.tied } : p));
}
