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
    expect(note).toBe(`2 new items hold images (q1, task-${'p'.repeat(55)}…): 1 image stored, 1 new and 0 already in the image store.`);
  });

  it('cuts between characters, never inside a surrogate pair', () => {
    const id = `${'x'.repeat(59)}😀tail`;
    const [note] = importNotes({ sharedIds: { items: 2, examples: [id] }, images: none });
    expect(note).toContain(`(${'x'.repeat(59)}…)`);
  });
});
