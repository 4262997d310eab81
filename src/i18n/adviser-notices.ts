// The adviser's e-mails about the actions they sent, in each language: one per event, or a daily digest.
import type { Language } from './languages';
import type { MessagePurpose } from './messages';

export type NoticeKind = 'completed' | 'allSigned' | 'declined' | 'expired';

/** A message to a contact that could not be delivered: which, how, and why (as the peer or job said). */
export interface Undelivered {
  purpose: MessagePurpose;
  channel: 'email' | 'sms';
  reason: string;
}

export interface NoticeWords {
  subject: Record<NoticeKind, (what: string, contact: string) => string>;
  sentence: Record<NoticeKind, (what: string, contact: string) => string>;
  /** An invitation, reminder or open-again notice that failed for good; `to` names the contact and address. */
  notDelivered: {
    subject: (what: string, contact: string) => string;
    sentence: (what: string, to: string, message: Undelivered) => string;
  };
  open: string;
  why: string;
  digestSubject: (n: number) => string;
  digestIntro: string;
  openDesk: string;
}

// The messages as a sentence names them (the action's page lists them as Invitation, First reminder, …).
const enPurposes: Record<MessagePurpose, string> = {
  invitation: 'invitation',
  reminder1: 'first reminder',
  reminder2: 'second reminder',
  reopened: 'open-again notice',
};
const nlPurposes: Record<MessagePurpose, string> = {
  invitation: 'de uitnodiging',
  reminder1: 'de eerste herinnering',
  reminder2: 'de tweede herinnering',
  reopened: 'de melding dat de actie heropend is',
};
const frPurposes: Record<MessagePurpose, string> = {
  invitation: 'l’invitation',
  reminder1: 'le premier rappel',
  reminder2: 'le second rappel',
  reopened: 'l’avis de réouverture',
};

export const noticeWords: Record<Language, NoticeWords> = {
  en: {
    subject: {
      completed: (w, c) => `Completed: ${w} — ${c}`,
      allSigned: (w, c) => `Signed by everyone: ${w} — ${c}`,
      declined: (w, c) => `Declined: ${w} — ${c}`,
      expired: (w, c) => `Expired: ${w} — ${c}`,
    },
    sentence: {
      completed: (w, c) => `${c} completed ‘${w}’.`,
      allSigned: (w, c) => `Everyone signed ‘${w}’ (${c}): the signed document is ready.`,
      declined: (w, c) => `${c} declined ‘${w}’.`,
      expired: (w, c) => `‘${w}’ for ${c} expired before it was completed.`,
    },
    notDelivered: {
      subject: (w, c) => `Not delivered: ${w} — ${c}`,
      sentence: (w, to, m) =>
        `Not delivered: the ${enPurposes[m.purpose]} for ‘${w}’ to ${to} could not be sent by ${m.channel === 'sms' ? 'SMS' : 'e-mail'}: ${m.reason}`,
    },
    open: 'Open the action',
    why: 'You receive this because you sent the action. Choose each event, a daily digest or nothing in your settings on ActionDesk.',
    digestSubject: (n) => (n === 1 ? 'Your actions: 1 update' : `Your actions: ${n} updates`),
    digestIntro: 'What happened since yesterday with the actions you sent:',
    openDesk: 'Open ActionDesk',
  },
  nl: {
    subject: {
      completed: (w, c) => `Voltooid: ${w} — ${c}`,
      allSigned: (w, c) => `Door iedereen ondertekend: ${w} — ${c}`,
      declined: (w, c) => `Geweigerd: ${w} — ${c}`,
      expired: (w, c) => `Verlopen: ${w} — ${c}`,
    },
    sentence: {
      completed: (w, c) => `${c} voltooide ‘${w}’.`,
      allSigned: (w, c) => `Iedereen ondertekende ‘${w}’ (${c}): het ondertekende document staat klaar.`,
      declined: (w, c) => `${c} weigerde ‘${w}’.`,
      expired: (w, c) => `‘${w}’ voor ${c} verliep voor het voltooid was.`,
    },
    notDelivered: {
      subject: (w, c) => `Niet afgeleverd: ${w} — ${c}`,
      sentence: (w, to, m) =>
        `Niet afgeleverd: ${nlPurposes[m.purpose]} voor ‘${w}’ aan ${to} kon niet per ${m.channel === 'sms' ? 'sms' : 'e-mail'} worden verstuurd: ${m.reason}`,
    },
    open: 'De actie openen',
    why: 'U krijgt dit omdat u de actie verstuurde. Kies elke gebeurtenis, een dagelijks overzicht of niets in uw instellingen op ActionDesk.',
    digestSubject: (n) => (n === 1 ? 'Uw acties: 1 nieuwtje' : `Uw acties: ${n} nieuwtjes`),
    digestIntro: 'Wat er sinds gisteren gebeurde met de acties die u verstuurde:',
    openDesk: 'ActionDesk openen',
  },
  fr: {
    subject: {
      completed: (w, c) => `Terminée : ${w} — ${c}`,
      allSigned: (w, c) => `Signée par tous : ${w} — ${c}`,
      declined: (w, c) => `Refusée : ${w} — ${c}`,
      expired: (w, c) => `Expirée : ${w} — ${c}`,
    },
    sentence: {
      completed: (w, c) => `${c} a terminé « ${w} ».`,
      allSigned: (w, c) => `Tout le monde a signé « ${w} » (${c}) : le document signé est prêt.`,
      declined: (w, c) => `${c} a refusé « ${w} ».`,
      expired: (w, c) => `« ${w} » pour ${c} a expiré avant d’être terminée.`,
    },
    notDelivered: {
      subject: (w, c) => `Non remis : ${w} — ${c}`,
      sentence: (w, to, m) =>
        `Non remis : impossible d’envoyer ${frPurposes[m.purpose]} pour « ${w} » à ${to} par ${m.channel === 'sms' ? 'SMS' : 'e-mail'} : ${m.reason}`,
    },
    open: 'Ouvrir l’action',
    why: 'Vous recevez ceci parce que vous avez envoyé l’action. Choisissez chaque événement, un récapitulatif quotidien ou rien dans vos paramètres sur ActionDesk.',
    digestSubject: (n) => (n === 1 ? 'Vos actions : 1 nouvelle' : `Vos actions : ${n} nouvelles`),
    digestIntro: 'Ce qui s’est passé depuis hier avec les actions que vous avez envoyées :',
    openDesk: 'Ouvrir ActionDesk',
  },
};
