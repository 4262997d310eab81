/** A count with its noun in the right number: `plural(1, 'action')` → "1 action", `plural(3, 'action')` → "3 actions". */
export function plural(n: number | bigint, one: string, many = `${one}s`): string {
  return `${n} ${Number(n) === 1 ? one : many}`;
}
