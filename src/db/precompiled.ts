import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";

/** Marks a placeholder value while the query is built; no real value starts with a NUL (input rules). */
const PLACEHOLDER = "\u0000recap-param:";

/** The SQL of each precompiled query compiled in this process, and the name PostgreSQL prepares it under. */
const statementNames = new Map<string, string>();

/**
 * The prepared-statement name of a precompiled query's SQL, or undefined for any other SQL: on PostgreSQL
 * these few hot statements are parsed and planned once per connection (db/database.ts), every other query
 * as it comes.
 */
export function statementNameOf(sql: string): string | undefined {
  return statementNames.get(sql);
}

/**
 * A hot query built and compiled by Kysely once, then run with new values: building and compiling a query
 * cost as much as running it on the busiest routes (docs/ARCHITECTURE.md, "Performance"). `build` receives
 * placeholders standing for the values, which must each become a bound parameter (a value compared or
 * inserted), never change the SQL; the SQL is compiled on first use, for the database `db` speaks to.
 * With `keys`, the placeholders are a plain object of exactly those properties (a row to insert whole).
 */
export function precompile<P extends object, O>(
  db: Pick<Kysely<unknown>, "executeQuery">,
  build: (params: P) => Compilable<O>,
  keys?: readonly (keyof P & string)[],
): (params: P) => Promise<QueryResult<O>> {
  let compiled: { query: CompiledQuery<O>; slots: (keyof P | null)[] } | undefined;
  const compile = () => {
    const used = new Set<string>(keys);
    const placeholders =
      keys === undefined
        ? new Proxy({} as P, {
            get: (_target, name) => {
              used.add(String(name));
              return PLACEHOLDER + String(name);
            },
          })
        : (Object.fromEntries(keys.map((key) => [key, PLACEHOLDER + key])) as P);
    const query = build(placeholders).compile();
    const names = query.parameters.map((value) =>
      typeof value === "string" && value.startsWith(PLACEHOLDER) ? value.slice(PLACEHOLDER.length) : null,
    );
    for (const name of used) {
      if (!names.includes(name)) throw new Error(`precompile: ${name} is not a bound parameter`);
    }
    const slots = names as (keyof P | null)[];
    if (!statementNames.has(query.sql)) statementNames.set(query.sql, `recap_${statementNames.size + 1}`);
    return { query, slots };
  };
  return async (params) => {
    compiled ??= compile();
    const { query, slots } = compiled;
    const parameters = slots.map((slot, index) => (slot === null ? query.parameters[index] : params[slot]));
    return db.executeQuery({ ...query, parameters });
  };
}
