// Renders a prompt or a response: plain text as markdown, a chat as one block per message. A message's
// images and videos sit where they are in its parts, in reading order with the text (components/images/
// ImageView, components/videos/VideoView: every video on the screen plays on one clock).
import { useContext } from 'react';
import { messageText } from '../../../shared/choices';
import type { Content, ContentPart } from '../../../shared/domain';
import { isImagePart, type ImagePart, type ImagePlace } from '../../../shared/images';
import { ShellContext } from '../context';
import { isVideoPart, type VideoPart } from '../../../shared/videos';
import { ImageView } from './images/ImageView';
import { VideoView } from './videos/VideoView';
import { Markdown } from './Markdown';

/** `place`: where this content sits in the item (the prompt, or a response's source-order index). */
export function ContentView({ content, place = 'prompt' }: { content: Content; place?: ImagePlace }) {
  const project = useContext(ShellContext)?.project ?? null;
  if (typeof content === 'string') return <Markdown text={content} />;
  // A response that is one assistant message (a generated image, a chat answer) needs no role line: the
  // column already says whose it is.
  const bare = place !== 'prompt' && content.length === 1 && content[0]!.role === 'assistant';
  return (
    <div className="flex flex-col gap-3">
      {content.map((message, i) => (
        <div key={i} className="flex flex-col gap-1">
          {!bare && (
            <div className="text-[11px] font-semibold tracking-wide text-faint uppercase" data-testid="message-role">
              {message.role}
            </div>
          )}
          <MessageBody content={message.content} project={project} place={place} />
        </div>
      ))}
    </div>
  );
}

/** The texts ContentView renders as Markdown for this content, in order (to render them ahead: prepareMarkdown). */
export function contentTexts(content: Content): string[] {
  if (typeof content === 'string') return [content];
  return content.flatMap((message) =>
    !Array.isArray(message.content) || !message.content.some(isMedia)
      ? [messageText(message.content)]
      : runsOf(message.content).flatMap((run) => (Array.isArray(run) ? [messageText(run)] : [])),
  );
}

const isMedia = (part: unknown): part is ImagePart | VideoPart => isImagePart(part) || isVideoPart(part);

/** Runs of text parts (one markdown block each) and the images and videos between them, in order. */
function runsOf(parts: ContentPart[]): (ContentPart[] | ImagePart | VideoPart)[] {
  const runs: (ContentPart[] | ImagePart | VideoPart)[] = [];
  for (const part of parts) {
    if (isMedia(part)) runs.push(part);
    else if (Array.isArray(runs.at(-1))) (runs.at(-1) as ContentPart[]).push(part);
    else runs.push([part]);
  }
  return runs;
}

/** Runs with consecutive videos together: a robot episode's cameras (or a message's clips) side by side. */
function groupVideos(runs: (ContentPart[] | ImagePart | VideoPart)[]): (ContentPart[] | ImagePart | VideoPart[])[] {
  const out: (ContentPart[] | ImagePart | VideoPart[])[] = [];
  for (const run of runs) {
    const last = out.at(-1);
    if (!Array.isArray(run) && isVideoPart(run)) {
      if (Array.isArray(last) && last.length && isVideoPart(last[0])) (last as VideoPart[]).push(run);
      else out.push([run]);
    } else out.push(run);
  }
  return out;
}

function MessageBody({ content, project, place }: { content: string | ContentPart[]; project: string | null; place: ImagePlace }) {
  if (!Array.isArray(content) || !content.some(isMedia)) return <Markdown text={messageText(content)} />;
  return (
    <div className="flex flex-col gap-2">
      {groupVideos(runsOf(content)).map((run, i) =>
        !Array.isArray(run) ? (
          <ImageView key={i} project={project} part={run} place={place} />
        ) : run.length && isVideoPart(run[0]) ? (
          <div key={i} className={`grid gap-2 ${run.length > 1 ? 'grid-cols-2' : ''}`} data-testid="video-group">
            {(run as VideoPart[]).map((part, j) => (
              <VideoView key={j} project={project} part={part} place={place} />
            ))}
          </div>
        ) : (
          <Markdown key={i} text={messageText(run as ContentPart[])} />
        ),
      )}
    </div>
  );
}
