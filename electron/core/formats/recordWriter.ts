// What an export pass writes records through: JSON Lines (./jsonl.ts JsonlWriter), or another file shape
// that takes the same records (the vision exports' Parquet and images-beside writers, ./vision). Its own
// module, free of imports, so that a format module can name it without importing the file readers.
export interface RecordWriter {
  /** Records written so far. */
  readonly lines: number;
  /** Appends one record; a promise when the caller should wait (backpressure). */
  write(value: unknown): Promise<void> | void;
  /** Finishes the file(s) and puts them in place. */
  commit(): Promise<void>;
  /** Gives up: nothing is left where the output goes. */
  abort(): Promise<void>;
}
