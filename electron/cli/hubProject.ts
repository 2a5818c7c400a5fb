// `arbiter hub publish --project P --hub URL` and `arbiter hub join --project P --hub URL`: a project to the
// team hub and from it (core/hub/publish.ts, core/hub/join.ts). Each prints one JSON line: what it added.
import { joinProject, publishProject } from '../core/service/hubDirect';
import { withHub, type HubIo } from './hubIo';
import { parse, withDb } from './io';
import { requireProjectName } from './options';

export async function publishCommand(argv: string[], io: HubIo): Promise<number> {
  const { values } = parse(argv, { project: { type: 'string' }, hub: { type: 'string' } });
  const project = requireProjectName(values);
  return withHub(values, io, (client, address) =>
    withDb(values, async (db) => {
      const summary = await publishProject(db, client, project, { where: address.where, url: address.url });
      if (!summary.linked) io.err(`arbiter hub publish: "${project}" here stays linked to the hub it was linked to before; arbiter sync keeps syncing with that one.`);
      if (summary.segmentationsDiffering)
        io.err(`arbiter hub publish: ${summary.segmentationsDiffering} cut${summary.segmentationsDiffering === 1 ? '' : 's'} of steps had another cut under the same version on the hub, which was kept.`);
      io.out(JSON.stringify({ hub: `${address.where}/${address.database}`, ...summary }));
      return 0;
    }),
  );
}

export async function joinCommand(argv: string[], io: HubIo): Promise<number> {
  const { values } = parse(argv, { project: { type: 'string' }, hub: { type: 'string' } });
  const project = requireProjectName(values);
  return withHub(values, io, (client, address) =>
    withDb(values, async (db) => {
      const summary = await joinProject(db, client, project, { where: address.where, url: address.url });
      for (const sentence of summary.refused) io.err(`arbiter hub join: ${sentence}`);
      if (summary.differing)
        io.err(`arbiter hub join: ${summary.differing} rubric version${summary.differing === 1 ? '' : 's'}, guidelines revisions, criteria or cuts here differ from the hub's under the same number and were kept as they are here.`);
      if (summary.revisionsOnHub) io.err(`arbiter hub join: ${summary.revisionsOnHub} label revision${summary.revisionsOnHub === 1 ? '' : 's'} on the hub come down with: arbiter sync --project "${project}"`);
      io.out(JSON.stringify({ hub: `${address.where}/${address.database}`, ...summary }));
      return 0;
    }),
  );
}
