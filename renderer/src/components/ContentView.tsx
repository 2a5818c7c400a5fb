// Renders a prompt or a response: plain text as markdown, a chat as one block per message.
import { messageText } from '../../../shared/choices';
import type { Content } from '../../../shared/domain';
import { Markdown } from './Markdown';

export function ContentView({ content }: { content: Content }) {
  if (typeof content === 'string') return <Markdown text={content} />;
  return (
    <div className="flex flex-col gap-3">
      {content.map((message, i) => (
        <div key={i} className="flex flex-col gap-1">
          <div className="text-[11px] font-semibold tracking-wide text-faint uppercase">{message.role}</div>
          <Markdown text={messageText(message.content)} />
        </div>
      ))}
    </div>
  );
}
