import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../core/db/store';

/**
 * The typed queries' picture of the schema (core/db/tables.ts) against the schema the migrations
 * make: every table and every column, no more and no fewer. (test/server/stores.test.ts holds the
 * PostgreSQL baseline to the SQLite migrations, so this holds both stores.)
 */
const TABLES_FILE = join(import.meta.dirname, '../../core/db/tables.ts');

/** Each table of the `Tables` interface with the columns its own interface declares. */
function declaredTables(): Map<string, string[]> {
  const source = ts.createSourceFile(TABLES_FILE, readFileSync(TABLES_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of source.statements) if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  const membersOf = (declaration: ts.InterfaceDeclaration): ts.PropertySignature[] => declaration.members.filter(ts.isPropertySignature);
  const tables = new Map<string, string[]>();
  for (const member of membersOf(interfaces.get('Tables') as ts.InterfaceDeclaration)) {
    const type = member.type;
    const name = type && ts.isTypeReferenceNode(type) ? type.typeName.getText(source) : '';
    const table = interfaces.get(name);
    tables.set(member.name.getText(source), table ? membersOf(table).map((m) => m.name.getText(source)) : [`(no interface ${name})`]);
  }
  return tables;
}

const dir = mkdtempSync(join(tmpdir(), 'termwise-table-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the table types the queries are checked against', () => {
  it('name every table and column the migrations make, and nothing else', async () => {
    const file = join(dir, 'termwise.db');
    await (await openStore({ kind: 'sqlite', file }, { migrate: true })).close();
    const db = new Database(file, { readonly: true });
    const made = new Map<string, string[]>();
    for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[])
      made.set(name, (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as { name: string }[]).map((c) => c.name).sort());
    db.close();
    const declared = declaredTables();
    expect([...declared.keys()].sort()).toEqual([...made.keys()].sort());
    for (const [table, columns] of made) expect([...(declared.get(table) ?? [])].sort(), table).toEqual(columns);
  });
});
