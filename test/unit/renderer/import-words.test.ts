// The import summary's words (issue 20, item 21): a τ-bench file's rewards are task outcomes, not
// preferences, and one line is "1 line read".
import { describe, expect, it } from 'vitest';
import { carriedWords, importedWords } from '../../../renderer/src/features/datasets/datasetWords';

describe('the import summary', () => {
  it('names what a trajectory file carried as task outcomes, and a pair file’s as preferences', () => {
    expect(carriedWords('tau-bench', 2)).toBe('task outcomes on 2 items');
    expect(carriedWords('openhands', 1)).toBe('task outcomes on 1 item');
    expect(carriedWords('arbiter-trajectory', 3)).toBe('task outcomes on 3 items');
    expect(carriedWords('trl', 1)).toBe('1 preference');
  });

  it('says the lines read, kept, already there and rejected with the singular for one', () => {
    expect(importedWords({ format: 'tau-bench', lines: 1, duplicates: 0, labels: 2, rejected: 0 })).toBe('1 line read, task outcomes on 2 items from the file kept as “source”');
    expect(importedWords({ format: 'trl', lines: 3, duplicates: 1, labels: 0, rejected: 1 })).toBe('3 lines read, 1 already in the project, 1 rejected');
  });
});
