import { auditWords } from '../../../i18n/desk-audit';
import { type Html, html, joinHtml } from '../../../platform/web/html';
import { framed, type StaffPageFrame, staffLayout, when } from '../../../platform/web/staff-layout';
import type { AuditEvent } from '../../audit';
import type { Part, StoryLine } from '../audit-story';

/** The filters of the audit page, as given (and shown again in its form). */
export interface AuditFilter {
  person?: string;
  actorType?: string;
  targetType?: string;
  since?: string;
  until?: string;
  requestId?: string;
  contact?: string;
  action?: string;
}

export interface AuditPageView {
  lines: { event: AuditEvent; story: StoryLine }[];
  /** The people to filter by. */
  people: { id: string; name: string }[];
  /** The contact's or action's name when the trail is narrowed to one. */
  about?: { contact?: string; action?: string };
  filter: AuditFilter;
  /** The filters as a query string (for the next page's link). */
  query: string;
  nextCursor: string | null;
  /** Not the first page: a link back to the newest. */
  older: boolean;
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const shown = (v: unknown) => clip(typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** How a change reads: each field with what became of it (never more than the trail holds). */
function changesText(summary: Record<string, unknown>): string {
  // Records written by the code for its own changes: `changed: {field: {from, to}}`.
  const legacy = summary.changed as Record<string, { from?: unknown; to?: unknown } | string> | undefined;
  const fields: [string, unknown][] =
    legacy && typeof legacy === 'object'
      ? Object.entries(legacy).map(([k, c]) =>
          typeof c === 'string' ? [k, c] : [k, { before: c.from ?? null, after: c.to ?? null }],
        )
      : Object.entries(summary);
  return fields
    .map(([field, c]) => {
      if (typeof c === 'string') return `${field} ${c}`;
      if (c && typeof c === 'object' && !Array.isArray(c)) {
        const o = c as Record<string, unknown>;
        if (Array.isArray(o.keys)) return `${field}: ${clip((o.keys as string[]).join(', '))}`;
        if (o.items && typeof o.items === 'object') {
          const items = o.items as { before?: number | null; after?: number | null };
          return `${field}: ${items.before ?? 0} → ${items.after ?? 0} items`;
        }
        if ('before' in o || 'after' in o)
          return o.before === null || o.before === undefined
            ? `${field}: ${shown(o.after)}`
            : `${field}: ${shown(o.before)} → ${shown(o.after)}`;
      }
      return `${field}: ${shown(c)}`;
    })
    .join('; ');
}

const option = (value: string, label: string, chosen: string | undefined) =>
  html`<option value="${value}"${chosen === value ? html` selected` : ''}>${label}</option>`;

const partHtml = (p: Part): Html => (p.href ? html`<a href="${p.href}">${p.text}</a>` : html`${p.text}`);

/** A sentence's template with its parts in place (linked), the first letter up. */
function sentence(line: StoryLine): Html {
  const pieces = line.template.split(/(\{who\}|\{what\})/).map((piece, i) => {
    if (piece === '{who}') return partHtml(line.who);
    if (piece === '{what}') return line.what ? partHtml(line.what) : html``;
    const text = (i === 0 ? piece.charAt(0).toUpperCase() + piece.slice(1) : piece).replace(/ {2,}/g, ' ');
    return html`${text}`;
  });
  return joinHtml(pieces, '');
}

/** Integrations → Audit trail: each change as a sentence, its details behind it; filters; a page at a time. */
export function auditPage(f: StaffPageFrame, v: AuditPageView): string {
  const w = auditWords[f.lang];
  const filter = v.filter;
  const rows: Html[] = v.lines.map(({ event: e, story }) => {
    const fields = changesText(e.summary);
    return html`<tr><td data-label="${w.when}">${when(f, e.at)}</td><td>${sentence(story)}.<details><summary>${w.details}</summary><dl class="facts"><dt>${w.change}</dt><dd><code>${e.action}</code></dd>${
      fields ? html`<dt>${w.fields}</dt><dd>${fields}</dd>` : ''
    }<dt>${w.address}</dt><dd>${e.address ?? '—'}</dd><dt>${w.request}</dt><dd><code>${e.requestId ?? '—'}</code></dd></dl></details></td></tr>`;
  });
  const scope = (name: 'contact' | 'action', label: string, shown: string | undefined) =>
    filter[name]
      ? html`<p class="notice" role="status">${label}: <strong>${shown ?? ''}</strong> <a href="/staff/audit">${w.removeFilter}</a></p><input type="hidden" name="${name}" value="${filter[name]}">`
      : '';
  return staffLayout({
    ...framed(f),
    title: w.title,
    area: 'audit',
    css: '.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}.filters label{display:block;font-weight:600}.filters p.notice{flex-basis:100%;margin:0}details{margin-top:.25rem}details dl.facts{font-size:.9rem;margin:.5rem 0}',
    body: html`<h1>${w.title}</h1>
<p>${w.intro}</p>
<form method="get" action="/staff/audit" class="filters" aria-label="${w.filterLabel}">
${scope('contact', w.onlyContact, v.about?.contact)}${scope('action', w.onlyAction, v.about?.action)}
<div><label for="person">${w.person}</label><select id="person" name="person">${option('', w.anyone, filter.person)}${v.people.map((p) => option(p.id, p.name, filter.person))}</select></div>
<div><label for="actorType">${w.way}</label><select id="actorType" name="actorType">${option('', w.anyWay, filter.actorType)}${Object.entries(w.ways).map(([value, label]) => option(value, label, filter.actorType))}</select></div>
<div><label for="targetType">${w.kind}</label><select id="targetType" name="targetType">${option('', w.everything, filter.targetType)}${Object.entries(w.kinds).map(([value, label]) => option(value, label, filter.targetType))}</select></div>
<div><label for="since">${w.from}</label><input id="since" name="since" type="date" value="${filter.since ?? ''}"></div>
<div><label for="until">${w.to}</label><input id="until" name="until" type="date" value="${filter.until ?? ''}"></div>
<div><label for="requestId">${w.requestId}</label><input id="requestId" name="requestId" type="text" value="${filter.requestId ?? ''}" size="20"></div>
<div><button type="submit">${w.show}</button></div>
</form>
${
  rows.length
    ? html`<table class="stack"><caption class="skip">${w.caption}</caption><thead><tr><th scope="col">${w.when}</th><th scope="col">${w.change}</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p role="status">${v.query ? w.noneFiltered : w.none}</p>`
}
<nav aria-label="${w.pages}"><p>${v.older ? html`<a href="/staff/audit${v.query ? `?${v.query}` : ''}">${w.newest}</a> ` : ''}${
      v.nextCursor
        ? html`<a href="/staff/audit?${v.query ? `${v.query}&` : ''}startingAfter=${v.nextCursor}">${w.older}</a>`
        : ''
    }</p></nav>`,
  });
}
