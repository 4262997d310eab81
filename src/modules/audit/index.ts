// The audit module's public entry: administrators read the audit trail (written through platform/audit).
export { auditRoutes } from './audit.router';
export { type AuditEvent, ListAuditEventsQuery } from './audit.schemas';
export { type AuditDeps, listAuditEvents } from './audit.service';
