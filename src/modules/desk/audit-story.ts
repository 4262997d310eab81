import type { SentenceWords } from '../../i18n/desk-audit-sentences';
import type { AuditEvent } from '../audit';
import type { AuditSubjects } from '../sessionrequests';

// The audit trail as an office manager reads it: each event as a sentence naming who acted and on
// what ("Sofie Claeys signed ‘Mandaat 2026’"), from the event, the organisation's people, and the
// actions, signers and answers it names.

/** A part of a sentence: a name, linked to its page on the desk when it has one. */
export interface Part {
  text: string;
  href?: string;
}

export interface StoryLine {
  /** The sentence with `{who}` and `{what}` left in place for the page to fill with its parts. */
  template: string;
  who: Part;
  what: Part | null;
}

export interface StoryNames {
  people: Map<string, { name: string; kind: 'staff' | 'service' }>;
  /** A contact's name, or null when the contact is gone. */
  contact: (id: string) => string | null;
  subjects: AuditSubjects;
}

/** A field's value as the trail holds it: its new value, else its old one (a removed record's). */
function heldValue(summary: Record<string, unknown>, key: string): string | null {
  const v = summary[key];
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const c = v as { before?: unknown; after?: unknown };
    const found = c.after ?? c.before;
    return typeof found === 'string' ? found : null;
  }
  return null;
}

const changedTo = (summary: Record<string, unknown>, key: string): string | null => {
  const v = summary[key] as { after?: unknown } | undefined;
  return v && typeof v === 'object' && typeof v.after === 'string' ? v.after : null;
};

/**
 * Which sentence: a status reached or a telling field set by an update (a signer's code, a key's
 * revocation), an event of its own, else added, changed or deleted.
 */
function templateOf(e: AuditEvent, w: SentenceWords): string {
  const type = e.target.type;
  const updated = e.action.endsWith('.updated');
  const status = updated ? changedTo(e.summary, 'status') : null;
  const fields = updated
    ? Object.keys(e.summary).filter((k) => {
        const v = e.summary[k];
        if (v === 'set' || v === 'replaced') return true;
        return v !== null && typeof v === 'object' && (v as { after?: unknown }).after != null;
      })
    : [];
  const keyed = [status ? `${type}.${status}` : null, ...fields.map((k) => `${type}.${k}`), e.action].find(
    (k) => k && w.said[k],
  );
  if (keyed) return w.said[keyed]!;
  if (e.action.endsWith('.created')) return w.created;
  if (e.action.endsWith('.deleted')) return w.deleted;
  return w.updated;
}

/** The action a record belongs to: itself, or the action of a signer or of answers. */
function actionIdOf(e: AuditEvent, names: StoryNames): string | null {
  if (e.target.type === 'session_request') return e.target.id;
  if (e.target.type === 'signer' || e.target.type === 'session')
    return names.subjects.parts.get(e.target.id)?.actionId ?? null;
  return null;
}

function actionPart(id: string, names: StoryNames, w: SentenceWords, kinds: Record<string, string>): Part {
  const a = names.subjects.actions.get(id);
  const title = a?.title
    ? w.quote(a.title)
    : a
      ? (kinds[a.type] ?? a.type).toLowerCase()
      : w.nouns.session_request!;
  return { text: title, href: `/staff/actions/${id}` };
}

/** Who acted: a person (and by which credential), the contact, or ActionDesk itself. */
function whoOf(e: AuditEvent, names: StoryNames, w: SentenceWords): Part {
  if (e.actor.type === 'system') return { text: w.actors.system };
  if (e.actor.type === 'contact') {
    const part = names.subjects.parts.get(e.target.id);
    const action = names.subjects.actions.get(actionIdOf(e, names) ?? '');
    const id = part?.customerId ?? action?.customerId ?? (e.target.type === 'customer' ? e.target.id : null);
    const name = id ? names.contact(id) : null;
    return id && name ? { text: name, href: `/staff/contacts/${id}` } : { text: w.actors.contact };
  }
  const person = e.actor.userId ? names.people.get(e.actor.userId) : undefined;
  if (!person) return { text: w.actors.removedUser };
  const text =
    e.actor.type === 'api_key'
      ? w.actors.apiKey(person.name)
      : e.actor.type === 'oauth_client'
        ? w.actors.app(person.name)
        : person.name;
  return { text, href: `/staff/users/${e.actor.userId}` };
}

/** What it was done to, by name, linked where the desk shows it; null when the trail cannot name it. */
function whatOf(
  e: AuditEvent,
  names: StoryNames,
  w: SentenceWords,
  kinds: Record<string, string>,
): Part | null {
  const { type, id } = e.target;
  const actionId = actionIdOf(e, names);
  if (actionId) return actionPart(actionId, names, w, kinds);
  switch (type) {
    case 'customer':
      return { text: names.contact(id) ?? w.deletedContact, href: `/staff/contacts/${id}` };
    case 'user': {
      const person = names.people.get(id);
      return person ? { text: person.name, href: `/staff/users/${id}` } : null;
    }
    default: {
      const name =
        heldValue(e.summary, 'name') ?? heldValue(e.summary, 'title') ?? heldValue(e.summary, 'url');
      const href =
        type === 'webhook'
          ? `/staff/integrations/webhooks/${id}`
          : type === 'oauth_client'
            ? `/staff/integrations/clients/${id}`
            : type === 'sso_provider'
              ? `/staff/integrations/providers/${id}`
              : undefined;
      return name ? { text: w.quote(name), href } : null;
    }
  }
}

/** One event as a sentence: its template with the kind of record filled in, who, and what. */
export function storyOf(
  e: AuditEvent,
  names: StoryNames,
  w: SentenceWords,
  kinds: Record<string, string>,
): StoryLine {
  const noun = w.nouns[e.target.type] ?? e.target.type;
  const what = whatOf(e, names, w, kinds);
  const template = templateOf(e, w).replace('{noun}', noun);
  return {
    template: what ? template : template.replace(/ ?\{what\}/, ''),
    who: whoOf(e, names, w),
    what,
  };
}
