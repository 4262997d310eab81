// Statements rendered once (issue 29). drizzle renders a statement by walking every chunk of it (each
// column's name, each value with its column's encoder) at every call: the create's insert of an action,
// its history row and its jobs cost 0.3 ms of CPU a create in rendering alone. A shape renders the
// statement once, with placeholders where the values go, and fills in the values at each call.
import { is, Param, Placeholder, type Query, SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/** A statement already rendered: runs as a whole (q.execute, deferWrite), never inside another one. */
class RenderedStatement extends SQL {
  constructor(private readonly query: Query) {
    super([]);
  }

  override toQuery(): Query {
    return this.query;
  }
}

/** The value named `name` of a shape: for sql templates, and as a query builder's column value. */
export const slot = (name: string) => sql.placeholder(name) as never;

/**
 * A statement built by `build` with `slot(name)` where its values go (in a query builder's values, the
 * column's encoder still maps each value: Dates, JSON), rendered at its first use. The answer takes the
 * values by name and gives a statement to run as a whole. A missing value throws.
 */
export function statementShape(build: () => SQL): (values: Record<string, unknown>) => SQL {
  let shape: { sql: string; params: Array<(values: Record<string, unknown>) => unknown> } | undefined;
  return (values) => {
    if (!shape) {
      const { sql: text, params } = dialect.sqlToQuery(build());
      shape = { sql: text, params: params.map(filler) };
    }
    return new RenderedStatement({ sql: shape.sql, params: shape.params.map((fill) => fill(values)) });
  };
}

/** How a parameter of a rendered shape gets its value: mapped as drizzle maps a value (null stays null). */
function filler(param: unknown): (values: Record<string, unknown>) => unknown {
  const encoded = is(param, Param) && is(param.value, Placeholder) ? param : undefined;
  const placeholder = encoded ? (encoded.value as Placeholder) : is(param, Placeholder) ? param : undefined;
  if (!placeholder) return () => param;
  const { name } = placeholder;
  return (values) => {
    if (!(name in values)) throw new Error(`statement shape: no value for ${name}`);
    const value = values[name] ?? null;
    return value === null || !encoded ? value : encoded.encoder.mapToDriverValue(value);
  };
}

/** Shapes by key, for a statement whose text varies with a few facts (which columns, how many rows). */
export function statementShapes(): (
  key: string,
  build: () => SQL,
) => (values: Record<string, unknown>) => SQL {
  const shapes = new Map<string, (values: Record<string, unknown>) => SQL>();
  return (key, build) => {
    let shape = shapes.get(key);
    if (!shape) {
      shape = statementShape(build);
      shapes.set(key, shape);
    }
    return shape;
  };
}
