// The check that a page meant to be Dutch has no English left: every English phrase of the staff pages'
// words that Dutch says otherwise, and English's commonest small words.
import { deskWords } from '../../src/i18n/desk';
import { actionWords } from '../../src/i18n/desk-action';
import { auditWords } from '../../src/i18n/desk-audit';
import { sentenceWords } from '../../src/i18n/desk-audit-sentences';
import { contactWords } from '../../src/i18n/desk-contacts';
import { integrationWords } from '../../src/i18n/desk-integrations';
import { organisationWords } from '../../src/i18n/desk-organisation';
import { providerWords } from '../../src/i18n/desk-providers';
import { sealWords } from '../../src/i18n/desk-seal';
import { sendWords } from '../../src/i18n/desk-send';
import { sendProblemWords } from '../../src/i18n/desk-send-problems';
import { testInboxWords } from '../../src/i18n/desk-test-inbox';
import { userWords } from '../../src/i18n/desk-users';
import { webhookWords } from '../../src/i18n/desk-webhooks';
import { staffWords } from '../../src/i18n/staff';
import { passwordWords } from '../../src/i18n/staff-password';
import { signInWords } from '../../src/i18n/staff-signin';

/** What a person reads on a page: its text and the words of its labels, titles and confirmations. */
function readable(page: string): string {
  const attributes = [...page.matchAll(/\s(?:aria-label|title|data-confirm|placeholder)="([^"]*)"/g)].map(
    (m) => m[1],
  );
  const text = page
    .replace(/<style>[\s\S]*?<\/style>/g, ' ')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, '\n');
  return `${text}\n${attributes.join('\n')}`
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');
}

/** Every English phrase of the staff pages' words that Dutch says otherwise. */
function englishPhrases(): string[] {
  const out = new Set<string>();
  const walk = (en: unknown, nl: unknown) => {
    if (typeof en === 'string') {
      if (en !== nl && en.length > 3) out.add(en);
    } else if (typeof en === 'function') {
      const sample = (en as (...a: unknown[]) => unknown)('X', 'Y', 'Z');
      const dutch = (nl as (...a: unknown[]) => unknown)('X', 'Y', 'Z');
      if (typeof sample === 'string' && sample !== dutch)
        for (const part of sample.split(/X|Y|Z/)) if (part.trim().length > 3) out.add(part.trim());
    } else if (en && typeof en === 'object') {
      for (const k of Object.keys(en)) walk((en as never)[k], (nl as never)[k]);
    }
  };
  walk(staffWords.en, staffWords.nl);
  walk(deskWords.en, deskWords.nl);
  walk(actionWords.en, actionWords.nl);
  walk(contactWords.en, contactWords.nl);
  walk(integrationWords.en, integrationWords.nl);
  walk(webhookWords.en, webhookWords.nl);
  walk(providerWords.en, providerWords.nl);
  walk(userWords.en, userWords.nl);
  walk(auditWords.en, auditWords.nl);
  walk(sentenceWords.en, sentenceWords.nl);
  walk(sendWords.en, sendWords.nl);
  walk(sendProblemWords.en, sendProblemWords.nl);
  walk(signInWords.en, signInWords.nl);
  walk(passwordWords.en, passwordWords.nl);
  walk(testInboxWords.en, testInboxWords.nl);
  walk(organisationWords.en, organisationWords.nl);
  walk(sealWords.en, sealWords.nl);
  return [...out];
}

/** English left on a page that should be Dutch: known phrases, and English's commonest small words. */
export function englishIn(page: string): string[] {
  const text = readable(page);
  const found = englishPhrases().filter((p) =>
    new RegExp(`(?<![\\p{L}])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(text),
  );
  const words = text.match(
    /\b(the|and|to|your|with|by|for|not|yet|this|has|sent|signed|completed|waiting|search|settings|welcome)\b/gi,
  );
  return [...found, ...(words ?? [])];
}
