// `arbiter gold --project NAME (--import N | --items ID,…) [--task T] [--unmark] [--lead NAME]`: a lead marks
// a file's own labels as gold (or takes the mark back); with neither --import nor --items, the project's
// gold per task and its imports (each with the N --import takes). docs/cli.md, "gold".
import { TASKS, type Task } from '../../shared/domain';
import { goldSchemas } from '../../shared/api/gold';
import { invalidInput } from '../core/base/errors';
import { itemResolver, projects } from '../core/service/direct';
import { goldSummary, markItemsGold } from '../core/service/gold';
import { parse, UsageError, withDb, type CliIo } from './io';
import { requireProjectName } from './options';

export async function goldCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    project: { type: 'string' },
    import: { type: 'string' },
    items: { type: 'string' },
    task: { type: 'string' },
    unmark: { type: 'boolean', default: false },
    lead: { type: 'string' },
  });
  const project = requireProjectName(values);
  if (values.task !== undefined && !(TASKS as readonly string[]).includes(String(values.task))) throw new UsageError(`--task must be one of ${TASKS.join(', ')}`);
  if (values.import !== undefined && values.items !== undefined) throw new UsageError('name either --import N or --items ID,…, not both');
  const importId = values.import === undefined ? undefined : Number(values.import);
  if (importId !== undefined && !(Number.isInteger(importId) && importId > 0)) throw new UsageError('--import takes an import number, as `arbiter gold --project NAME` lists them');
  const lead = String(values.lead ?? process.env.ARBITER_ANNOTATOR ?? process.env.USER ?? 'lead');
  return withDb(values, (db) => {
    const row = projects.requireProject(db, project);
    if (importId === undefined && values.items === undefined) {
      io.out(JSON.stringify(goldSummary(db, project)));
      return 0;
    }
    let itemIds: number[] | undefined;
    if (values.items !== undefined) {
      const resolve = itemResolver(db, row.id);
      const refs = String(values.items).split(',').map((s) => s.trim()).filter(Boolean);
      if (!refs.length) throw new UsageError('--items takes item ids (external ids or uids), separated by commas');
      itemIds = refs.map((ref) => {
        const id = resolve(ref) ?? (/^#(\d{1,15})$/.exec(ref) ? Number(ref.slice(1)) : null);
        if (id === null) throw invalidInput(`No item "${ref}" in project "${project}"; nothing was marked.`);
        return id;
      });
    }
    const input = goldSchemas.markGold.safeParse({ project, annotator: lead, ...(values.task ? { task: values.task as Task } : {}), ...(importId ? { importId } : {}), ...(itemIds ? { itemIds } : {}) });
    if (!input.success) throw new UsageError(input.error.issues.map((i) => `--${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
    const result = markItemsGold(db, { ...input.data, annotator: lead }, values.unmark !== true);
    io.out(JSON.stringify({ project, task: values.task ?? 'all', gold: values.unmark !== true, by: lead, ...result }));
    return 0;
  });
}
