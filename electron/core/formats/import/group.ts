// Formats whose item spans several consecutive records: HelpSteer2's ratings rows, one row per response,
// the rows of one prompt one after another. The importer reads such a format on its own thread (never in
// the worker, whose chunks are cut anywhere), a line at a time through a Grouper: it holds the open group
// until a record with another key, or the end of the input, closes it. Each row is checked on its own
// first, so a bad row is reported by its own line and the rest of its group still makes the item; a
// line that is not JSON does not close a group either.
import type { ImportFormat } from '../../../../shared/formatNames';
import type { RecordGroup } from '../descriptor';
import { formats } from '../registry';
import { RecordError, type ParsedRecord, type RecordParser } from '../types';

export type { RecordGroup };

/** The formats whose item spans several records, by name (from the registry, ../registry.ts). */
export const GROUPS: Partial<Record<ImportFormat, RecordGroup>> = Object.fromEntries(formats().flatMap((f) => (f.group ? [[f.name, f.group]] : [])));

export interface GroupLine {
  line: number;
  text: string;
}

export type Emitted = { parsed: ParsedRecord; lines: GroupLine[] } | { error: { line: number; reason: string; text: string } };

export class Grouper {
  private open: { key: string; rows: ParsedRecord[]; lines: GroupLine[] } | null = null;
  /** anyOrder groups: every group by key, in the order their first records came. */
  private held = new Map<string, { key: string; rows: ParsedRecord[]; lines: GroupLine[] }>();

  constructor(
    private readonly parse: RecordParser,
    private readonly group: RecordGroup,
  ) {}

  /** Takes one non-blank line (its JSON object, or why it is none); returns the items it completes. */
  add(line: GroupLine, value: Record<string, unknown> | RecordError): Emitted[] {
    if (value instanceof RecordError) return [{ error: { ...line, reason: value.message } }];
    let row: ParsedRecord;
    try {
      row = this.parse(value);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      return [{ error: { ...line, reason: error.message } }];
    }
    const key = this.group.key(value);
    if (this.group.anyOrder) {
      const held = this.held.get(key);
      if (held) {
        held.rows.push(row);
        held.lines.push(line);
      } else this.held.set(key, { key, rows: [row], lines: [line] });
      return [];
    }
    if (this.open && this.open.key === key) {
      this.open.rows.push(row);
      this.open.lines.push(line);
      return [];
    }
    const done = this.flush();
    this.open = { key, rows: [row], lines: [line] };
    return done;
  }

  /** Closes the open group (at the end of the input). */
  flush(): Emitted[] {
    if (this.group.anyOrder) {
      const groups = [...this.held.values()];
      this.held.clear();
      return groups.flatMap((g) => this.close(g));
    }
    const open = this.open;
    this.open = null;
    if (!open) return [];
    return this.close(open);
  }

  private close(open: { rows: ParsedRecord[]; lines: GroupLine[] }): Emitted[] {
    try {
      return [{ parsed: this.group.merge(open.rows), lines: open.lines }];
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      return open.lines.map((l) => ({ error: { ...l, reason: error.message } }));
    }
  }
}
