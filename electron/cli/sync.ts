// `arbiter sync --project P [--hub URL]`: one sync of a linked project with its hub (core/hub/sync.ts).
// stdout: one JSON line, {"pushed", "pulled", …}; stderr: a progress line per batch ("push: 5000 pushed,
// 0 pulled"), and what was passed over or deferred, in words. The password as for `arbiter hub …`:
// ARBITER_HUB_PASSWORD, else a prompt on a terminal, else none.
import { parseHubUrl, syncProject } from '../core/service/hubDirect';
import { hubLink, requireProject } from '../core/service/direct';
import { plural } from '../../shared/plural';
import { hubPassword, type HubIo } from './hubIo';
import { parse, UsageError, withDb } from './io';
import { requireProjectName } from './options';

export async function syncCommand(argv: string[], io: HubIo): Promise<number> {
  const { values } = parse(argv, { project: { type: 'string' }, hub: { type: 'string' }, batch: { type: 'string' } });
  const project = requireProjectName(values);
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && !(Number.isInteger(batch) && batch > 0)) throw new UsageError(`--batch ${String(values.batch)}: a whole number of revisions, more than 0`);
  return withDb(values, async (db) => {
    const row = requireProject(db, project);
    const link = hubLink(db, row.id);
    const url = typeof values.hub === 'string' ? values.hub : link?.url;
    const password = url ? await hubPassword(io, parseHubUrl(url)) : undefined;
    const summary = await syncProject(db, {
      project,
      url,
      password,
      batch,
      onProgress: (p) => io.err(`${p.phase}: ${p.pushed} pushed, ${p.pulled} pulled`),
    });
    if (summary.notPushed) {
      io.err(
        `${plural(summary.notPushed, 'revision')} saved here by ${summary.notPushedBy.join(', ')} ${summary.notPushed === 1 ? 'was' : 'were'} not pushed: ` +
          `this login role (${summary.as ?? 'no annotator'}) may push only its own annotator's revisions, and adjudications only as a lead. ` +
          `They are held here and go up at a sync under a login role granted to whoever saved them.`,
      );
    }
    if (summary.waitingForItems)
      io.err(
        `${plural(summary.waitingForItems, 'revision')} saved here ${summary.waitingForItems === 1 ? 'is' : 'are'} for items the hub does not hold (not published by a lead): ` +
          `held here, they go up at the first sync after a lead publishes those items (arbiter hub publish).`,
      );
    if (summary.deferred) io.err(`${plural(summary.deferred, 'revision')} from the hub cannot merge here yet and will be tried again at the next sync; the first: ${summary.deferredReason}`);
    if (summary.items) io.err(`${plural(summary.items, 'new item')} came down from the hub.`);
    if (summary.itemsProblem) io.err(`New items on the hub did not come down (the next sync tries again): ${summary.itemsProblem}`);
    for (const sentence of summary.refused) io.err(sentence);
    if (summary.settings === 'taken') io.err("The project's settings and rubric in force are now the hub's (the lead's).");
    io.out(JSON.stringify(summary));
    return 0;
  });
}
