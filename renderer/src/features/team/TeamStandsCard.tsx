// "Where the team stands" on the Review screen, for a project linked to a hub: per annotator the items
// they labeled and what of it waits to go up, with their agreement with the others, and the team's
// agreement on the main field. Counts come from teamStatus (live: after each save and each sync); the
// agreement from the review report the screen already computed over the merged local data, which the
// screen reloads when a sync pulls something.
import { useEffect } from 'react';
import type { FieldAgreement, ReviewReport } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';
import { DrillLink, drillQuery } from '../../components/DrillLink';
import { agoWords, useTeamStatus } from './useTeamStatus';
import { GoldCell } from '../goldRules/GoldAccuracy';

function mainField(report: ReviewReport | null): FieldAgreement | null {
  if (!report) return null;
  // A field people labeled together, with a figure or (below the minimum of items) the reason it has none.
  const shared = report.fields.filter((f) => !f.about && f.percent.n > 0);
  const pick = (list: FieldAgreement[]) => list.find((f) => f.field === 'choice') ?? list[0] ?? null;
  return pick(shared.filter((f) => f.percent.value !== null)) ?? pick(shared.filter((f) => f.percent.reason !== null));
}

const FIELD_WORDS: Record<string, string> = { choice: 'choices', verdict: 'verdicts', 'best response': 'best responses', first_error: 'first errors' };
/** The disagree facet's value for the items people split on in the main field. */
const FIELD_DISAGREE: Record<string, string> = { choice: 'pairwise', verdict: 'verdict', 'best response': 'ranking', first_error: 'first_error' };
// Each figure opens the items behind it in the explorer: a person's labeled count their items, the
// agreement the items people split on.

export function TeamStandsCard({ project, report, onPulled }: { project: string; report: ReviewReport | null; onPulled(): void }) {
  const { status, pulls, now } = useTeamStatus(project);
  useEffect(() => {
    if (pulls > 0) onPulled();
  }, [pulls, onPulled]);
  if (!status?.hub) return null;
  const field = mainField(report);
  const people = new Map((report?.people ?? []).map((p) => [p.name, p]));
  const split = field ? (FIELD_DISAGREE[field.field] ?? 'pairwise') : 'pairwise';
  return (
    <section className="shrink-0 border-b border-line bg-surface px-4 py-2 text-[13px]" data-testid="team-stands" aria-labelledby="team-stands-title">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="team-stands-title" className="text-[13px] font-semibold">
          Where the team stands
        </h2>
        <span className="text-muted" data-testid="team-stands-agreement">
          {field && field.percent.value !== null ? (
            <DrillLink project={project} query={drillQuery(['disagree', [split]])} title="The items people split on">
              {`Agreement on ${FIELD_WORDS[field.field] ?? field.field}: ${Math.round(field.percent.value * 100)}%${field.alpha.value !== null ? `, α ${field.alpha.value.toFixed(2)}` : ''} (n = ${plural(field.percent.n, 'item')})`}
            </DrillLink>
          ) : !field ? (
            'Agreement: no item has labels from two people yet'
          ) : (
            `Agreement on ${FIELD_WORDS[field.field] ?? field.field}: ${field.percent.reason}`
          )}
        </span>
        <span className="text-faint" data-testid="team-stands-sync">
          {status.connected ? 'connected' : 'not connected'} · synced {agoWords(status.lastSyncAt, now)}
          {status.waiting > 0 && ` · ${plural(status.waiting, 'revision')} waiting to go up`}
        </span>
      </div>
      {status.annotators.length > 0 && (
        <table className="mt-1 text-[12px]" data-testid="team-stands-table">
          <thead className="text-left text-faint">
            <tr>
              <th className="pr-4 font-medium">Annotator</th>
              <th className="pr-4 text-right font-medium">Labeled</th>
              <th className="pr-4 text-right font-medium">Waiting to sync</th>
              <th className="text-right font-medium">Agreement with others</th>
              <th className="pl-4 text-right font-medium">Accuracy on gold</th>
            </tr>
          </thead>
          <tbody>
            {status.annotators.map((a) => {
              const withOthers = people.get(a.name)?.withOthers;
              return (
                <tr key={a.uuid} data-testid="team-stands-row" data-annotator={a.name}>
                  <td className="pr-4">
                    {a.name}
                    {a.granted === 'lead' && <span className="text-faint"> (lead)</span>}
                  </td>
                  <td className="pr-4 text-right tabular-nums" data-testid="team-stands-labels">
                    <DrillLink project={project} query={drillQuery(['annotator', [a.name]])} title={`The items ${a.name} judged`}>
                      {a.labels.toLocaleString()}
                    </DrillLink>
                  </td>
                  <td className="pr-4 text-right tabular-nums" data-testid="team-stands-waiting">
                    {a.waiting.toLocaleString()}
                  </td>
                  <td className="text-right tabular-nums" title={withOthers?.reason ?? (withOthers ? `n = ${withOthers.n}` : undefined)}>
                    {withOthers?.value != null ? (
                      <DrillLink project={project} query={drillQuery(['annotator', [a.name]], ['disagree', [split]])} title={`The items ${a.name} judged where people split`}>
                        {`${Math.round(withOthers.value * 100)}%`}
                      </DrillLink>
                    ) : (
                      '—'
                    )}
                  </td>
                  <GoldCell gold={report?.gold} name={a.name} />
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
