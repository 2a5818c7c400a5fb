// Work kept off the path from a key to the next item on screen: rendering the prefetched item's text
// ahead while the annotator reads (so showing it costs no Markdown or KaTeX), and what can wait until the
// item is painted (writing the address).
import type { ItemView, StepsView } from '../../../../shared/api';
import { messageText } from '../../../../shared/choices';
import { headingsAsText } from '../../components/Markdown';
export { afterPaint, prepareAhead } from '../../components/renderAhead';
import { isTrajectory } from '../../../../shared/trajectory';
import { trajectoryView } from '../trajectories/turnModel';

/** The texts the step screen renders as Markdown for an item opened on `response`. */
export function itemTexts({ item, view }: { item: ItemView; view: StepsView }, response = 0): string[] {
  // Steps render with their `#` lines as text (StepList), so they are prepared that way. A trajectory's
  // turns render as cards: its turns are worked out now (kept for the screen) and the agent's own words
  // are what is markdown.
  const content = item.responses[response]?.content;
  const turns = content !== undefined && isTrajectory(content) ? trajectoryView(content).turns : null;
  const texts = turns ? turns.flatMap((t) => [t.said, ...t.context.map((c) => c.text)]).filter((t) => t.trim()).map(headingsAsText) : (view.responses[response]?.steps ?? []).map(headingsAsText);
  if (typeof item.prompt === 'string') texts.push(item.prompt);
  else for (const message of item.prompt) texts.push(messageText(message.content));
  if (item.reference !== null) texts.push(item.reference);
  return texts;
}
