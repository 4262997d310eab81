export const groups = ['administrator', 'file manager', 'adviser', 'read-only'] as const;
export type Group = (typeof groups)[number];

export const permissions = ['read', 'create', 'update', 'delete', 'admin'] as const;
export type Permission = (typeof permissions)[number];

const byGroup: Record<Group, readonly Permission[]> = {
  administrator: ['read', 'create', 'update', 'delete', 'admin'],
  'file manager': ['read', 'create', 'update', 'delete'],
  adviser: ['read', 'create', 'update'],
  'read-only': ['read'],
};

/** The union of what the user's groups allow (ARCHITECTURE.md, Permissions). */
export function permissionsOf(userGroups: readonly string[]): Set<Permission> {
  const out = new Set<Permission>();
  for (const g of userGroups) {
    // Only the groups themselves: a stored name such as `constructor` grants nothing.
    if (Object.hasOwn(byGroup, g)) for (const p of byGroup[g as Group]) out.add(p);
  }
  return out;
}
