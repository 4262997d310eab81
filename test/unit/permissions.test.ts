import { groups, type Permission, permissions, permissionsOf } from '../../src/platform/kernel/permissions';

const sorted = (set: Set<Permission>) => [...set].sort();

describe('permissions of a user’s groups (permissionsOf)', () => {
  it.each([
    ['administrator', ['admin', 'create', 'delete', 'read', 'update']],
    ['file manager', ['create', 'delete', 'read', 'update']],
    ['adviser', ['create', 'read', 'update']],
    ['read-only', ['read']],
  ])('when a user is only in %s, then exactly %j are granted', (group, granted) => {
    expect(sorted(permissionsOf([group]))).toEqual(granted);
  });

  it('when a user is in no group, then nothing is granted', () => {
    expect(permissionsOf([]).size).toBe(0);
  });

  it('when a user is in several groups, then the union is granted, each permission once', () => {
    expect(sorted(permissionsOf(['read-only', 'adviser']))).toEqual(['create', 'read', 'update']);
    expect(sorted(permissionsOf(['adviser', 'adviser', 'read-only']))).toEqual(['create', 'read', 'update']);
    expect(sorted(permissionsOf(['read-only', 'administrator']))).toEqual([...permissions].sort());
  });

  it('when a group name is unknown or written in another case, then it grants nothing, and takes nothing from the others', () => {
    for (const unknown of [
      'Administrator',
      'ADMIN',
      'admin',
      'superuser',
      ' adviser',
      'file-manager',
      '',
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
    ])
      expect(permissionsOf([unknown]).size).toBe(0);
    expect(sorted(permissionsOf(['superuser', 'read-only']))).toEqual(['read']);
  });

  it('when groups are ranked, then each grants everything the one below it does, and only administrators may admin', () => {
    const ranked = ['read-only', 'adviser', 'file manager', 'administrator'] as const;
    for (let i = 1; i < ranked.length; i++) {
      const below = permissionsOf([ranked[i - 1]!]);
      const above = permissionsOf([ranked[i]!]);
      for (const p of below) expect(above.has(p)).toBe(true);
      expect(above.size).toBeGreaterThan(below.size);
    }
    for (const group of groups) expect(permissionsOf([group]).has('admin')).toBe(group === 'administrator');
    for (const group of groups) expect(permissionsOf([group]).has('read')).toBe(true);
  });

  it('when the answer is changed by its caller, then later answers are not', () => {
    const first = permissionsOf(['read-only']);
    first.add('admin');
    expect(permissionsOf(['read-only']).has('admin')).toBe(false);
  });

  it('when the groups and permissions are listed, then they are the four groups and five permissions of the docs', () => {
    expect(groups).toEqual(['administrator', 'file manager', 'adviser', 'read-only']);
    expect(permissions).toEqual(['read', 'create', 'update', 'delete', 'admin']);
  });
});
