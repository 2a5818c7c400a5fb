// The connection type every store module takes. It lives apart from db.ts (which opens, migrates and
// cleans a database) so that what db.ts calls on opening can name the type without importing db.ts back.
import type Database from 'better-sqlite3';

export type Db = Database.Database;
