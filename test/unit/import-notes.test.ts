// The import notes name a few items by their external ids; an id is the file's own text and may be any
// length (the import fuzz, FUZZ_SEED=2, made one of 250,000 characters and the note printed it whole on
// the CLI's stderr and in the import panel). A name past 60 characters is cut, its end marked with "…".
import { describe, expect, it } from 'vitest';
import { importNotes } from '../../shared/importNotes';

const none = { items: 0, examples: [] };

describe('import notes', () => {
  it('names items by their ids as they are, and cuts a long one to 60 characters and "…"', () => {
    const long = `task-${'p'.repeat(250_000)}`;
    const [note] = importNotes({ sharedIds: none, images: { items: 2, examples: ['q1', long] }, imageFiles: { added: 1, kept: 0 } });
    expect(note).toBe(`2 new items hold images (q1, task-${'p'.repeat(55)}…): 1 image stored (new).`);
  });

  it('cuts between characters, never inside a surrogate pair', () => {
    const id = `${'x'.repeat(59)}😀tail`;
    const [note] = importNotes({ sharedIds: { items: 2, examples: [id] }, images: none });
    expect(note).toContain(`(${'x'.repeat(59)}…)`);
  });

  it('says plainly how many images were new and how many the store held already', () => {
    const note = (added: number, kept: number) => importNotes({ sharedIds: none, images: { items: 3, examples: ['a', 'b', 'c'] }, imageFiles: { added, kept } })[0];
    expect(note(3, 0)).toBe('3 new items hold images (a, b, c): 3 images stored (all new).');
    expect(note(0, 2)).toBe('3 new items hold images (a, b, c): 2 images stored (all already in the image store).');
    expect(note(2, 1)).toBe('3 new items hold images (a, b, c): 3 images stored (2 new, 1 already in the image store).');
  });

  it('names videos as videos: a file of clips alone does not say it holds images', () => {
    const note = (added: number, videos: number) => importNotes({ sharedIds: none, images: { items: 2, examples: ['a', 'b'] }, imageFiles: { added, kept: 0 }, videoFiles: videos })[0];
    expect(note(0, 3)).toBe('2 new items hold videos (a, b): 3 videos stored.');
    expect(note(1, 1)).toBe('2 new items hold images and videos (a, b): 1 image stored (new); 1 video stored.');
    expect(note(2, 0)).toBe('2 new items hold images (a, b): 2 images stored (all new).');
  });
});
