// The adviser's e-mails about the actions they sent, in each language: one per event, or a daily digest.
import type { Language } from './languages';

export type NoticeKind = 'completed' | 'allSigned' | 'declined' | 'expired';

export interface NoticeWords {
  subject: Record<NoticeKind, (what: string, contact: string) => string>;
  sentence: Record<NoticeKind, (what: string, contact: string) => string>;
  open: string;
  why: string;
  digestSubject: (n: number) => string;
  digestIntro: string;
  openDesk: string;
}

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
    open: 'Ouvrir l’action',
    why: 'Vous recevez ceci parce que vous avez envoyé l’action. Choisissez chaque événement, un récapitulatif quotidien ou rien dans vos paramètres sur ActionDesk.',
    digestSubject: (n) => (n === 1 ? 'Vos actions : 1 nouvelle' : `Vos actions : ${n} nouvelles`),
    digestIntro: 'Ce qui s’est passé depuis hier avec les actions que vous avez envoyées :',
    openDesk: 'Ouvrir ActionDesk',
  },
};
