// The trl-unpaired (KTO) pass of an export: {"prompt", "completion", "label": bool} per judged response
// (see decideUnpaired in ../base/resolve.ts for which lines an item gives). A file has one shape, as TRL reads
// it (it looks at the first line to tell standard from conversational): standard (strings) while every
// prompt and response written is text; once one is a message list, the pass stops and is run again
// conversational, every prompt a message list (text as one user message) and every completion one
// (text as one assistant message).
import type { Content } from '../../../../shared/domain';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { isTranscriptPrompt, parseTranscriptPrompt, promptText, responseText, toChat } from '../content';
import { forEachPage, itemPass, type ItemPass } from '../base/itemPass';
import type { FormatWriter } from '../descriptor';
import { ExportNotes } from '../types';
import { decideUnpaired } from '../base/resolve';

const NO_LABELS: HeadLabel[] = [];

/** notes.promptShape: 'text' (standard) or 'chat' (conversational). */
export type UnpairedPass = ItemPass;

const isList = (content: Content) => Array.isArray(content);

function chatPrompt(prompt: Content) {
  if (typeof prompt === 'string' && isTranscriptPrompt(prompt)) return parseTranscriptPrompt(prompt) ?? toChat(prompt, 'user');
  return toChat(prompt, 'user');
}

/** Writes the unpaired lines; 'needs-chat' when a standard pass met a message list (nothing is final then). */
export async function writeUnpaired(db: Db, pass: UnpairedPass): Promise<'done' | 'needs-chat'> {
  const chat = pass.notes.promptShape === 'chat';
  const loaders = {
    verdict: headLoader(db, pass.projectId, pass.annotator, 'verdict'),
    pairwise: headLoader(db, pass.projectId, pass.annotator, 'pairwise'),
    ranking: headLoader(db, pass.projectId, pass.annotator, 'ranking'),
  };
  let good = 0;
  let bad = 0;
  let wrapped = 0;
  const done = await forEachPage(db, pass, ['verdict', 'pairwise', 'ranking'], async (items, from, to) => {
    const heads = { verdict: loaders.verdict(from, to), pairwise: loaders.pairwise(from, to), ranking: loaders.ranking(from, to) };
    for (const item of items) {
      const decision = decideUnpaired(
        item.responses.length,
        { verdict: heads.verdict.get(item.id) ?? NO_LABELS, pairwise: heads.pairwise.get(item.id) ?? NO_LABELS, ranking: heads.ranking.get(item.id) ?? NO_LABELS },
        pass.annotator,
      );
      if (decision.skip) {
        pass.skipped[decision.skip]++;
        continue;
      }
      if (!chat && (isList(item.prompt) || decision.lines.some((l) => isList(item.responses[l.response]!.content)))) return false;
      if (chat && !isList(item.prompt)) wrapped++;
      for (const { response, label } of decision.lines) {
        const content = item.responses[response]!.content;
        const line = chat
          ? { prompt: chatPrompt(item.prompt), completion: toChat(content, 'assistant'), label }
          : { prompt: promptText(item.prompt).text, completion: responseText(content, false).text, label };
        if (label) good++;
        else bad++;
        const pending = pass.writer.write(line);
        if (pending) await pending;
      }
    }
  });
  if (!done) return 'needs-chat';
  if (chat) pass.notes.extra.push(`Every line is conversational (message lists), one shape for the whole file, because some prompts or responses are conversations${wrapped ? `; ${wrapped} text prompt(s) were wrapped as one user message` : ''}`);
  if (good + bad > 0 && (good === 0 || bad === 0))
    pass.notes.extra.push(`every label is ${good ? 'true' : 'false'}: KTO learns best from both desirable and undesirable completions`);
  return 'done';
}

/** trl-unpaired's writer: text first, and again all conversational once a conversation comes after text lines. */
export const unpairedWriter: FormatWriter = {
  async write(run) {
    run.notes = new ExportNotes('text');
    if ((await writeUnpaired(run.db, itemPass(run))) === 'needs-chat') {
      await run.restart('chat');
      await writeUnpaired(run.db, itemPass(run));
    }
  },
};
