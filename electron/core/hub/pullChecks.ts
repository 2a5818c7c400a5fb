// The app's own rules for what a lead puts on the hub, applied to what a sync or a join takes from it:
// the project's settings as updateProjectSettings checks them (shared/api/projects.ts), a rubric
// version's name and criteria as saveRubric checks them (shared/rubric.ts). A hub row that fails is
// never taken: the step screen and the Rubric screen read these as the app wrote them.
import { projectsSchemas } from '../../../shared/api/projects';
import type { ProjectSettings } from '../../../shared/domain';
import { checkCriteria, problemText, rubricName, type Criterion } from '../../../shared/rubric';

const settingsSchema = projectsSchemas.updateProjectSettings.shape.settings;

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`);

/** Why the hub's project settings fail the app's checks ("prelabels: …; overlap: …"), or null. */
export function settingsProblem(settings: unknown): string | null {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return `they are ${kindOf(settings)}, not an object`;
  const parsed = settingsSchema.safeParse(settings);
  if (parsed.success) return null;
  const issues = parsed.error.issues;
  const said = issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || 'settings'}: ${i.message}`);
  return `${said.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`;
}

/** The hub's settings, checked: the app's own, or why not. */
export function checkedSettings(settings: unknown): { ok: true; value: Partial<ProjectSettings> } | { ok: false; problem: string } {
  const problem = settingsProblem(settings);
  return problem === null ? { ok: true, value: settings as Partial<ProjectSettings> } : { ok: false, problem };
}

/**
 * A rubric version from the hub, checked as saveRubric checks one (an item's own criteria, `item/<uid>`,
 * by its criteria alone): its criteria as the app stores them, or why it is refused.
 */
export function checkedRubricVersion(name: string, version: number, criteria: unknown): { ok: true; criteria: Criterion[] } | { ok: false; problem: string } {
  const where = `version ${version} of "${name}"`;
  if (!name.startsWith('item/')) {
    const named = rubricName.safeParse(name);
    if (!named.success) return { ok: false, problem: `${where}: ${named.error.issues[0]!.message}` };
  }
  if (!Number.isInteger(version) || version < 1) return { ok: false, problem: `${where}: the version is not a whole number from 1` };
  const checked = checkCriteria(criteria);
  if (!checked.ok) return { ok: false, problem: `${where}: ${checked.problems.slice(0, 3).map(problemText).join('; ')}` };
  return { ok: true, criteria: checked.value };
}
