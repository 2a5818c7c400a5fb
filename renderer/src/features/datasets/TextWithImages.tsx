// Text made by contentText / displayText, in which each image part stands in as a line "[image]": shown
// with its images counted in a small chip before the text ("1 image"), never as the stand-in.
import { plural } from '../../../../shared/plural';

const STAND_IN = /(?<=^|\n|: )\[image\](?=\n|$)/g;

/** The text without its image stand-ins, and how many there were. */
export function splitImages(text: string): { text: string; images: number } {
  const images = text.match(STAND_IN)?.length ?? 0;
  return { text: images ? text.replace(STAND_IN, '').replace(/\s+/g, ' ').trim() : text, images };
}

export function ImageCount({ images, testId = 'text-images' }: { images: number; testId?: string }) {
  if (images === 0) return null;
  return (
    <span className="mr-1.5 rounded-[3px] bg-surface-2 px-1 text-[11.5px] whitespace-nowrap text-muted ring-1 ring-line" data-testid={testId}>
      {plural(images, 'image')}
    </span>
  );
}

/** `show`: how the remaining text is written (cut short, say). */
export function TextWithImages({ text, show = (t) => t }: { text: string; show?: (text: string) => string }) {
  const parts = splitImages(text);
  return (
    <>
      <ImageCount images={parts.images} />
      {show(parts.text)}
    </>
  );
}
