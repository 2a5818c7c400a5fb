// The compare screen's texts, rendered ahead: while the annotator reads one pair, the prefetched next pair's
// prompt and responses are rendered to React elements (Markdown, KaTeX, highlighting) a slice at a time, so
// the key that shows it costs no parsing (bench:loop).
import type { ItemView } from '../../../../shared/api';
import { isTrajectory } from '../../../../shared/trajectory';
import { contentTexts } from '../../components/ContentView';

/** The texts the compare screen renders as Markdown for this item: its prompt, then each text response. */
export function compareTexts(item: Pick<ItemView, 'prompt' | 'responses'>): string[] {
  const texts = contentTexts(item.prompt);
  for (const response of item.responses) if (!isTrajectory(response.content)) texts.push(...contentTexts(response.content));
  return texts;
}
